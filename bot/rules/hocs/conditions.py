"""Conditions from Heroes of Countless Stories and their mechanical effect on rolls.

A character's conditions are held in an immutable ``Conditions`` value. Most
conditions are simply present or absent; *fatigued* stacks (each instance is one
more bane and −5 speed) and *bleeding* carries a value (hit points lost at the
start of each turn).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError


class ConditionKind(Enum):
    """How a condition's number behaves."""

    FLAG = "flag"  # present or absent
    STACKS = "stacks"  # the number counts instances, and gaining it again adds one
    VALUE = "value"  # the number is a magnitude, e.g. bleeding (2)


class Condition(Enum):
    STAGGERED = "staggered"
    UNCONSCIOUS = "unconscious"
    STABLE = "stable"
    DYING = "dying"
    FATIGUED = "fatigued"
    BLEEDING = "bleeding"
    HINDERED = "hindered"
    SLOW = "slow"
    DEFENSELESS = "defenseless"
    WOUNDED = "wounded"
    OUTNUMBERED = "outnumbered"
    FLANKED = "flanked"
    DEAD = "dead"

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]

    @property
    def kind(self) -> ConditionKind:
        if self is Condition.FATIGUED:
            return ConditionKind.STACKS
        if self is Condition.BLEEDING:
            return ConditionKind.VALUE
        return ConditionKind.FLAG


_DESCRIPTIONS: dict[Condition, str] = {
    Condition.STAGGERED: "2 banes on all skill rolls; only 1 action or 1 quick action per turn.",
    Condition.UNCONSCIOUS: "Cannot act or perceive; can be killed with the execute maneuver.",
    Condition.STABLE: "Not dying, whether conscious or not.",
    Condition.DYING: "Must pass a physique or willpower test (3) after STR minutes or die.",
    Condition.FATIGUED: "1 bane on all skill rolls and −5 speed per instance.",
    Condition.BLEEDING: "Loses hit points equal to the bleeding value at the start of each turn.",
    Condition.HINDERED: "Speed halved; cannot quick step, dash or reactive step.",
    Condition.SLOW: "Only 1 action during the turn.",
    Condition.DEFENSELESS: "Cannot defend; attacks against it gain a combat advantage.",
    Condition.WOUNDED: "Has at least one wound or injury.",
    Condition.OUTNUMBERED: "Outnumbering enemies gain 1 boon on melee attacks against it.",
    Condition.FLANKED: "Flanking enemies gain 1 boon on melee attacks against it.",
    Condition.DEAD: "Dead.",
}


@dataclass(frozen=True)
class Conditions:
    """An immutable set of conditions, each with a number (1 for plain flags).

    ``entries`` is kept sorted by condition name so equal sets compare equal.
    """

    entries: tuple[tuple[Condition, int], ...] = ()

    def __post_init__(self) -> None:
        seen: set[Condition] = set()
        for condition, number in self.entries:
            if condition in seen:
                raise RulesError(f"the {condition.value} condition is listed twice")
            seen.add(condition)
            if number < 1:
                raise RulesError(f"the {condition.value} condition needs a value of at least 1")
            if condition.kind is ConditionKind.FLAG and number != 1:
                raise RulesError(f"the {condition.value} condition has no value")
        ordered = tuple(sorted(self.entries, key=lambda e: e[0].value))
        object.__setattr__(self, "entries", ordered)

    @classmethod
    def of(cls, *conditions: Condition, **numbers: int) -> Conditions:
        """``Conditions.of(Condition.STAGGERED, fatigued=2, bleeding=3)``."""
        entries = {c: 1 for c in conditions}
        for name, number in numbers.items():
            try:
                entries[Condition(name)] = number
            except ValueError:
                raise RulesError(f"there is no condition called {name!r}") from None
        return cls(tuple(entries.items()))

    def __contains__(self, condition: object) -> bool:
        # A loop, not any() over a generator: asked several times by every attack.
        for c, _ in self.entries:
            if c is condition:
                return True
        return False

    def __iter__(self) -> Iterator[Condition]:
        return (c for c, _ in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def value(self, condition: Condition) -> int:
        """Instances (stacking), magnitude (valued) or 1 (flag); 0 when absent."""
        for c, number in self.entries:
            if c is condition:
                return number
        return 0

    def add(self, condition: Condition, value: int = 1) -> Conditions:
        """Gain a condition.

        Fatigued stacks (``value`` more instances). Bleeding keeps the higher
        value: the text never says two bleedings add up, so we do not invent it.
        """
        current = dict(self.entries)
        have = current.get(condition, 0)
        if condition.kind is ConditionKind.STACKS:
            current[condition] = have + value
        elif condition.kind is ConditionKind.VALUE:
            current[condition] = max(have, value)
        else:
            current[condition] = 1
        return Conditions(tuple(current.items()))

    def remove(self, condition: Condition) -> Conditions:
        return Conditions(tuple(e for e in self.entries if e[0] is not condition))

    def to_dict(self) -> dict[str, int]:
        return {c.value: n for c, n in self.entries}

    @classmethod
    def from_dict(cls, data: Mapping[str, int]) -> Conditions:
        return cls.of(**dict(data))


NO_CONDITIONS = Conditions()


def as_conditions(conditions: Conditions | Iterable[Condition]) -> Conditions:
    """Accept a plain iterable of flags where a full ``Conditions`` is not needed."""
    if isinstance(conditions, Conditions):
        return conditions
    return Conditions.of(*conditions)


def skill_roll_banes(conditions: Conditions | Iterable[Condition]) -> int:
    """Banes every skill roll suffers: staggered 2, fatigued 1 per instance."""
    held = as_conditions(conditions)
    banes = 2 if Condition.STAGGERED in held else 0
    return banes + held.value(Condition.FATIGUED)


def melee_attack_boons(target_conditions: Conditions | Iterable[Condition]) -> int:
    """Boon *sources* a melee attacker gains from the target's conditions.

    Outnumbered and flanked give 1 each, so this returns 0–2. Boons do not add
    dice beyond the first, but each one still cancels a bane, so the raw count
    is what the skill-roll pool needs.
    """
    held = as_conditions(target_conditions)
    return sum(1 for c in (Condition.OUTNUMBERED, Condition.FLANKED) if c in held)


def attacks_gain_combat_advantage(target_conditions: Conditions | Iterable[Condition]) -> bool:
    """Attacks against a defenseless target benefit from a combat advantage."""
    return Condition.DEFENSELESS in as_conditions(target_conditions)


def speed_after_conditions(speed: int, conditions: Conditions | Iterable[Condition]) -> int:
    """Fatigued subtracts 5 per instance, then hindered halves (rounding down)."""
    held = as_conditions(conditions)
    speed = max(0, speed - 5 * held.value(Condition.FATIGUED))
    if Condition.HINDERED in held:
        speed //= 2
    return speed


@dataclass(frozen=True)
class ActionAllowance:
    """What a character may do on its turn.

    ``either_or`` means the actions and quick actions are alternatives: the
    character takes one *or* the other (staggered), not both.
    """

    actions: int
    quick_actions: int
    reactions: int
    either_or: bool = False


NORMAL_ACTIONS = ActionAllowance(actions=2, quick_actions=1, reactions=1)


def actions_per_turn(conditions: Conditions | Iterable[Condition]) -> ActionAllowance:
    """Actions left by the conditions.

    Ruling: slow limits only actions ("only have access to 1 action"), so the
    quick action stays; staggered names both ("1 action or 1 quick action").
    Both together give the stricter staggered allowance.
    """
    held = as_conditions(conditions)
    if Condition.DEAD in held or Condition.UNCONSCIOUS in held:
        return ActionAllowance(actions=0, quick_actions=0, reactions=0)
    if Condition.STAGGERED in held:
        return ActionAllowance(actions=1, quick_actions=1, reactions=1, either_or=True)
    if Condition.SLOW in held:
        return ActionAllowance(actions=1, quick_actions=1, reactions=1)
    return NORMAL_ACTIONS
