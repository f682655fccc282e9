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

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import DamageApplication, HitPoints
from bot.rules.hocs.effective import EffectiveValues
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.rolling import roll_pool

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


# --- the dying and unconscious tests, rolled ----------------------------------------------


class RecoveryKind(Enum):
    """Which clock a test answers: the dying test or the half-hourly unconscious test."""

    DYING = "dying"
    UNCONSCIOUS = "unconscious"


class RecoveryResult(Enum):
    STABLE = "stable"  # dying test passed: unconscious but stable
    DIES = "dies"  # dying test failed
    WAKES = "wakes"  # unconscious test passed (staggered if still at 0 HP or below)
    STAYS_UNCONSCIOUS = "stays unconscious"


RECOVERY_SKILLS = ("Physique", "Willpower")


@dataclass(frozen=True)
class RecoveryTest:
    """A rolled dying or unconscious test and the conditions it leaves."""

    kind: RecoveryKind
    skill: str  # the label of the pool rolled ("Physique", "Willpower (MND 2)")
    roll: PoolResult
    result: RecoveryResult
    before: Conditions
    after: Conditions

    @property
    def successes(self) -> int:
        return self.roll.successes


def recovery_kind(conditions: Conditions) -> RecoveryKind | None:
    """The test a character's conditions call for: dying first, else unconscious."""
    if Condition.DEAD in conditions:
        return None
    if Condition.DYING in conditions:
        return RecoveryKind.DYING
    if Condition.UNCONSCIOUS in conditions:
        return RecoveryKind.UNCONSCIOUS
    return None


def roll_recovery_test(
    values: EffectiveValues,
    conditions: Conditions,
    hp: int,
    dice: Dice,
    *,
    skill: str | None = None,
) -> RecoveryTest:
    """Roll the test ``conditions`` call for (dying, else unconscious) vs difficulty 3.

    ``skill`` is "physique" or "willpower", the player's choice ("Physique or
    Willpower"). Ruling: without a choice the pool with more dice after banes is
    rolled (physique on a tie), as for the threshold test. Banes from staggered,
    fatigued and injuries apply as on any skill roll.

    Raises RulesError when the character is neither dying nor unconscious, or the
    skill is neither physique nor willpower.
    """
    kind = recovery_kind(conditions)
    if kind is None:
        raise RulesError("Only a dying or unconscious character makes that test.")
    options = []
    for name in RECOVERY_SKILLS:
        if skill is not None and skill.strip().lower() != name.lower():
            continue
        pool = values.skill_pool(name)
        banes = min(MAX_MODIFIER, sum(n for _, n in values.roll_banes(pool.attribute, conditions)))
        spec = pool.spec(banes=banes)
        options.append((spec.dice_count, -len(options), pool.label, spec))
    if not options:
        raise RulesError("The test is rolled with physique or willpower: choose one of them.")
    _, _, label, spec = max(options)
    roll = roll_pool(spec, dice)
    if kind is RecoveryKind.DYING:
        after = resolve_dying_test(conditions, roll.successes)
        result = RecoveryResult.STABLE if Condition.STABLE in after else RecoveryResult.DIES
    else:
        state = HitPoints(current=hp, maximum=max(hp, 1), threshold=values.threshold)
        after = resolve_unconscious_test(conditions, state, roll.successes)
        woke = Condition.UNCONSCIOUS not in after
        result = RecoveryResult.WAKES if woke else RecoveryResult.STAYS_UNCONSCIOUS
    return RecoveryTest(
        kind=kind, skill=label, roll=roll, result=result, before=conditions, after=after
    )
