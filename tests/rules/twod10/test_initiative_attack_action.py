"""Rulings attack-action and offhand-bonus: on its side's turn an attack takes the attack
action (an extra attack once it is used; an offhand attack the bonus action); off the
turn it is a reaction and before the fight nothing; with nothing left it is refused."""

from __future__ import annotations

import re

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.attack_action import check_attack_left, spend_attack
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Sacrifice,
    Side,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.turns import (
    ExtraAttack,
    grant_extra_attack,
    mark_down,
    sacrifice_attack,
)


def unstarted() -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=1, name="Mira", side=Side.PLAYERS, finesse=2),
        Combatant(id=11, name="Goblin", side=Side.NPCS, finesse=1),
    ):
        enc = add_combatant(enc, c)
    return enc


def fight() -> Encounter:
    enc, _ = start_encounter(unstarted(), dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([1]))  # round 1, the players' turn
    return enc


def test_an_attack_takes_the_attack_action_then_is_refused() -> None:
    enc = spend_attack(fight(), 1)
    assert enc.state(1).actions == frozenset({Action.ATTACK})
    with pytest.raises(
        RulesError, match=re.escape("Mira has already used their attack this turn.")
    ):
        check_attack_left(enc, 1)


def test_an_extra_attack_is_spent_once_the_attack_is_used() -> None:
    enc = spend_attack(fight(), 1)
    enc = grant_extra_attack(enc, 1, reason=ExtraAttack.ENDLESS_CLEAVE)
    check_attack_left(enc, 1)
    enc = spend_attack(enc, 1)
    assert enc.state(1).extra_attacks == 0
    with pytest.raises(RulesError, match="already used their attack"):
        check_attack_left(enc, 1)


@pytest.mark.parametrize("purpose", [Sacrifice.DASH, Sacrifice.PARRY, Sacrifice.LOAD])
def test_an_attack_given_up_leaves_none(purpose: Sacrifice) -> None:
    enc, _ = sacrifice_attack(fight(), 1, purpose, parry=3)
    with pytest.raises(RulesError) as raised:
        check_attack_left(enc, 1)
    assert str(raised.value) == (
        f"Mira gave up their attack this turn to {purpose.value}: no attack left until their"
        " side's next turn."
    )
    # An extra attack waiting (a 25+ roll) still may be used.
    enc = grant_extra_attack(enc, 1, reason=ExtraAttack.EXTRA_ACTION)
    check_attack_left(enc, 1)


def test_an_offhand_attack_takes_the_bonus_action() -> None:
    enc = spend_attack(fight(), 1, offhand=True)
    assert enc.state(1).actions == frozenset({Action.BONUS})
    check_attack_left(enc, 1)  # the attack action is still there
    with pytest.raises(
        RulesError,
        match=re.escape("Mira has already used their bonus action this turn: an offhand"),
    ):
        check_attack_left(enc, 1, offhand=True)


def test_off_the_turn_before_the_fight_or_down_nothing_is_marked() -> None:
    before = unstarted()
    assert spend_attack(spend_attack(before, 1), 1) == before
    enc = fight()
    assert spend_attack(enc, 11) == enc  # the Goblin's attack now is a reaction
    check_attack_left(spend_attack(enc, 1), 11)
    down, _ = mark_down(enc, 1)
    assert spend_attack(down, 1) == down
