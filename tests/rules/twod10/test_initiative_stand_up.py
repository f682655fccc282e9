"""Ruling stand-from-prone: "Standing from prone requires half a turns movement", spent
from what is left this turn, refused in one sentence when too little is left."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Sacrifice,
    Side,
    TurnState,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.turns import (
    mark_action,
    mark_down,
    move,
    sacrifice_attack,
    stand_up,
)


def fight(movement: int = 30) -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=1, name="Mira", side=Side.PLAYERS, finesse=2, movement=movement),
        Combatant(id=11, name="Goblin", side=Side.NPCS, finesse=1),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([1]))  # the GM's d6: 1, the players go first
    return enc


def test_standing_spends_15_feet_and_the_rest_may_still_be_moved() -> None:
    enc, left = stand_up(fight(), 1)
    assert left == 15 and enc.state(1) == TurnState(feet_moved=15)
    enc, left = move(enc, 1, 15)
    assert left == 0 and enc.state(1) == TurnState(
        actions=frozenset({Action.MOVEMENT}), feet_moved=30
    )


def test_too_little_movement_left_is_refused_in_one_sentence() -> None:
    enc, _ = move(fight(), 1, 20)
    with pytest.raises(RulesError) as refused:
        stand_up(enc, 1)
    assert str(refused.value) == (
        "Mira needs 15 feet of movement to stand up and has 10 left this turn."
    )
    moved, _ = mark_action(fight(), 1, Action.MOVEMENT)
    with pytest.raises(RulesError, match=r"^Mira needs 15 feet .* has 0 left this turn\.$"):
        stand_up(moved, 1)


def test_a_dash_leaves_more_after_standing_but_standing_still_costs_half_a_round() -> None:
    enc, _ = sacrifice_attack(fight(20), 1, Sacrifice.DASH)
    enc, left = stand_up(enc, 1)
    assert left == 30 and enc.state(1).feet_moved == 10


def test_only_on_its_sides_turn_and_not_while_down() -> None:
    with pytest.raises(RulesError, match=r"^It isn't Goblin's side's turn; wait for it\.$"):
        stand_up(fight(), 11)
    downed, _ = mark_down(fight(0), 1)  # even standing for nothing needs the turn
    with pytest.raises(RulesError, match=r"^Mira is down and can't act\.$"):
        stand_up(downed, 1)
