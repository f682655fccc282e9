"""The action economy: marking actions, quick actions and reactions as used.

Rulings:

* Actions: 2 actions, 1 quick action and 1 reaction per round (one turn per round);
  conditions limit them (``actions_per_turn``). Actions and quick actions are marked
  on the participant's own turn, reactions at any time in the round; a quick action
  may be paid with an action once the quick action is spent.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.hocs.initiative.events import ActionMarked, Event
from bot.rules.hocs.initiative.model import Encounter, with_updated
from bot.rules.hocs.initiative.values import ActionKind


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
    either_or_used = allowance.either_or and spent.actions + spent.quick >= 1
    if kind is ActionKind.REACTION:
        if spent.reactions >= allowance.reactions:
            raise RulesError(f"{p.name} has used their reaction this round.")
        spent = replace(spent, reactions=spent.reactions + 1)
    elif either_or_used:
        raise RulesError(
            f"{p.name} is staggered: only 1 action or 1 quick action per turn, already used."
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
