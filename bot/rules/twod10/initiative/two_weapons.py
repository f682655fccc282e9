"""Two-weapon fighting in a tracked fight: "A light weapon may be held in the offhand and
attacks may be made with it as a bonus action. [...] Both weapons must be used with
finesse." The offhand attack is made with finesse by itself (``attack.plan_attack``);
the tracker remembers each combatant's grip this round so the main weapon is held to it
too.

Ruling ``two-weapon-finesse``: a round in which a combatant attacks with an offhand
weapon is a two-weapon round, whichever attack comes first: after a main-hand attack
with strength no offhand attack follows, and after an offhand attack the main weapon
attacks with finesse (unarmed and improvised attacks count as main-hand ones).
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Encounter, with_state


def check_grip(enc: Encounter, combatant_id: int, *, offhand: bool, finesse: bool) -> None:
    """Raises RulesError when this attack would break two-weapon fighting's finesse."""
    c = enc.combatant(combatant_id)
    state = enc.state(combatant_id)
    if offhand and state.strength_attack:
        raise RulesError(
            f"{c.name} attacked with strength this round: two-weapon fighting needs both"
            " weapons used with finesse."
        )
    if not offhand and not finesse and state.offhand_attack:
        raise RulesError(
            f"{c.name} fights with an offhand weapon this round: the main weapon attacks with"
            " finesse too (finesse:True)."
        )


def note_grip(enc: Encounter, combatant_id: int, *, offhand: bool, finesse: bool) -> Encounter:
    """The round's record of how this combatant attacked."""
    state = enc.state(combatant_id)
    if offhand:
        state = replace(state, offhand_attack=True)
    elif not finesse:
        state = replace(state, strength_attack=True)
    return with_state(enc, combatant_id, state)
