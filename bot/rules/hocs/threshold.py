"""What happens after damage: fine, a threshold test, unconscious, or dead.

Threshold = −(STR + 3). Between 0 and the threshold (inclusive) a character who
just lost hit points makes a threshold test (physique or willpower, the
player's choice) against the damage received after reductions; beyond it they
die. Rolling the test belongs to the skill-roll code: this module only says
whether one is needed and reads its successes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import DamageApplication, HitPoints

RECOVERY_TEST_DIFFICULTY = 3  # unconscious and dying tests
ADVANTAGE_MARGIN = 2


class ThresholdState(Enum):
    FINE = "fine"  # above 0 hit points, or no hit points were lost
    TEST_REQUIRED = "test required"
    KNOCKED_OUT = "knocked out"  # non-lethal damage took the last hit point
    DEAD = "dead"


@dataclass(frozen=True)
class ThresholdCheck:
    """The state after damage; ``difficulty`` is set when a test is required."""

    state: ThresholdState
    difficulty: int | None = None
    conditions_gained: tuple[Condition, ...] = ()


def check_threshold(application: DamageApplication, *, extra_difficulty: int = 0) -> ThresholdCheck:
    """Classify the defender after ``application``.

    ``extra_difficulty`` is the +1 per "threshold tests difficulty" wound
    (see ``wounds.apply_wound_effects``).

    Rulings: a test is due each time hit points are actually lost while the
    result is inside the threshold (0 counts as inside), so a staggered
    character hit again tests again; damage fully absorbed by temporary hit
    points calls for nothing. Non-lethal damage never tests (it knocks out).
    """
    if extra_difficulty < 0:
        raise RulesError("a wound cannot lower the threshold test difficulty")
    after = application.after
    if after.is_beyond_threshold:
        return ThresholdCheck(ThresholdState.DEAD, conditions_gained=(Condition.DEAD,))
    reached_hp = application.after_reductions > application.temporary_absorbed
    if not reached_hp or after.current > 0:
        return ThresholdCheck(ThresholdState.FINE)
    if not application.lethal:
        # Also when already at 0 or below: non-lethal damage takes no more
        # hit points there (see apply_damage) but still knocks the target out.
        return ThresholdCheck(
            ThresholdState.KNOCKED_OUT,
            conditions_gained=(Condition.UNCONSCIOUS, Condition.STABLE),
        )
    return ThresholdCheck(
        ThresholdState.TEST_REQUIRED,
        difficulty=application.after_reductions + extra_difficulty,
    )


class ThresholdResult(Enum):
    ACTS_NORMALLY = "acts normally"  # advantage: 2+ successes over the difficulty
    STAGGERED = "staggered"
    UNCONSCIOUS_STABLE = "unconscious and stable"
    UNCONSCIOUS_DYING = "unconscious and dying"  # failed by 2 or more


_RESULT_CONDITIONS: dict[ThresholdResult, tuple[Condition, ...]] = {
    ThresholdResult.ACTS_NORMALLY: (),
    ThresholdResult.STAGGERED: (Condition.STAGGERED,),
    ThresholdResult.UNCONSCIOUS_STABLE: (Condition.UNCONSCIOUS, Condition.STABLE),
    ThresholdResult.UNCONSCIOUS_DYING: (Condition.UNCONSCIOUS, Condition.DYING),
}


@dataclass(frozen=True)
class ThresholdOutcome:
    successes: int
    difficulty: int
    result: ThresholdResult

    @property
    def conditions_gained(self) -> tuple[Condition, ...]:
        return _RESULT_CONDITIONS[self.result]


def _check_test(successes: int, difficulty: int) -> None:
    if successes < 0:
        raise RulesError("a roll cannot have fewer than 0 successes")
    if difficulty < 1:
        raise RulesError("a test difficulty must be at least 1")


def resolve_threshold_test(successes: int, difficulty: int) -> ThresholdOutcome:
    """Advantage → acts normally; success → staggered; failure → unconscious and
    stable; failure by 2+ → unconscious and dying."""
    _check_test(successes, difficulty)
    if successes >= difficulty + ADVANTAGE_MARGIN:
        result = ThresholdResult.ACTS_NORMALLY
    elif successes >= difficulty:
        result = ThresholdResult.STAGGERED
    elif difficulty - successes >= 2:
        result = ThresholdResult.UNCONSCIOUS_DYING
    else:
        result = ThresholdResult.UNCONSCIOUS_STABLE
    return ThresholdOutcome(successes, difficulty, result)


def apply_threshold_outcome(conditions: Conditions, outcome: ThresholdOutcome) -> Conditions:
    """Add the outcome's conditions; a stable result replaces dying and vice versa."""
    for condition in outcome.conditions_gained:
        if condition is Condition.STABLE:
            conditions = conditions.remove(Condition.DYING)
        if condition is Condition.DYING:
            conditions = conditions.remove(Condition.STABLE)
        conditions = conditions.add(condition)
    return conditions


def resolve_unconscious_test(conditions: Conditions, hp: HitPoints, successes: int) -> Conditions:
    """Half-hourly test (difficulty 3): success wakes the character, staggered
    if they are still at 0 hit points or below."""
    _check_test(successes, RECOVERY_TEST_DIFFICULTY)
    if Condition.UNCONSCIOUS not in conditions or successes < RECOVERY_TEST_DIFFICULTY:
        return conditions
    conditions = conditions.remove(Condition.UNCONSCIOUS)
    return conditions.add(Condition.STAGGERED) if hp.current <= 0 else conditions


def resolve_dying_test(conditions: Conditions, successes: int) -> Conditions:
    """After STR minutes (difficulty 3): success → stable, still unconscious;
    failure → dead."""
    _check_test(successes, RECOVERY_TEST_DIFFICULTY)
    if Condition.DYING not in conditions:
        raise RulesError("only a dying character makes a dying test")
    conditions = conditions.remove(Condition.DYING)
    if successes >= RECOVERY_TEST_DIFFICULTY:
        return conditions.add(Condition.STABLE)
    return conditions.add(Condition.DEAD)


def clear_staggered_if_recovered(conditions: Conditions, hp: HitPoints) -> Conditions:
    """Staggered ends once hit points are back to at least 1."""
    if hp.current >= 1 and Condition.STAGGERED in conditions:
        return conditions.remove(Condition.STAGGERED)
    return conditions
