"""An /attack's damage on a caster (ruling spell-interrupted): before its side's turn it
interrupts the declared spell exactly as ``/cast damaged:True`` does; a spell declared
again and pending fails outright; once the turn began the spell went off untouched."""

from __future__ import annotations

from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    PendingSpell,
    Side,
    TurnState,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.spells import cast_spell, declare, note_damage

VELA, BRUTE = 1, 11
INTERRUPTED = (
    "Vela's declared spell is interrupted by the damage: on their turn /init act declare"
    " spell casts it again, going off at the end of their next turn."
)


def declared(first: int) -> Encounter:
    """Round 1, Vela's spell declared; the GM's d6 ``first`` (1: the players go first)."""
    enc = Encounter()
    for c in (
        Combatant(id=VELA, name="Vela", side=Side.PLAYERS),
        Combatant(id=BRUTE, name="Brute", side=Side.NPCS),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    enc, _ = declare(enc, VELA)
    enc, _ = advance(enc, ScriptedDice([first]))
    return enc


def test_damage_before_her_turn_interrupts_as_cast_damaged_does() -> None:
    enc = declared(5)  # the NPCs go first: she is still casting
    hurt, said = note_damage(enc, VELA, 3)
    told, _ = cast_spell(enc, VELA, damaged=True)
    assert hurt == told
    assert hurt.state(VELA) == TurnState(
        declared_spell=True, spell_cast=True, spell_interrupted=True
    )
    assert said == INTERRUPTED
    assert note_damage(hurt, VELA, 4) == (hurt, None)  # interrupted once


def test_no_damage_interrupts_nothing() -> None:
    enc = declared(5)
    assert note_damage(enc, VELA, 0) == (enc, None)  # a miss, or all stopped by armor


def test_a_pending_spell_fails_outright() -> None:
    enc = declared(5)
    enc, _ = note_damage(enc, VELA, 3)
    for _ in range(2):  # the NPCs' end of turn, the Players' turn
        enc, _ = advance(enc, ScriptedDice([]))
    enc, _ = declare(enc, VELA)  # declared again with her attack
    assert enc.combatant(VELA).pending_spell == PendingSpell(due=2)
    enc, said = note_damage(enc, VELA, 2)
    assert enc.combatant(VELA).pending_spell is None
    assert said == "Vela's pending spell fails: the damage broke it while it was cast."
    assert Action.ATTACK in enc.state(VELA).actions  # the declaring took it for good


def test_damage_after_her_turn_began_finds_the_spell_gone_off() -> None:
    enc = declared(1)  # the Players go first: the spell is cast as the turn starts
    assert note_damage(enc, VELA, 5) == (enc, None)
    assert note_damage(enc, BRUTE, 5) == (enc, None)  # no spell declared
