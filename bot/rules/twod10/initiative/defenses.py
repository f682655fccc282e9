"""Declared defense rolls: "You may use a declared reaction to make a defense roll.
Declare which attribute you are defending."

Ruling ``defending-use``: a defense is declared at the round's start like any declared
reaction (it commits the reaction). The first attack that round on the defender that
targets the declared attribute is rolled by the defender instead (``defending``), with no
interrupt roll, since who goes first changes nothing about a roll that replaces another;
that uses the reaction. An attack on another attribute leaves the defense waiting.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.initiative.model import Encounter, with_state
from bot.rules.twod10.initiative.reactions import declare_reaction


def declare_defense(enc: Encounter, combatant_id: int, attribute: Attribute) -> Encounter:
    """The combatant's reaction this round: a defense roll for ``attribute``."""
    enc = declare_reaction(enc, combatant_id, f"an attack on its {attribute.value}")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), defending=attribute))


def defends(enc: Encounter, combatant_id: int, attribute: Attribute) -> bool:
    """Whether an attack on ``attribute`` meets the combatant's declared, unused defense."""
    c = enc.combatant(combatant_id)
    state = enc.state(combatant_id)
    return not c.down and not state.reaction_used and state.defending is attribute


def use_defense(enc: Encounter, combatant_id: int) -> Encounter:
    """The declared defense rolled against an attack: the round's reaction is used."""
    guarded = enc.state(combatant_id).defending
    if guarded is None or not defends(enc, combatant_id, guarded):
        raise RulesError(f"{enc.combatant(combatant_id).name} has no defense waiting.")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), reaction_used=True))
