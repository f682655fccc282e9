"""Rest, respite and spending recovery points.

Healing rolls use many dice, one result but never explode (the text only makes
damage rolls explode). Every result carries before and after values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from functools import partial

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import attribute_die
from bot.rules.hocs.conditions import NO_CONDITIONS, Condition, Conditions
from bot.rules.hocs.damage import HitPoints, heal, restore_nonlethal
from bot.rules.hocs.many_dice import (
    ManyDiceResult,
    best_choice,
    resolve_choice,
    roll_pool,
)
from bot.rules.hocs.threshold import clear_staggered_if_recovered
from bot.rules.hocs.wounds import Wound


class RestingColumn(Enum):
    PLACE = "place"
    RESOURCES = "resources"
    TIME = "time"


class RestingFactor(Enum):
    """A row of Table – Resting Factors; the value is its modifier."""

    BENEFICIAL = 2
    GOOD = 1
    SUBPAR = -1
    CHALLENGING = -2
    EXTREME = -4

    def example(self, column: RestingColumn) -> str:
        return _EXAMPLES[column][self]


_EXAMPLES: dict[RestingColumn, dict[RestingFactor, str]] = {
    RestingColumn.PLACE: {
        RestingFactor.BENEFICIAL: "An environment intended for recovery or a personal room.",
        RestingFactor.GOOD: "A common room or a place with adequate temperature.",
        RestingFactor.SUBPAR: "Camping in natural or underground terrain.",
        RestingFactor.CHALLENGING: "Not having a camp in natural or underground terrain.",
        RestingFactor.EXTREME: "Not having a camp in hostile weather.",
    },
    RestingColumn.RESOURCES: {
        RestingFactor.BENEFICIAL: "Fresh food.",
        RestingFactor.GOOD: "Warm food or rations.",
        RestingFactor.SUBPAR: "Stale or scarce food.",
        RestingFactor.CHALLENGING: "An empty stomach.",
        RestingFactor.EXTREME: "Consecutive days without food.",
    },
    RestingColumn.TIME: {
        RestingFactor.BENEFICIAL: "A whole day of rest.",
        RestingFactor.GOOD: "6 to 8 hours of sleep.",
        RestingFactor.SUBPAR: "4 to 5 hours of sleep.",
        RestingFactor.CHALLENGING: "3 or less hours of sleep.",
        RestingFactor.EXTREME: "Consecutive days without sleep.",
    },
}


def resting_value(
    *,
    place: RestingFactor | None,
    resources: RestingFactor | None,
    time: RestingFactor | None,
    wounds: Iterable[Wound] = (),
) -> int:
    """Sum of the three factors plus wound modifiers (−5 per resting wound).

    ``None`` is a column the GM judges neutral (0); the table has no such row.
    """
    factors = sum(f.value for f in (place, resources, time) if f is not None)
    return factors + sum(w.effect.resting_value for w in wounds)


@dataclass(frozen=True)
class Points:
    """A pool of recovery or determination points."""

    current: int
    maximum: int

    def __post_init__(self) -> None:
        if not 0 <= self.current <= self.maximum:
            raise RulesError(f"{self.current} points is not between 0 and {self.maximum}")

    @property
    def missing(self) -> int:
        return self.maximum - self.current

    def gain(self, amount: int) -> Points:
        return replace(self, current=min(self.maximum, self.current + amount))


def strength_roll(strength: int, dice: Dice) -> ManyDiceResult:
    """[1d STR]: the strength attribute die, best die kept (STR 4 rolls 2d8)."""
    rolled = roll_pool(attribute_die(strength), dice, exploding=False)
    return resolve_choice(rolled, best_choice(rolled), dice)


@dataclass(frozen=True)
class RecoverySpending:
    hp_before: HitPoints
    hp_after: HitPoints
    recovery_before: Points
    recovery_after: Points
    rolls: tuple[ManyDiceResult, ...]

    @property
    def rolled(self) -> int:
        return sum(r.total for r in self.rolls)

    @property
    def wasted(self) -> int:
        return self.rolled - (self.hp_after.current - self.hp_before.current)


def spend_recovery(
    hp: HitPoints, recovery: Points, *, points: int, strength: int, dice: Dice
) -> RecoverySpending:
    """Spend ``points`` recovery points during a rest: [1d STR] hit points each."""
    if points < 1:
        raise RulesError("spend at least 1 recovery point")
    if points > recovery.current:
        raise RulesError(f"only {recovery.current} recovery points are left")
    rolls = tuple(strength_roll(strength, dice) for _ in range(points))
    after = heal(hp, sum(r.total for r in rolls))
    return RecoverySpending(
        hp, after, recovery, replace(recovery, current=recovery.current - points), rolls
    )


class RestKind(Enum):
    POSITIVE = "positive"
    ZERO = "zero"
    NEGATIVE = "negative"


@dataclass(frozen=True)
class RestSplit:
    """How the player shares the rest's points; unassigned points are wasted."""

    hp: int = 0
    recovery: int = 0
    determination: int = 0

    def __post_init__(self) -> None:
        if min(self.hp, self.recovery, self.determination) < 0:
            raise RulesError(
                "Rest points can't be assigned in negative amounts:"
                " give hp, recovery and determination as 0 or more."
            )

    @property
    def total(self) -> int:
        return self.hp + self.recovery + self.determination


@dataclass(frozen=True)
class RestResult:
    value: int
    kind: RestKind
    hp_before: HitPoints
    hp_after: HitPoints
    recovery_before: Points
    recovery_after: Points
    determination_before: Points
    determination_after: Points
    conditions_before: Conditions
    conditions_after: Conditions
    nonlethal_restored: int
    roll: ManyDiceResult | None = None  # the d6s (positive) or the d4 (zero)
    points: int = 0  # what the positive roll granted
    split: RestSplit | None = None
    wasted: int = 0
    test_difficulty: int | None = None
    test_successes: int | None = None

    @property
    def test_passed(self) -> bool | None:
        if self.test_difficulty is None or self.test_successes is None:
            return None
        return self.test_successes >= self.test_difficulty


def rest_test_difficulty(value: int) -> int | None:
    """A negative rest asks for a physique or willpower test against |value|."""
    return -value if value < 0 else None


def default_split(points: int, hp: HitPoints, determination: Points) -> RestSplit:
    """Ruling: hit points first (to the maximum), then determination, then recovery.
    Hit points keep a character alive; determination is spent more often than
    recovery points, which only turn back into hit points."""
    to_hp = min(points, max(0, hp.maximum - hp.current))
    to_det = min(points - to_hp, determination.missing)
    return RestSplit(hp=to_hp, determination=to_det, recovery=points - to_hp - to_det)


def rest(
    hp: HitPoints,
    *,
    value: int,
    recovery: Points,
    determination: Points,
    dice: Dice,
    conditions: Conditions = NO_CONDITIONS,
    split: RestSplit | None = None,
    choose: int | None = None,
    test_successes: int | None = None,
) -> RestResult:
    """Finish a rest of the given ``value`` (see ``resting_value``).

    Hit points lost to non-lethal damage come back first, in every case, so the
    rest's own points go further. Spend unused recovery points before calling
    this (``spend_recovery``).

    Positive: roll ``value`` d6, keep one (``choose`` or the best; +1 per other
    6) and share those points by ``split`` or ``default_split``; points past a
    maximum or left unassigned are wasted. A positive rest clears fatigued.
    Zero: 1d4 hit points. Negative: ``test_successes`` of a physique or
    willpower test vs |value|; success 1 hit point, failure one more instance
    of fatigued.
    """
    restored = restore_nonlethal(hp)
    if value <= 0 and (split is not None or choose is not None):
        raise RulesError("only a rest of positive value rolls points to share")
    make = partial(
        RestResult,
        value=value,
        hp_before=hp,
        recovery_before=recovery,
        determination_before=determination,
        conditions_before=conditions,
        nonlethal_restored=hp.nonlethal_taken,
    )
    if value < 0:
        if test_successes is None:
            raise RulesError(
                f"a rest of value {value} needs a physique or willpower test vs {-value}"
            )
        if test_successes < 0:
            raise RulesError("a roll cannot have fewer than 0 successes")
        difficulty = -value
        passed = test_successes >= difficulty
        after = heal(restored, 1) if passed else restored
        after_conditions = conditions if passed else conditions.add(Condition.FATIGUED)
        return make(
            kind=RestKind.NEGATIVE,
            hp_after=after,
            recovery_after=recovery,
            determination_after=determination,
            conditions_after=clear_staggered_if_recovered(after_conditions, after),
            test_difficulty=difficulty,
            test_successes=test_successes,
        )
    if test_successes is not None:
        raise RulesError("only a rest of negative value calls for a test")
    if value == 0:
        roll = resolve_choice(roll_pool((4,), dice, exploding=False), 0, dice)
        after = heal(restored, roll.total)
        return make(
            kind=RestKind.ZERO,
            hp_after=after,
            recovery_after=recovery,
            determination_after=determination,
            conditions_after=clear_staggered_if_recovered(conditions, after),
            roll=roll,
            wasted=roll.total - (after.current - restored.current),
        )
    rolled = roll_pool((6,) * value, dice, exploding=False)
    roll = resolve_choice(rolled, best_choice(rolled) if choose is None else choose, dice)
    points = roll.total
    chosen_split = default_split(points, restored, determination) if split is None else split
    if chosen_split.total > points:
        raise RulesError(f"the rest grants {points} points, not {chosen_split.total}")
    after = heal(restored, chosen_split.hp)
    recovery_after = recovery.gain(chosen_split.recovery)
    determination_after = determination.gain(chosen_split.determination)
    used = (
        (after.current - restored.current)
        + (recovery_after.current - recovery.current)
        + (determination_after.current - determination.current)
    )
    after_conditions = clear_staggered_if_recovered(conditions.remove(Condition.FATIGUED), after)
    return make(
        kind=RestKind.POSITIVE,
        hp_after=after,
        recovery_after=recovery_after,
        determination_after=determination_after,
        conditions_after=after_conditions,
        roll=roll,
        points=points,
        split=chosen_split,
        wasted=points - used,
    )


class RespiteChoice(Enum):
    HIT_POINTS = "hit points"
    DETERMINATION = "determination point"


@dataclass(frozen=True)
class RespiteResult:
    choice: RespiteChoice
    hp_before: HitPoints
    hp_after: HitPoints
    recovery_before: Points
    recovery_after: Points
    determination_before: Points
    determination_after: Points
    nonlethal_restored: int
    roll: ManyDiceResult | None = None


def respite(
    hp: HitPoints,
    *,
    choice: RespiteChoice,
    strength: int,
    recovery: Points,
    determination: Points,
    dice: Dice,
) -> RespiteResult:
    """Spend 1 recovery point: [1d STR] hit points or 1 determination point, and
    every hit point lost to non-lethal damage comes back either way."""
    if recovery.current < 1:
        raise RulesError("no recovery points left; rest to regain them")
    restored = restore_nonlethal(hp)
    spent = replace(recovery, current=recovery.current - 1)
    roll = None
    after = restored
    determination_after = determination
    if choice is RespiteChoice.HIT_POINTS:
        roll = strength_roll(strength, dice)
        after = heal(restored, roll.total)
    else:
        determination_after = determination.gain(1)
    return RespiteResult(
        choice=choice,
        hp_before=hp,
        hp_after=after,
        recovery_before=recovery,
        recovery_after=spent,
        determination_before=determination,
        determination_after=determination_after,
        nonlethal_restored=hp.nonlethal_taken,
        roll=roll,
    )
