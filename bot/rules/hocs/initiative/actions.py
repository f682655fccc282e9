"""The action economy: marking actions, quick actions and reactions as used.

Rulings:

* Actions: 2 actions, 1 quick action and 1 reaction per round (one turn per round);
  conditions limit them (``actions_per_turn``). Actions and quick actions are marked
  on the participant's own turn, reactions at any time in the round; a quick action
  may be paid with an action once the quick action is spent.
* Hero point, "1 extra action until the end of their turn (unique bonus)": granted
  on the participant's own turn, at most one per turn (a second is refused), it
  adds 1 to the actions allowed (for a staggered participant, 1 use on top of "1
  action or 1 quick action") and ends with the turn, used or not
  (``end_turn_bonuses``, called whenever the current turn changes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import ActionAllowance
from bot.rules.hocs.initiative.events import ActionMarked, Event
from bot.rules.hocs.initiative.model import Encounter, with_updated
from bot.rules.hocs.initiative.values import ActionKind, Spent

MAX_EXTRA_ACTIONS = 1  # "unique bonus": one per turn


def spend(enc: Encounter, participant_id: int, kind: ActionKind) -> tuple[Encounter, list[Event]]:
    """Mark an action, quick action or reaction as used (see the module's rulings)."""
    p = enc.participant(participant_id)
    if not enc.started:
        raise RulesError("The first round hasn't started: use /init next first.")
    allowance = p.allowance
    spent = p.spent
    on_turn = enc.current_slot is not None and participant_id in enc.current_slot
    if kind is not ActionKind.REACTION and not on_turn:
        raise RulesError(
            f"It isn't {p.name}'s turn: actions and quick actions are used on your own turn"
            " (reactions at any time)."
        )
    if p.is_down:
        raise RulesError(f"{p.name} is down and can't act.")
    paid_with_action = False
    either_or_used = allowance.either_or and spent.actions + spent.quick >= p.either_or_limit
    if kind is ActionKind.REACTION:
        if spent.reactions >= allowance.reactions:
            raise RulesError(f"{p.name} has used their reaction this round.")
        spent = replace(spent, reactions=spent.reactions + 1)
    elif either_or_used:
        raise RulesError(
            f"{p.name} is staggered: only 1 action or 1 quick action per turn"
            f"{' (and the extra action)' if p.extra_actions else ''}, already used."
        )
    elif kind is ActionKind.ACTION:
        if spent.actions >= allowance.actions:
            raise RulesError(f"{p.name} has no actions left this round.")
        spent = replace(spent, actions=spent.actions + 1)
    elif spent.quick < allowance.quick_actions:
        spent = replace(spent, quick=spent.quick + 1)
    elif spent.actions < allowance.actions:
        spent = replace(spent, actions=spent.actions + 1)
        paid_with_action = True
    else:
        raise RulesError(f"{p.name} has no quick action (or action to pay for one) left.")
    enc = with_updated(enc, replace(p, spent=spent))
    return enc, [ActionMarked(p.id, p.name, kind, paid_with_action, spent, allowance)]


@dataclass(frozen=True, kw_only=True)
class ExtraAction:
    """An extra action granted: to whom, and what they now have this turn."""

    participant_id: int
    name: str
    allowance: ActionAllowance
    spent: Spent


def grant_extra_action(enc: Encounter, participant_id: int) -> tuple[Encounter, ExtraAction]:
    """A hero point's extra action for the participant whose turn it is (see the
    module's rulings). Raises RulesError when it isn't their turn, they are down, or
    they already have this turn's extra action."""
    p = enc.participant(participant_id)
    if not enc.started or enc.current_slot is None or participant_id not in enc.current_slot:
        raise RulesError(f"It isn't {p.name}'s turn: an extra action is gained on your own turn.")
    if p.is_down:
        raise RulesError(f"{p.name} is down and can't act.")
    if p.extra_actions >= MAX_EXTRA_ACTIONS:
        raise RulesError(
            f"{p.name} already has an extra action this turn (a unique bonus): only one per turn."
        )
    updated = replace(p, extra_actions=p.extra_actions + 1)
    enc = with_updated(enc, updated)
    return enc, ExtraAction(
        participant_id=p.id, name=p.name, allowance=updated.allowance, spent=updated.spent
    )


def end_turn_bonuses(enc: Encounter) -> Encounter:
    """The current turn is over: extra actions not used are lost."""
    ended = [replace(p, extra_actions=0) for p in enc.participants if p.extra_actions]
    return with_updated(enc, *ended) if ended else enc
