"""Encumbrance slows a combatant (ruling movement-encumbrance): its movement a round,
a dash doubling it, standing up at half of it (ruling stand-from-prone), stored with
the encounter, and encounters stored before it moving 30."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.encumbrance import Encumbrance
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Sacrifice,
    Side,
    add_combatant,
    with_movements,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.turns import (
    mark_action,
    move,
    sacrifice_attack,
    stand_up,
    stand_up_feet,
)


def fight(movement: int) -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=1, name="Mira", side=Side.PLAYERS, finesse=2, movement=movement),
        Combatant(id=11, name="Goblin", side=Side.NPCS, finesse=1),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([1]))  # the players go first
    return enc


def test_the_text_30_feet_less_5_per_point() -> None:
    # "Every EP lowers movement by 5": toughness 1 ignores the 1st and 3rd of 4 raw EP.
    load = Encumbrance(worn_weight=16, backpack_weight=0, toughness=1)  # type: ignore[arg-type]
    assert (load.raw_ep, load.ep, load.movement) == (4, 2, 20)
    heavy = Encumbrance(worn_weight=40, backpack_weight=0, toughness=-1)  # type: ignore[arg-type]
    assert (heavy.ep, heavy.movement) == (9, 0)  # never below 0


def test_an_encumbered_combatant_moves_what_is_left() -> None:
    enc = fight(20)
    with pytest.raises(RulesError, match="Mira has 20 feet of movement left"):
        move(enc, 1, 25)
    enc, left = move(enc, 1, 15)
    assert left == 5
    enc, left = move(enc, 1, 5)
    assert left == 0 and Action.MOVEMENT in enc.state(1).actions
    # The unencumbered goblin keeps 30 (its side's turn is later; the rule is the same).
    assert enc.combatant(11).movement == 30


def test_a_dash_doubles_the_encumbered_movement() -> None:
    enc, _ = sacrifice_attack(fight(20), 1, Sacrifice.DASH)
    enc, left = move(enc, 1, 30)
    assert left == 10
    enc, _ = mark_action(fight(25), 1, Action.MOVEMENT)
    assert enc.state(1).feet_moved == 25


@pytest.mark.parametrize(("movement", "cost"), [(30, 15), (25, 13), (20, 10), (5, 3), (0, 0)])
def test_standing_up_costs_half_the_movement_rounded_up(movement: int, cost: int) -> None:
    assert stand_up_feet(movement) == cost
    enc, left = stand_up(fight(movement), 1)
    assert left == movement - cost and enc.state(1).feet_moved == cost


def test_movement_follows_the_load_and_is_stored() -> None:
    enc = fight(30)
    assert with_movements(enc, {1: 30}) is enc  # nothing changed, nothing new
    slowed = with_movements(enc, {1: 15, 99: 5})  # an id not seated is ignored
    assert slowed.combatant(1).movement == 15 and slowed.combatant(11).movement == 30
    data = json.loads(json.dumps(encounter_to_dict(slowed)))
    assert encounter_from_dict(data) == slowed
    # An encounter stored before movement was kept moves 30.
    for c in data["combatants"]:
        del c["movement"]
    assert encounter_from_dict(data).combatant(1).movement == 30


@pytest.mark.parametrize("feet", [-5, 31])
def test_movement_out_of_range_is_refused(feet: int) -> None:
    with pytest.raises(RulesError, match="Movement must be from 0 to 30 feet"):
        replace(Combatant(id=1, name="Mira", side=Side.PLAYERS), movement=feet)
