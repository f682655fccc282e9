"""The dying and unconscious clock: the schedule, the rolled tests and their outcomes."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.effective import effective_values
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeStats,
    NewParticipant,
    RecoveryTestDue,
    RecoveryTestRolled,
    Side,
    add_participants,
    apply_recovery_test,
    encounter_from_dict,
    encounter_to_dict,
    next_turn,
    update_clocks,
)
from bot.rules.hocs.threshold import (
    RecoveryKind,
    RecoveryResult,
    recovery_kind,
    roll_recovery_test,
)

DYING = Conditions.of(Condition.UNCONSCIOUS, Condition.DYING)
STABLE = Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)


def sheet(strength: int = 3, mind: int = 2) -> CharacterSheet:
    return CharacterSheet(name="Aria", strength=strength, agility=2, mind=mind, presence=1)


def values(strength: int = 3, mind: int = 2):  # type: ignore[no-untyped-def]
    return effective_values(sheet(strength, mind), speed=30)


def encounter(conditions: Conditions, *, strength: int = 3, hp: int = -2) -> Encounter:
    aria = NewParticipant(
        name="Aria",
        side=Side.PC,
        stats=InitiativeStats(agility=2, presence=1),
        owner_id=11,
        character_id=7,
        hp=hp,
        max_hp=12,
        threshold=-(strength + 3),
        conditions=conditions,
    )
    goblin = NewParticipant(
        name="Goblin", side=Side.ANTAGONIST, stats=InitiativeStats(agility=2, presence=2)
    )
    enc, _ = add_participants(Encounter(), [aria, goblin], ScriptedDice([]))
    return enc


def run_until_due(enc: Encounter, dice: RandomDice, limit: int) -> tuple[Encounter, int, list]:  # type: ignore[type-arg]
    """Next turn until a test falls due; the round it fell due in and its events."""
    for _ in range(limit):
        enc, events = next_turn(enc, dice)
        due = [e for e in events if isinstance(e, RecoveryTestDue)]
        if due:
            return enc, enc.round, due
    raise AssertionError("no test fell due")


# --- rolling the tests (worked outcomes) ----------------------------------------------------


def test_dying_test_success_stabilises_and_keeps_unconscious() -> None:
    test = roll_recovery_test(values(), DYING, -2, ScriptedDice([4, 5, 6]))
    assert (test.kind, test.skill, test.successes) == (RecoveryKind.DYING, "Physique (STR 3)", 3)
    assert test.result is RecoveryResult.STABLE and test.after == STABLE


def test_dying_test_failure_kills() -> None:
    test = roll_recovery_test(values(), DYING, -2, ScriptedDice([4, 5, 3]))
    assert test.successes == 2 and test.result is RecoveryResult.DIES
    assert test.after == Conditions.of(Condition.UNCONSCIOUS, Condition.DEAD)


def test_unconscious_test_success_wakes_staggered_inside_the_threshold() -> None:
    test = roll_recovery_test(values(), STABLE, -1, ScriptedDice([6, 4, 4]))
    assert test.kind is RecoveryKind.UNCONSCIOUS and test.result is RecoveryResult.WAKES
    assert test.after == Conditions.of(Condition.STABLE, Condition.STAGGERED)


def test_unconscious_test_success_above_zero_wakes_unstaggered() -> None:
    unconscious = Conditions.of(Condition.UNCONSCIOUS)
    test = roll_recovery_test(values(), unconscious, 3, ScriptedDice([6, 4, 4]))
    assert test.after == Conditions()


def test_unconscious_test_failure_stays_unconscious() -> None:
    test = roll_recovery_test(values(), STABLE, -1, ScriptedDice([6, 4, 1]))
    assert test.result is RecoveryResult.STAYS_UNCONSCIOUS and test.after == STABLE


def test_the_player_chooses_willpower_and_the_default_is_the_bigger_pool() -> None:
    chosen = roll_recovery_test(values(), DYING, -2, ScriptedDice([4, 4]), skill="willpower")
    assert chosen.skill == "Willpower (MIND 2)" and len(chosen.roll.dice) == 2
    default = roll_recovery_test(values(mind=4), DYING, -2, ScriptedDice([4, 4, 4, 1]))
    assert default.skill.startswith("Willpower") and default.result is RecoveryResult.STABLE
    with pytest.raises(RulesError):
        roll_recovery_test(values(), DYING, -2, ScriptedDice([]), skill="agility")


def test_staggered_banes_shrink_the_test_pool() -> None:
    staggered = STABLE.add(Condition.STAGGERED)
    test = roll_recovery_test(values(), staggered, -1, ScriptedDice([6, 6]))
    assert len(test.roll.dice) == 2  # 3 dice, 2 banes remove one


def test_only_the_dying_or_unconscious_test() -> None:
    assert recovery_kind(Conditions.of(Condition.STAGGERED)) is None
    assert recovery_kind(Conditions.of(Condition.DEAD, Condition.DYING)) is None
    with pytest.raises(RulesError, match="dying or unconscious"):
        roll_recovery_test(values(), Conditions(), 3, ScriptedDice([]))


# --- the schedule -----------------------------------------------------------------------------


def test_a_dying_test_falls_due_str_times_ten_rounds_after_dying_began() -> None:
    enc = encounter(DYING, strength=3)
    enc, round_, due = run_until_due(enc, RandomDice(random.Random(3)), 200)
    # Dying from before round 1 (counts as round 1), STR 3: 30 rounds → round 31.
    assert round_ == 31
    [event] = due
    aria = enc.participant(event.participant_id)
    assert (event.name, event.owner_id, event.kind) == ("Aria", 11, RecoveryKind.DYING)
    assert aria.clock is not None and aria.clock.prompted and aria.clock.id == event.clock_id
    # Prompted once: the next turns in the round don't prompt again.
    for _ in range(4):
        enc, events = next_turn(enc, RandomDice(random.Random(4)))
        assert not any(isinstance(e, RecoveryTestDue) for e in events)


def test_strength_zero_is_due_at_once_and_one_minute_per_strength() -> None:
    for strength, expected in ((0, 1), (1, 11)):
        enc = encounter(DYING, strength=strength)
        _, round_, _ = run_until_due(enc, RandomDice(random.Random(5)), 60)
        assert round_ == expected


def test_dying_mid_fight_counts_from_that_round() -> None:
    enc = encounter(Conditions(), strength=2)
    dice = RandomDice(random.Random(6))
    for _ in range(8):  # into round 4 or 5
        enc, _ = next_turn(enc, dice)
    started = enc.round
    aria = next(p for p in enc.participants if p.name == "Aria")
    enc = update_clocks(
        replace(
            enc,
            participants=(
                replace(aria, conditions=DYING),
                *[p for p in enc.participants if p.name != "Aria"],
            ),
        )
    )
    clock = next(p for p in enc.participants if p.name == "Aria").clock
    assert clock is not None and clock.due_round == started + 20 and not clock.prompted
    _, round_, _ = run_until_due(enc, dice, 200)
    assert round_ == started + 20


def test_rolling_stable_starts_the_half_hour_clock_and_a_second_roll_is_refused() -> None:
    enc = encounter(DYING)
    enc, round_, [due] = run_until_due(enc, RandomDice(random.Random(3)), 200)
    test = roll_recovery_test(values(), DYING, -2, ScriptedDice([4, 5, 6]))
    after, [rolled] = apply_recovery_test(enc, due.participant_id, due.clock_id, test)
    assert isinstance(rolled, RecoveryTestRolled) and rolled.test is test
    aria = after.participant(due.participant_id)
    assert aria.conditions == STABLE
    assert aria.clock is not None and aria.clock.kind is RecoveryKind.UNCONSCIOUS
    assert aria.clock.due_round == round_ + 300 and aria.clock.id != due.clock_id
    with pytest.raises(RulesError, match="already been rolled"):
        apply_recovery_test(after, due.participant_id, due.clock_id, test)


def test_a_failed_dying_test_kills_and_stops_the_clock() -> None:
    enc = encounter(DYING)
    enc, _, [due] = run_until_due(enc, RandomDice(random.Random(3)), 200)
    test = roll_recovery_test(values(), DYING, -2, ScriptedDice([1, 2, 3]))
    after, _ = apply_recovery_test(enc, due.participant_id, due.clock_id, test)
    aria = after.participant(due.participant_id)
    assert aria.is_dead and aria.clock is None


def test_a_failed_unconscious_test_waits_another_half_hour() -> None:
    enc = encounter(STABLE, hp=-1)
    enc, round_, [due] = run_until_due(enc, RandomDice(random.Random(8)), 1000)
    assert round_ == 301 and due.kind is RecoveryKind.UNCONSCIOUS
    test = roll_recovery_test(values(), STABLE, -1, ScriptedDice([1, 1, 1]))
    after, _ = apply_recovery_test(enc, due.participant_id, due.clock_id, test)
    clock = after.participant(due.participant_id).clock
    assert clock is not None and clock.due_round == round_ + 300 and not clock.prompted


def test_a_test_not_yet_due_is_refused() -> None:
    enc = update_clocks(encounter(DYING))
    aria = enc.participants[0]
    assert aria.clock is not None
    test = roll_recovery_test(values(), DYING, -2, ScriptedDice([4, 5, 6]))
    with pytest.raises(RulesError, match="isn't due yet"):
        apply_recovery_test(enc, aria.id, aria.clock.id, test)


def test_healed_out_of_dying_stops_the_clock_and_quick_npcs_have_none() -> None:
    enc = update_clocks(encounter(DYING))
    aria = enc.participants[0]
    healed = update_clocks(
        replace(enc, participants=(replace(aria, conditions=Conditions()), enc.participants[1]))
    )
    assert healed.participants[0].clock is None
    goblin = replace(enc.participants[1], conditions=DYING)
    assert update_clocks(replace(enc, participants=(aria, goblin))).participants[1].clock is None


def test_the_clock_survives_saving() -> None:
    enc = update_clocks(encounter(DYING))
    assert encounter_from_dict(encounter_to_dict(enc)) == enc
