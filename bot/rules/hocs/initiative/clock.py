"""The dying and unconscious clock: when a participant's test falls due, and its outcome.

HOCS, "Dying": "After an amount of minutes equal to their strength attribute, dying
characters must make a test: Physique or Willpower vs difficulty 3." "Unconscious":
"Every half an hour onward, an unconscious character can make a test".

Rulings:

* A round lasts 6 seconds, so a minute is 10 rounds (the text gives no length for a
  round; 6 seconds is the usual table reading of "2 actions and 1 quick action").
  A dying character's test is due STR × 10 rounds after the round they started
  dying (before round 1 counts as round 1); an unconscious (not dying) character's
  test every 300 rounds. STR is the wounded strength (the threshold's −(STR + 3)).
* The test falls due at the start of the participant's turn in that round (or the
  first turn after it); the owner is prompted once with buttons to roll it, and the
  GM may press them too. Rolled, it is applied at once: stable (still unconscious),
  dead, awake (staggered at 0 HP or below), or still unconscious (the next test 300
  rounds on). Stabilised, the half-hourly unconscious clock starts.
* Only sheet characters run the clock: a quick NPC is down at 0 hit points.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.hocs.initiative.events import RecoveryTestDue, RecoveryTestRolled
from bot.rules.hocs.initiative.model import Encounter, Participant, with_updated
from bot.rules.hocs.initiative.values import RecoveryClock
from bot.rules.hocs.threshold import RecoveryKind, RecoveryResult, RecoveryTest, recovery_kind

ROUNDS_PER_MINUTE = 10
UNCONSCIOUS_WAIT_ROUNDS = 30 * ROUNDS_PER_MINUTE


def strength_of(p: Participant) -> int | None:
    """The (wounded) strength behind a sheet participant's threshold −(STR + 3)."""
    return None if p.threshold is None else max(0, -p.threshold - 3)


def wait_rounds(p: Participant, kind: RecoveryKind) -> int:
    if kind is RecoveryKind.DYING:
        return (strength_of(p) or 0) * ROUNDS_PER_MINUTE
    return UNCONSCIOUS_WAIT_ROUNDS


def update_clocks(enc: Encounter) -> Encounter:
    """Start a clock for each sheet participant newly dying or unconscious, restart it
    when the kind changes (dying → stable and unconscious), stop it otherwise."""
    next_id = enc.next_effect_id
    start = max(enc.round, 1)
    changed: list[Participant] = []
    for p in enc.participants:
        kind = recovery_kind(p.conditions) if p.threshold is not None else None
        if kind is None:
            if p.clock is not None:
                changed.append(replace(p, clock=None))
            continue
        if p.clock is not None and p.clock.kind is kind:
            continue
        clock = RecoveryClock(id=next_id, kind=kind, due_round=start + wait_rounds(p, kind))
        changed.append(replace(p, clock=clock))
        next_id += 1
    if not changed:
        return enc
    return replace(with_updated(enc, *changed), next_effect_id=next_id)


def test_falls_due(p: Participant, round_: int) -> tuple[Participant, list[RecoveryTestDue]]:
    """At the start of ``p``'s turn: prompt the test once when its round has come."""
    clock = p.clock
    if clock is None or clock.prompted or round_ < clock.due_round or p.is_dead:
        return p, []
    p = replace(p, clock=replace(clock, prompted=True))
    return p, [RecoveryTestDue(p.id, p.name, p.owner_id, clock.kind, clock.id)]


def check_test(enc: Encounter, participant_id: int, clock_id: int) -> Participant:
    """The participant whose prompted test ``clock_id`` names; RulesError otherwise."""
    p = enc.participant(participant_id)
    clock = p.clock
    if clock is None or clock.id != clock_id:
        raise RulesError(f"That test of {p.name}'s has already been rolled or is no longer due.")
    if not clock.prompted:
        raise RulesError(
            f"{p.name}'s {clock.kind.value} test isn't due yet (round {clock.due_round})."
        )
    return p


def apply_recovery_test(
    enc: Encounter, participant_id: int, clock_id: int, test: RecoveryTest
) -> tuple[Encounter, list[RecoveryTestRolled]]:
    """Apply a rolled test: its conditions, and the clock that follows (see rulings)."""
    p = check_test(enc, participant_id, clock_id)
    if test.kind is not p.clock.kind:  # type: ignore[union-attr]
        raise RulesError(f"{p.name}'s conditions changed: the test is no longer the one due.")
    clock: RecoveryClock | None = None
    next_id = enc.next_effect_id
    if test.result is RecoveryResult.STAYS_UNCONSCIOUS:
        due = max(enc.round, 1) + UNCONSCIOUS_WAIT_ROUNDS
        clock = RecoveryClock(id=next_id, kind=RecoveryKind.UNCONSCIOUS, due_round=due)
        next_id += 1
    updated = replace(p, conditions=test.after, clock=clock)
    enc = replace(with_updated(enc, updated), next_effect_id=next_id)
    return update_clocks(enc), [RecoveryTestRolled(p.id, p.name, p.character_id, test)]
