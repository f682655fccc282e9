"""A declared spell damage interrupted, declared again on the caster's turn (ruling
spell-interrupted): it takes the attack action, is pending through the next round and
goes off at the end of the caster's side's turn there, when one /cast takes it."""

from __future__ import annotations

import json

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.events import (
    Event,
    PendingSpellsDue,
    ReactionWindowOpened,
    SideTurnStarted,
    SpellDeclared,
)
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    PendingSpell,
    Sacrifice,
    Side,
    TurnState,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.spells import cast_spell, declare, note_attack
from bot.rules.twod10.initiative.turns import mark_action, mark_down

VELA, BRUTE = 1, 11
WAIT = "Vela's spell goes off at the end of their side's turn in round 2: /cast it then."


def declarations() -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=VELA, name="Vela", side=Side.PLAYERS),
        Combatant(id=BRUTE, name="Brute", side=Side.NPCS),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    return enc


def step(enc: Encounter, *faces: int) -> tuple[Encounter, list[Event]]:
    return advance(enc, ScriptedDice(list(faces)))


def interrupted_on_her_turn() -> Encounter:
    """Round 1: Vela declares, the NPCs go first and hurt her; she says so with /cast
    damaged:True before her turn, which then begins with her attack free."""
    enc, declared = declare(declarations(), VELA)
    assert declared == SpellDeclared(VELA)
    enc, _ = step(enc, 5)  # the GM's d6: the NPCs go first
    enc, attacked = cast_spell(enc, VELA, damaged=True)
    assert not attacked
    assert enc.state(VELA) == TurnState(
        declared_spell=True, spell_cast=True, spell_interrupted=True
    )
    enc, _ = step(enc)  # the NPCs' end-of-turn reactions
    enc, events = step(enc)  # the Players' turn: the interrupted spell replaces nothing
    assert events == [SideTurnStarted(round=1, side=Side.PLAYERS, combatant_ids=(VELA,),
                                      spells_cast=())]  # fmt: skip
    assert Action.ATTACK not in enc.state(VELA).actions
    return enc


def test_declared_again_it_takes_the_attack_and_waits_for_her_next_turn() -> None:
    enc, declared = declare(interrupted_on_her_turn(), VELA)
    assert declared == SpellDeclared(VELA, due=2)
    assert enc.combatant(VELA).pending_spell == PendingSpell(due=2)
    assert enc.state(VELA) == TurnState(
        actions=frozenset({Action.ATTACK}), sacrificed=Sacrifice.SPELL, declared_spell=True,
        spell_cast=True, spell_interrupted=True,
    )  # fmt: skip
    with pytest.raises(RulesError, match=WAIT):
        cast_spell(enc, VELA)
    with pytest.raises(RulesError, match="Vela is still casting the spell that goes off at the"):
        declare(enc, VELA)
    enc, events = step(enc)  # the end of this turn is not the end of her next one
    assert events == [ReactionWindowOpened(after=Side.PLAYERS, eligible=(BRUTE,))]
    enc, _ = step(enc)  # round 2's declarations: the pending spell carries over
    assert enc.round == 2 and enc.state(VELA) == TurnState()
    assert enc.combatant(VELA).pending_spell == PendingSpell(due=2)
    with pytest.raises(RulesError, match="Vela is still casting"):
        declare(enc, VELA)
    enc, _ = step(enc, 1)  # the Players go first
    with pytest.raises(RulesError, match=WAIT):
        cast_spell(enc, VELA)  # not at once on her turn either
    enc, _ = mark_action(enc, VELA, Action.ATTACK)  # her next turn's actions are her own
    enc = note_attack(enc, VELA)  # attacked while the pending spell is cast
    assert enc.combatant(VELA).pending_spell == PendingSpell(due=2, attacked=True)
    enc, events = step(enc)  # the end of her next turn: it goes off now
    assert events == [
        PendingSpellsDue(side=Side.PLAYERS, ready=(VELA,), lost=()),
        ReactionWindowOpened(after=Side.PLAYERS, eligible=(BRUTE,)),
    ]
    assert enc.combatant(VELA).pending_spell is None
    assert enc.state(VELA) == TurnState(
        actions=frozenset({Action.ATTACK}), spell_ready=True, attacked_casting=True
    )
    enc = note_attack(enc, VELA)  # gone off: an attack now troubles nothing more
    enc, attacked = cast_spell(enc, VELA)
    assert attacked
    assert enc.state(VELA) == TurnState(
        actions=frozenset({Action.ATTACK}), spell_cast=True, attacked_casting=True
    )
    with pytest.raises(RulesError, match="Vela has already cast a spell this round"):
        cast_spell(enc, VELA)


def test_damage_told_after_her_turn_began_gives_the_attack_back() -> None:
    enc, _ = declare(declarations(), VELA)
    enc, _ = step(enc, 1)  # the Players first: the declared spell takes her attack
    assert enc.state(VELA).sacrificed is Sacrifice.SPELL
    enc, _ = cast_spell(enc, VELA, damaged=True)
    assert enc.state(VELA) == TurnState(
        declared_spell=True, spell_cast=True, spell_interrupted=True
    )
    attacked, _ = mark_action(enc, VELA, Action.ATTACK)  # she may swing instead…
    with pytest.raises(RulesError, match="Vela has already used their attack this turn; decl"):
        declare(attacked, VELA)
    enc, declared = declare(enc, VELA)  # …or declare the spell again with it
    assert declared == SpellDeclared(VELA, due=2)
    enc, _ = step(enc)  # the Players' end of turn: round 1, not yet due
    enc, _ = step(enc)  # the NPCs' turn
    enc, _ = step(enc)  # the NPCs' end of turn
    enc, _ = step(enc)  # round 2's declarations
    enc, _ = step(enc, 5)  # the NPCs first this time
    with pytest.raises(RulesError, match=WAIT):
        cast_spell(enc, VELA)
    enc, _ = step(enc)  # the NPCs' end of turn
    enc, _ = step(enc)  # the Players' turn
    enc, events = step(enc)  # its end: the spell goes off
    assert events[0] == PendingSpellsDue(side=Side.PLAYERS, ready=(VELA,), lost=())
    enc, attacked = cast_spell(enc, VELA)
    assert not attacked and enc.state(VELA) == TurnState(spell_cast=True)


def test_without_an_interruption_a_spell_is_not_declared_on_the_turn() -> None:
    enc, _ = step(declarations(), 1)  # the Players' turn, no spell declared
    with pytest.raises(RulesError, match="Spells are declared at the start of the round"):
        declare(enc, VELA)
    # Damage on an undeclared spell cast at once interrupts nothing to declare again.
    enc, _ = cast_spell(enc, VELA, damaged=True)
    assert enc.state(VELA) == TurnState(
        actions=frozenset({Action.ATTACK}), sacrificed=Sacrifice.SPELL, spell_cast=True
    )
    # Only an attack (no damage) on a declared spell: cast with disadvantage, not interrupted.
    fight, _ = declare(declarations(), VELA)
    fight, _ = step(fight, 5)
    fight, attacked = cast_spell(note_attack(fight, VELA), VELA)
    assert attacked and not fight.state(VELA).spell_interrupted


def test_a_caster_down_before_it_goes_off_loses_the_spell() -> None:
    enc, _ = declare(interrupted_on_her_turn(), VELA)
    enc, _ = step(enc)  # the Players' end of turn
    enc, _ = step(enc)  # round 2
    enc, _ = step(enc, 1)  # the Players first
    enc, _ = mark_down(enc, VELA)
    enc, events = step(enc)
    assert events[0] == PendingSpellsDue(side=Side.PLAYERS, ready=(), lost=(VELA,))
    assert enc.combatant(VELA).pending_spell is None
    assert not enc.state(VELA).spell_ready


def test_a_spell_gone_off_and_not_cast_lapses_with_the_round() -> None:
    enc, _ = declare(interrupted_on_her_turn(), VELA)
    for faces in ((), (), (1,), ()):  # round 1's end, round 2, the Players' turn and end
        enc, _ = step(enc, *faces)
    assert enc.state(VELA).spell_ready
    for _ in range(3):  # the NPCs' turn, its end, round 3's declarations
        enc, _ = step(enc)
    assert enc.round == 3 and enc.state(VELA) == TurnState()
    assert enc.combatant(VELA).pending_spell is None


def test_the_pending_spell_survives_a_restart_and_old_rows_read_without_it() -> None:
    enc, _ = declare(interrupted_on_her_turn(), VELA)
    enc = note_attack(enc, VELA)
    data = json.loads(json.dumps(encounter_to_dict(enc)))
    assert data["combatants"][0]["pending_spell"] == {"due": 2, "attacked": True}
    back = encounter_from_dict(data)
    assert back == enc
    assert back.combatant(VELA).pending_spell == PendingSpell(due=2, attacked=True)
    assert back.state(VELA).spell_interrupted
    ready = enc
    for faces in ((), (), (1,), ()):
        ready, _ = step(ready, *faces)
    assert encounter_from_dict(json.loads(json.dumps(encounter_to_dict(ready)))) == ready
    # Encounters stored before interrupted spells were tracked have none of the fields.
    for c in data["combatants"]:
        del c["pending_spell"]
    for state in data["states"]:
        del state["spell_interrupted"], state["spell_ready"]
    old = encounter_from_dict(data)
    assert old.combatant(VELA).pending_spell is None
    assert not old.state(VELA).spell_interrupted and not old.state(VELA).spell_ready
