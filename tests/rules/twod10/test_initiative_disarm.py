"""Disarms on the tracker (ruling disarm-drops): "Drop 1 item. Every 4 above 10, an
additional item is dropped or the item is moved 5 feet." The sheet's weapons drop in
order; a dropped weapon can't attack until an interact action picks it up."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.disarm import (
    WeaponPickedUp,
    WeaponsDropped,
    check_not_dropped,
    drop_weapons,
    pick_up,
)
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Side,
    add_combatant,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.turns import mark_action

SWORD, AXE, BOW = weapon("One-handed sword"), weapon("Light axe"), weapon("Longbow")
CARRIED = ["One-handed sword", "Light axe", "Longbow"]


def unstarted() -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=1, name="Mira", side=Side.PLAYERS, finesse=2),
        Combatant(id=11, name="Goblin", side=Side.NPCS, finesse=1),
    ):
        enc = add_combatant(enc, c)
    return enc


def fight() -> Encounter:
    """Round 1, the players' turn."""
    enc, _ = start_encounter(unstarted(), dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([1]))
    return enc


@pytest.mark.parametrize(
    ("steps", "dropped", "moved"),
    [
        (0, ("One-handed sword",), 0),
        (1, ("One-handed sword", "Light axe"), 0),
        (2, ("One-handed sword", "Light axe", "Longbow"), 0),
        (4, ("One-handed sword", "Light axe", "Longbow"), 10),  # two steps left: 5 ft each
    ],
)
def test_the_sheets_weapons_drop_in_order_and_spare_steps_move_it(
    steps: int, dropped: tuple[str, ...], moved: int
) -> None:
    enc, event = drop_weapons(fight(), 1, CARRIED, 1, steps)
    assert event == WeaponsDropped(1, dropped, moved)
    assert enc.combatant(1).dropped == dropped


def test_a_second_disarm_drops_the_next_weapon_and_then_nothing() -> None:
    enc, _ = drop_weapons(fight(), 1, ["One-handed sword"], 1, 0)
    enc, event = drop_weapons(enc, 1, ["One-handed sword"], 1, 1)
    assert event == WeaponsDropped(1, (), 0)  # nothing left to drop
    enc, event = drop_weapons(enc, 1, CARRIED, 1, 0)
    assert event == WeaponsDropped(1, ("Light axe",), 0)
    assert enc.combatant(1).dropped == ("One-handed sword", "Light axe")


def test_before_the_fight_nothing_is_tracked() -> None:
    before = unstarted()
    assert drop_weapons(before, 1, CARRIED, 1, 2) == (before, None)


def test_a_dropped_weapon_is_refused_until_picked_up() -> None:
    enc, _ = drop_weapons(fight(), 1, CARRIED, 1, 0)
    with pytest.raises(RulesError) as raised:
        check_not_dropped(enc, 1, SWORD, (SWORD, AXE, BOW))
    assert str(raised.value) == (
        "Mira dropped their one-handed sword: pick it up first with /init act pick up."
    )
    check_not_dropped(enc, 1, AXE, (SWORD, AXE, BOW))  # the others are in hand
    check_not_dropped(enc, 1, None, (SWORD, AXE, BOW))  # unarmed, improvised
    check_not_dropped(enc, 1, SWORD, (SWORD, SWORD))  # a second sword still held
    enc, picked = pick_up(enc, 1, CARRIED)
    assert picked == WeaponPickedUp(1, "One-handed sword")
    assert enc.combatant(1).dropped == ()
    assert enc.state(1).actions == frozenset({Action.INTERACT})
    check_not_dropped(enc, 1, SWORD, (SWORD, AXE, BOW))


def test_picking_up_takes_the_interact_action_on_the_turn() -> None:
    enc, _ = drop_weapons(fight(), 1, CARRIED, 1, 1)
    used, _ = mark_action(enc, 1, Action.INTERACT)
    with pytest.raises(
        RulesError, match=re.escape("Mira has already used their interact this turn.")
    ):
        pick_up(used, 1, CARRIED)
    enc, picked = pick_up(enc, 1, CARRIED)
    assert picked == WeaponPickedUp(1, "One-handed sword")  # the one dropped first
    assert enc.combatant(1).dropped == ("Light axe",)
    off_turn, _ = advance(enc, ScriptedDice([]))
    with pytest.raises(RulesError, match=re.escape("It isn't Mira's side's turn; wait for it.")):
        pick_up(off_turn, 1, CARRIED)


def test_nothing_to_pick_up_is_refused() -> None:
    with pytest.raises(RulesError, match="Mira has dropped no weapon: there is nothing to pick"):
        pick_up(fight(), 1, CARRIED)
    enc, _ = drop_weapons(fight(), 1, CARRIED, 1, 0)
    with pytest.raises(RulesError, match="Mira has dropped no weapon"):
        pick_up(enc, 1, None)  # no sheet: nothing of its is tracked
    with pytest.raises(RulesError, match="Mira has dropped no weapon"):
        pick_up(enc, 1, ["Longbow"])  # the sword left the sheet meanwhile


def test_dropped_weapons_survive_a_restart_and_old_encounters_have_none() -> None:
    enc, _ = drop_weapons(fight(), 1, CARRIED, 1, 1)
    stored = json.loads(json.dumps(encounter_to_dict(enc)))
    assert stored["combatants"][0]["dropped"] == ["One-handed sword", "Light axe"]
    assert encounter_from_dict(stored) == enc
    for c in stored["combatants"]:
        del c["dropped"]  # stored before disarms were tracked
    assert encounter_from_dict(stored) == replace(
        enc, combatants=tuple(replace(c, dropped=()) for c in enc.combatants)
    )
