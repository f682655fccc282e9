"""Moving through a round: the next turn, going back, jumping to a participant.

Rulings:

* With ``skip_down`` on, a slot whose members are all unconscious, dying or dead is
  passed over (its turn start still happens: bleeding ticks, conditions expire);
  when every slot is down nobody is skipped.
* ``prev`` returns to the previous turn of the same round without repeating its
  start (no second bleeding tick); it can't cross into the previous round, whose
  order was rolled anew. ``move`` starts the named participant's turn now.
* A player may end only their own turn; on a group's turn, ending it ends the whole
  group's turn. Only a player character's owner is pinged when its turn starts
  (both enforced by the initiative cog).
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.initiative.actions import end_turn_bonuses
from bot.rules.hocs.initiative.clock import update_clocks
from bot.rules.hocs.initiative.effects import start_of_turn
from bot.rules.hocs.initiative.events import Event, TurnReturned, TurnSkipped, TurnStarted
from bot.rules.hocs.initiative.model import Encounter, with_updated
from bot.rules.hocs.initiative.order import slot_down, slot_leader, start_round
from bot.rules.hocs.initiative.values import MAX_PARTICIPANTS


def next_turn(enc: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
    """End the current turn and start the next (a new round after the last slot)."""
    if not enc.participants:
        raise RulesError("Nobody is in this encounter yet: add participants or /init join.")
    enc, events = advance(enc, dice)
    return replace(enc, turn=enc.turn + 1), events


def advance(enc: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
    """Start the next slot's turn, rolling a new round after the last (skips included)."""
    events: list[Event] = []
    index = -1 if enc.current is None else enc.current
    # Each pass either starts a turn or skips a slot; two full rounds of skipping is
    # impossible because a round where every slot is down skips nobody.
    for _ in range(2 * MAX_PARTICIPANTS + 4):
        index += 1
        if not enc.started or index >= len(enc.order):
            enc, more = start_round(enc, dice)
            events += more
            index = 0
        enc, more, skipped = begin_turn(enc, index)
        events += more
        if not skipped:
            return enc, events
    raise AssertionError("the turn loop did not settle")  # pragma: no cover


def begin_turn(enc: Encounter, index: int) -> tuple[Encounter, list[Event], bool]:
    """Start the slot at ``index``: expiries, bleeding, notes; skip it if it's down."""
    slot = enc.order[index]
    # Conditions may have changed since the last command (a hit, /condition): start or
    # stop clocks before the turn's start reads them.
    enc = update_clocks(replace(end_turn_bonuses(enc), current=index))
    events: list[Event] = []
    for member in enc.slot_members(slot):
        updated, more = start_of_turn(member, enc.round)
        enc = with_updated(enc, updated)
        events += more
    members = enc.slot_members(slot)
    # (Whether everyone is down is asked only when it decides: a look at every slot.)
    if (
        enc.skip_down
        and slot_down(members)
        and not all(slot_down(enc.slot_members(s)) for s in enc.order)
    ):
        events.append(TurnSkipped(tuple(slot), tuple(m.name for m in members)))
        return enc, events, True
    roll = slot_leader(members).roll
    successes = roll.successes if roll else None
    events.insert(0, TurnStarted(enc.round, enc.turn + 1, tuple(slot), successes))
    return enc, events, False


def prev_turn(enc: Encounter) -> tuple[Encounter, list[Event]]:
    """Go back to the previous turn of this round, without repeating its start."""
    if enc.current is None or enc.current_slot is None:
        raise RulesError("No turn has started yet: use /init next to start the first round.")
    index = enc.current - 1
    while index >= 0 and enc.skip_down and slot_down(enc.slot_members(enc.order[index])):
        index -= 1
    if index < 0:
        raise RulesError(
            "This is the first turn of the round: initiative was rolled anew, so there is"
            " no going back into the last round."
        )
    enc = replace(end_turn_bonuses(enc), current=index, turn=enc.turn + 1)
    return enc, [TurnReturned(enc.order[index])]


def move_to(enc: Encounter, participant_id: int, dice: Dice) -> tuple[Encounter, list[Event]]:
    """Start the turn of the slot holding ``participant_id`` now (its start happens)."""
    events: list[Event] = []
    if not enc.started:
        enc, events = start_round(enc, dice)
    index = enc.slot_of(participant_id)
    if index is None:
        raise RulesError("That participant has no place in this round's order yet.")
    if index == enc.current:
        name = enc.participant(participant_id).name
        raise RulesError(f"It is already {name}'s turn.")
    enc, more, _ = begin_turn(enc, index)
    turn_started = [e for e in more if isinstance(e, TurnStarted)]
    if not turn_started:  # moved onto a slot that is down and skipped: start it anyway
        roll = slot_leader(enc.slot_members(enc.order[index])).roll
        more = [
            TurnStarted(
                enc.round, enc.turn + 1, enc.order[index], roll.successes if roll else None
            ),
            *(e for e in more if not isinstance(e, TurnSkipped)),
        ]
    return replace(enc, turn=enc.turn + 1), events + more
