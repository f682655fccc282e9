"""/cast on the 2d10 tracker (ruling cast-in-tracker): a declared spell is being cast
until its combatant's turn and an attack in that time troubles it; an undeclared spell
takes the attack action on the caster's own turn; one cast a round."""

from __future__ import annotations

import json

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Phase,
    Sacrifice,
    Side,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.spells import cast_spell, note_attack
from bot.rules.twod10.initiative.turns import declare_spell, mark_action, mark_down

VELA, BRUTE = 1, 11


def declarations() -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=VELA, name="Vela", side=Side.PLAYERS),
        Combatant(id=BRUTE, name="Brute", side=Side.NPCS),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    assert enc.phase is Phase.DECLARE
    return enc


def step(enc: Encounter, *faces: int) -> Encounter:
    enc, _ = advance(enc, ScriptedDice(list(faces)))
    return enc


def test_an_attack_before_the_declared_spells_turn_gives_it_disadvantage() -> None:
    enc = declare_spell(declarations(), VELA)
    enc = step(enc, 5)  # the GM's d6: 5, the NPCs go first
    assert (enc.phase, enc.acting) == (Phase.TURN, Side.NPCS)
    enc = note_attack(enc, VELA)  # the Brute attacks her while she casts
    assert enc.state(VELA).attacked_casting
    assert note_attack(enc, VELA) is enc  # twice is still once
    enc = step(step(enc))  # the NPCs' end-of-turn reactions, then the Players' turn
    assert enc.acting is Side.PLAYERS and enc.state(VELA).sacrificed is Sacrifice.SPELL
    enc = note_attack(enc, VELA)  # her spell went off as her turn began: no matter now
    enc, attacked = cast_spell(enc, VELA)
    assert attacked and enc.state(VELA).spell_cast
    with pytest.raises(RulesError, match="Vela has already cast a spell this round"):
        cast_spell(enc, VELA)


def test_an_attack_after_the_turn_began_is_not_while_casting() -> None:
    enc = declare_spell(declarations(), VELA)
    enc = step(enc, 1)  # the players go first: her spell is cast as the turn starts
    enc = note_attack(enc, VELA)
    assert not enc.state(VELA).attacked_casting
    enc, attacked = cast_spell(enc, VELA)
    assert not attacked


def test_an_undeclared_spell_takes_the_attack_on_her_own_turn() -> None:
    enc = step(declarations(), 5)  # the NPCs' turn
    with pytest.raises(RulesError, match="Vela declared no spell this round"):
        cast_spell(enc, VELA)
    assert not note_attack(enc, VELA).state(VELA).attacked_casting  # she wasn't casting
    enc = step(step(enc))  # the Players' turn
    enc, attacked = cast_spell(enc, VELA)
    state = enc.state(VELA)
    assert not attacked and Action.ATTACK in state.actions
    assert state.sacrificed is Sacrifice.SPELL
    # Her attack is already used: no spell after it.
    fresh = step(step(step(declarations(), 5)))
    fresh, _ = mark_action(fresh, VELA, Action.ATTACK)
    with pytest.raises(RulesError, match="already used their attack this turn; a spell"):
        cast_spell(fresh, VELA)


def test_before_the_fight_nothing_is_marked_and_the_down_cannot_cast() -> None:
    enc = Encounter()
    enc = add_combatant(enc, Combatant(id=VELA, name="Vela", side=Side.PLAYERS))
    assert cast_spell(enc, VELA) == (enc, False)
    fight = declare_spell(declarations(), VELA)
    fight, _ = mark_down(fight, VELA)
    with pytest.raises(RulesError, match="Vela is down and can't cast"):
        cast_spell(fight, VELA)


def test_the_marks_are_stored_and_old_encounters_read_without_them() -> None:
    enc = note_attack(step(declare_spell(declarations(), VELA), 5), VELA)
    data = json.loads(json.dumps(encounter_to_dict(enc)))
    assert encounter_from_dict(data) == enc
    for state in data["states"]:
        del state["spell_cast"], state["attacked_casting"]
    assert not encounter_from_dict(data).state(VELA).attacked_casting
