"""An opponent wielded as a weapon: "The opponent is weilded as an improvised weapon for
one round. For every 2 points, this lasts for one more round. An opponent counts as an
improvised weapon of one dice category larger. The opponent takes half of the damage
they incur when being used as a weapon."

Rulings:

* ``opponent-weapon-rounds``: a successful use-as-weapon maneuver by a seated attacker
  on a seated target is kept on the tracker through the next ``rounds`` rounds (one,
  plus one per 2 points), so the wielder swings the opponent on its coming turns (the
  maneuver itself took this turn's attack). One hold at a time: a new one replaces the
  old. It ends early when either leaves the encounter or the wielder goes down.
* ``opponent-weapon-size``: a body is a two-handed improvised weapon (1d6), one category
  larger (1d8), moved by brawl as any improvised weapon; it is swung with
  ``/attack weapon:Opponent``, never at itself.
* ``opponent-weapon-damage``: the wielded opponent takes half the damage the attack
  deals after the target's armor, rounded down, in the attack's own transaction. It is
  damage in combat: it ends the opponent's concentration and fails a declared spell it
  is casting (``spell-interrupted``), as damage from an attack on it would.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Combatant, Encounter, with_combatant


@dataclass(frozen=True)
class HoldStarted:
    wielder_id: int
    held_id: int
    until_round: int


def start_hold(enc: Encounter, wielder_id: int, held_id: int, rounds: int) -> Encounter:
    """``wielder_id`` wields ``held_id`` through the next ``rounds`` rounds."""
    if wielder_id == held_id:
        raise RulesError("A combatant can't wield itself.")
    enc.combatant(held_id)
    wielder = enc.combatant(wielder_id)
    held = replace(wielder, holding=held_id, hold_until=enc.round + max(rounds, 1))
    return with_combatant(enc, held)


def held_by(enc: Encounter, wielder_id: int) -> Combatant | None:
    """The opponent ``wielder_id`` wields now, if its hold still lasts."""
    wielder = enc.combatant(wielder_id)
    if wielder.holding is None or wielder.down or enc.round > wielder.hold_until:
        return None
    for c in enc.combatants:
        if c.id == wielder.holding:
            return c
    return None  # the held one left the encounter


def wielders_of(enc: Encounter, held_id: int) -> tuple[Combatant, ...]:
    """Who wields ``held_id`` now (for the tracker line)."""
    return tuple(c for c in enc.combatants if c.id != held_id and _holds(enc, c, held_id))


def _holds(enc: Encounter, c: Combatant, held_id: int) -> bool:
    held = held_by(enc, c.id)
    return held is not None and held.id == held_id
