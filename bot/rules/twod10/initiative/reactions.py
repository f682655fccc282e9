"""Reactions: one per combatant per round, declared at the start or taken at a turn's end.

A declared reaction names the action it waits for; when that action comes the
reactor and the opponent each roll 1d8 + finesse and the reactor acts first only
on a higher total (a tie acts after). A reach weapon gives advantage on that
roll when the opponent enters its threat range (2d8, the higher kept).

Rulings:

* ``undeclared-after-declared``: "An undeclared reaction can only be used if a
  player has not made a declared reaction" is read as: declaring one commits the
  reaction for the round, even if its trigger never comes.
* ``opportunity-attack``: the attack on an opponent leaving the threat range
  needs no declaration, happens at once and uses the round's reaction; a
  disengaging opponent can't be attacked this way.
* ``block-reaction``: "A block uses a reaction and does not need to be declared": in a
  tracked fight a block is the blocker's reaction for the round, so a combatant that
  already reacted, or declared a reaction (which commits it), can't block, and one that
  blocked has no reaction left (no undeclared one at the turn's end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Combatant, Encounter, Phase, Sacrifice, with_state

MAX_TRIGGER = 100
INTERRUPT_DIE = 8


def declare_reaction(enc: Encounter, combatant_id: int, trigger: str) -> Encounter:
    c = enc.combatant(combatant_id)
    if enc.phase is not Phase.DECLARE:
        raise RulesError("Reactions are declared at the start of the round, before initiative.")
    if c.down:
        raise RulesError(f"{c.name} is down and can't react.")
    text = re.sub(r"\s+", " ", trigger).strip()
    if not text:
        raise RulesError("Say which action the reaction answers, e.g. “the ogre attacks Mira”.")
    if len(text) > MAX_TRIGGER:
        raise RulesError(f"Keep the trigger to {MAX_TRIGGER} characters.")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), declared_reaction=text))


def _off_turn(enc: Encounter, combatant_id: int) -> Combatant:
    c = enc.combatant(combatant_id)
    if c.down:
        raise RulesError(f"{c.name} is down and can't react.")
    if enc.state(combatant_id).reaction_used:
        raise RulesError(f"{c.name} has already used their reaction this round.")
    return c


@dataclass(frozen=True, kw_only=True)
class InterruptRoll:
    reactor_id: int
    opponent_id: int
    reactor_faces: tuple[int, ...]  # two with a reach weapon's advantage
    reactor_finesse: int
    opponent_face: int
    opponent_finesse: int

    @property
    def reactor_total(self) -> int:
        return max(self.reactor_faces) + self.reactor_finesse

    @property
    def opponent_total(self) -> int:
        return self.opponent_face + self.opponent_finesse

    @property
    def reacts_first(self) -> bool:
        return self.reactor_total > self.opponent_total


def trigger_declared_reaction(
    enc: Encounter,
    reactor_id: int,
    opponent_id: int,
    *,
    reach_entry: bool = False,
    dice: Dice,
) -> tuple[Encounter, InterruptRoll]:
    """The predicted action happened: the interrupt roll decides who goes first."""
    reactor = _off_turn(enc, reactor_id)
    opponent = enc.combatant(opponent_id)
    if enc.phase is not Phase.TURN or enc.acting is not opponent.side:
        raise RulesError("A declared reaction answers an opponent's action on their side's turn.")
    if reactor.side is opponent.side:
        raise RulesError(f"{reactor.name} reacts to opponents, not to their own side.")
    if enc.state(reactor_id).declared_reaction is None:
        raise RulesError(f"{reactor.name} declared no reaction this round.")
    if reach_entry and not reactor.reach:
        raise RulesError(f"{reactor.name} has no reach weapon to gain advantage from.")
    faces = (dice.roll(INTERRUPT_DIE),)
    if reach_entry:
        faces += (dice.roll(INTERRUPT_DIE),)
    roll = InterruptRoll(
        reactor_id=reactor_id, opponent_id=opponent_id, reactor_faces=faces,
        reactor_finesse=reactor.finesse, opponent_face=dice.roll(INTERRUPT_DIE),
        opponent_finesse=opponent.finesse,
    )  # fmt: skip
    state = replace(enc.state(reactor_id), reaction_used=True)
    return with_state(enc, reactor_id, state), roll


def use_undeclared_reaction(enc: Encounter, combatant_id: int) -> Encounter:
    """At the end of the other side's turn, for those who declared nothing this round."""
    c = _off_turn(enc, combatant_id)
    if enc.phase is not Phase.END_OF_TURN or enc.acting is c.side:
        raise RulesError("Undeclared reactions come at the end of the other side's turn.")
    if enc.state(combatant_id).declared_reaction is not None:
        raise RulesError(f"{c.name} declared a reaction this round and can't take another.")
    if enc.round == 0 and not c.aware:
        raise RulesError(f"{c.name} was unaware of the enemy and can't react this round.")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), reaction_used=True))


def opportunity_attack(enc: Encounter, reactor_id: int, mover_id: int) -> Encounter:
    """Attack an opponent leaving the reactor's threat range (ruling opportunity-attack)."""
    reactor = _off_turn(enc, reactor_id)
    mover = enc.combatant(mover_id)
    if enc.phase not in (Phase.TURN, Phase.SURPRISE) or enc.acting is not mover.side:
        raise RulesError("Only an opponent moving on their side's turn can be attacked so.")
    if reactor.side is mover.side:
        raise RulesError(f"{reactor.name} can't attack their own side.")
    if enc.round == 0 and not reactor.aware:
        raise RulesError(f"{reactor.name} was unaware of the enemy and can't react yet.")
    if enc.state(mover_id).sacrificed is Sacrifice.DISENGAGE:
        raise RulesError(f"{mover.name} disengaged and leaves without an opening.")
    return with_state(enc, reactor_id, replace(enc.state(reactor_id), reaction_used=True))


def block_with_reaction(enc: Encounter, combatant_id: int) -> Encounter:
    """A shield block (ruling block-reaction): the blocker's reaction, used now."""
    c = _off_turn(enc, combatant_id)
    if enc.state(combatant_id).declared_reaction is not None:
        raise RulesError(f"{c.name} declared a reaction this round, so it can't block too.")
    if enc.round == 0 and not c.aware:
        raise RulesError(f"{c.name} was unaware of the enemy and can't block this round.")
    return with_state(enc, combatant_id, replace(enc.state(combatant_id), reaction_used=True))
