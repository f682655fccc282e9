"""A side's turn: movement, attack, interact and bonus action, attacks given up, going down.

Rulings:

* ``bonus-action``: "Bonus actions are only granted under special
  circumstances"; the bot lets a combatant mark one and leaves the
  circumstance to the GM.
* ``stand-from-prone``: standing costs half the combatant's movement a round
  (15 of 30 feet; with encumbrance half of what is left, rounded up to whole feet),
  also when dashing. /init act stand up clears a linked sheet's prone; a combatant
  without a sheet has no prone to track and just spends the feet.
* ``movement-encumbrance``: each encumbrance point left after toughness takes 5 feet
  off the 30 a round (at least 0); a dash doubles what is left.
* ``parry-expiry``: a parry waits for the next attack against the combatant this
  round and is gone at the round's end if no attack came.

A pinned combatant "may make no movement" (``initiative.pins``): moving, dashing,
disengaging and standing up are refused; a combatant going down leaves every pin it is in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.events import ActionMarked, CombatantDown
from bot.rules.twod10.initiative.model import (
    MOVEMENT_FEET,
    Action,
    Combatant,
    Encounter,
    Phase,
    Sacrifice,
    with_combatant,
    with_state,
)
from bot.rules.twod10.initiative.pins import check_free_to_move, end_pins_of

STAND_UP_FEET = MOVEMENT_FEET // 2  # unencumbered; see stand_up_feet
MAX_EXTRA_ATTACKS = 10  # a bound; each slain foe or 25+ roll grants one


class ExtraAttack(Enum):
    ENDLESS_CLEAVE = "endless cleave"
    EXTRA_ACTION = "25 or more"


@dataclass(frozen=True)
class StoodUp:
    """A combatant stood up from prone, spending ``feet`` of movement."""

    combatant_id: int
    feet: int
    left: int  # feet of movement left this turn


def _acting(enc: Encounter, combatant_id: int) -> Combatant:
    c = enc.combatant(combatant_id)
    if enc.phase not in (Phase.TURN, Phase.SURPRISE) or enc.acting is not c.side:
        raise RulesError(f"It isn't {c.name}'s side's turn; wait for it.")
    if c.down:
        raise RulesError(f"{c.name} is down and can't act.")
    return c


def mark_action(
    enc: Encounter, combatant_id: int, action: Action
) -> tuple[Encounter, ActionMarked]:
    """Mark an action used this turn (movement: all of it); each once per turn."""
    c = _acting(enc, combatant_id)
    if action is Action.MOVEMENT:
        check_free_to_move(enc, combatant_id)
    state = enc.state(combatant_id)
    if action is Action.ATTACK and Action.ATTACK in state.actions and state.extra_attacks:
        state = replace(state, extra_attacks=state.extra_attacks - 1)
        return with_state(enc, combatant_id, state), ActionMarked(combatant_id, action)
    if action in state.actions:
        raise RulesError(f"{c.name} has already used their {action.value} this turn.")
    feet = state.allowance(c.movement) if action is Action.MOVEMENT else state.feet_moved
    state = replace(state, actions=state.actions | {action}, feet_moved=feet)
    return with_state(enc, combatant_id, state), ActionMarked(combatant_id, action)


def move(enc: Encounter, combatant_id: int, feet: int) -> tuple[Encounter, int]:
    """Spend some movement (it may be split around other actions); returns the feet left."""
    c = _acting(enc, combatant_id)
    check_free_to_move(enc, combatant_id)
    state = enc.state(combatant_id)
    allowance = state.allowance(c.movement)
    left = allowance - state.feet_moved
    if isinstance(feet, bool) or not isinstance(feet, int) or feet < 1:
        raise RulesError("Move a whole number of feet, 1 or more.")
    if feet > left:
        raise RulesError(f"{c.name} has {left} feet of movement left this turn.")
    moved = state.feet_moved + feet
    done = moved >= allowance
    actions = state.actions | {Action.MOVEMENT} if done else state.actions
    state = replace(state, feet_moved=moved, actions=actions)
    return with_state(enc, combatant_id, state), allowance - moved


def stand_up_feet(movement: int) -> int:
    """Half a round's movement, rounded up (ruling stand-from-prone)."""
    return -(-movement // 2)


def stand_up(enc: Encounter, combatant_id: int) -> tuple[Encounter, int]:
    """Standing from prone costs half a turn's movement (ruling stand-from-prone); a
    combatant encumbered down to 0 feet stands for nothing, as half of nothing."""
    c = _acting(enc, combatant_id)
    check_free_to_move(enc, combatant_id)  # standing is movement, even for no feet
    feet = stand_up_feet(c.movement)
    state = enc.state(combatant_id)
    if feet == 0:
        return enc, state.allowance(0) - state.feet_moved
    left = state.allowance(c.movement) - state.feet_moved
    if feet > left:
        raise RulesError(
            f"{c.name} needs {feet} feet of movement to stand up and has {left} left this turn."
        )
    return move(enc, combatant_id, feet)


def sacrifice_attack(
    enc: Encounter, combatant_id: int, purpose: Sacrifice, *, parry: int = 0
) -> tuple[Encounter, ActionMarked]:
    """Give up the attack to dash, disengage, parry or prepare."""
    c = _acting(enc, combatant_id)
    state = enc.state(combatant_id)
    if purpose is Sacrifice.SPELL:
        raise RulesError("A spell is declared at the start of the round, not on the turn.")
    if purpose in (Sacrifice.DASH, Sacrifice.DISENGAGE):  # both are movement
        check_free_to_move(enc, combatant_id)
    if Action.ATTACK in state.actions:
        raise RulesError(f"{c.name} has already used their attack this turn.")
    if purpose is Sacrifice.PARRY and not 0 < parry <= 20:
        raise RulesError("A parry subtracts finesse + melee or ranged: give a value from 1 to 20.")
    state = replace(
        state,
        actions=state.actions | {Action.ATTACK},
        sacrificed=purpose,
        parry=parry if purpose is Sacrifice.PARRY else state.parry,
    )
    enc = with_state(enc, combatant_id, state)
    if purpose is Sacrifice.DISENGAGE:
        enc = replace(enc, disengaged=enc.disengaged | {c.side})
    return enc, ActionMarked(combatant_id, Action.ATTACK, purpose)


def grant_extra_attack(enc: Encounter, combatant_id: int, *, reason: ExtraAttack) -> Encounter:
    """An attack that doesn't count against the action economy, used on this turn.

    Endless cleave: a melee weapon or a bow that slays a foe with one attack.
    A roll of 25 or more: "gain an additional action" (ruling ``extra-action``:
    the bot offers it as one more attack; the GM may let it be another action).
    """
    c = _acting(enc, combatant_id)
    del reason  # recorded by the caller's event; the allowance is the same
    state = enc.state(combatant_id)
    if state.extra_attacks >= MAX_EXTRA_ATTACKS:
        raise RulesError(f"{c.name} already has {MAX_EXTRA_ATTACKS} extra attacks waiting.")
    return with_state(enc, combatant_id, replace(state, extra_attacks=state.extra_attacks + 1))


def spend_parry(enc: Encounter, combatant_id: int) -> tuple[Encounter, int]:
    """The parry waiting for the next attack against this combatant (0 if none); used up."""
    state = enc.state(combatant_id)
    if not state.parry:
        return enc, 0
    return with_state(enc, combatant_id, replace(state, parry=0)), state.parry


def declare_spell(enc: Encounter, combatant_id: int) -> Encounter:
    """Spellcasters state their casting at the start of the round."""
    c = enc.combatant(combatant_id)
    if enc.phase is not Phase.DECLARE:
        raise RulesError("Spells are declared at the start of the round, before initiative.")
    if c.down:
        raise RulesError(f"{c.name} is down and can't cast.")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), declared_spell=True))


def mark_down(enc: Encounter, combatant_id: int) -> tuple[Encounter, CombatantDown]:
    """A combatant falls unconscious or dies: counted toward its side's momentum."""
    c = enc.combatant(combatant_id)
    if c.down:
        raise RulesError(f"{c.name} is already down.")
    enc = with_combatant(enc, replace(c, down=True))
    enc, _ = end_pins_of(enc, combatant_id)  # ruling pin-ends: either going down ends it
    counts = dict(enc.downed_this_round)
    counts[c.side] = counts.get(c.side, 0) + 1
    enc = replace(enc, downed_this_round=tuple(sorted(counts.items(), key=lambda kv: kv[0].value)))
    size = dict(enc.standing_at_start).get(c.side, len(enc.side(c.side)))
    return enc, CombatantDown(combatant_id, c.side, counts[c.side], size)


def revive(enc: Encounter, combatant_id: int) -> Encounter:
    """Back on its feet (a fall earlier this round still counts toward momentum)."""
    c = enc.combatant(combatant_id)
    if not c.down:
        raise RulesError(f"{c.name} isn't down.")
    return with_combatant(enc, replace(c, down=False))
