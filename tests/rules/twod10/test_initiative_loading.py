"""Ruling crossbow-loading: "Crossbows must be loaded for one attack action between
attacks". A shot unloads the crossbow; /init act load gives up the attack (or spends an
extra attack) to load the one shot first; the state is stored with the encounter."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.loading import (
    CrossbowLoaded,
    check_loaded,
    load_crossbow,
    note_shot,
    still_carried,
)
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
from bot.rules.twod10.initiative.turns import ExtraAttack, grant_extra_attack, mark_action

HAND, LIGHT, HEAVY = weapon("Hand crossbow"), weapon("Light crossbow"), weapon("Heavy crossbow")
LONGBOW = weapon("Longbow")


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
    enc, _ = advance(enc, ScriptedDice([1]))  # the GM's d6: 1, the players go first
    return enc


def test_a_shot_unloads_the_crossbow_and_a_load_gives_up_the_attack() -> None:
    enc = fight()
    check_loaded(enc, 1, LIGHT, (LIGHT,))  # loaded at the fight's start
    enc = note_shot(enc, 1, LIGHT)
    assert enc.combatant(1).unloaded == ("Light crossbow",)
    with pytest.raises(RulesError) as refused:
        check_loaded(enc, 1, LIGHT, (LIGHT,))
    assert str(refused.value) == (
        "Mira's light crossbow isn't loaded: load it first with /init act load."
    )
    enc, event = load_crossbow(enc, 1, ["Light crossbow"])
    assert event == CrossbowLoaded(1, "Light crossbow", extra=False)
    assert enc.combatant(1).unloaded == ()
    assert enc.state(1) == TurnState(actions=frozenset({Action.ATTACK}), sacrificed=Sacrifice.LOAD)
    check_loaded(enc, 1, LIGHT, (LIGHT,))


def test_two_of_a_kind_both_shoot_before_either_is_loaded() -> None:
    enc = fight()
    pair = (HAND, HAND)
    enc = note_shot(enc, 1, HAND)
    check_loaded(enc, 1, HAND, pair)  # the second hand crossbow is still loaded
    enc = note_shot(enc, 1, HAND)
    with pytest.raises(RulesError, match=r"^Mira's hand crossbow isn't loaded"):
        check_loaded(enc, 1, HAND, pair)
    enc, _ = load_crossbow(enc, 1, ["Hand crossbow", "Hand crossbow"])
    assert enc.combatant(1).unloaded == ("Hand crossbow",)
    check_loaded(enc, 1, HAND, pair)


def test_the_crossbow_shot_first_is_loaded_first() -> None:
    enc = note_shot(note_shot(fight(), 1, HAND), 1, HEAVY)
    enc, event = load_crossbow(enc, 1, ["Heavy crossbow", "Hand crossbow"])
    assert event.weapon == "Hand crossbow"
    assert enc.combatant(1).unloaded == ("Heavy crossbow",)
    check_loaded(enc, 1, HAND, (HEAVY, HAND))
    with pytest.raises(RulesError, match=r"^Mira's heavy crossbow isn't loaded"):
        check_loaded(enc, 1, HEAVY, (HEAVY, HAND))


def test_an_extra_attack_needs_a_loaded_crossbow_and_may_load_it() -> None:
    enc, _ = mark_action(fight(), 1, Action.ATTACK)
    enc = note_shot(enc, 1, LIGHT)
    enc = grant_extra_attack(enc, 1, reason=ExtraAttack.EXTRA_ACTION)  # the shot rolled 25
    with pytest.raises(RulesError, match=r"^Mira's light crossbow isn't loaded"):
        check_loaded(enc, 1, LIGHT, (LIGHT,))
    enc, event = load_crossbow(enc, 1, ["Light crossbow"])
    assert event == CrossbowLoaded(1, "Light crossbow", extra=True)
    assert enc.state(1) == TurnState(actions=frozenset({Action.ATTACK}))  # no extra left
    assert enc.combatant(1).unloaded == ()


def test_loading_is_refused_with_nothing_to_load_or_no_attack_left() -> None:
    enc = fight()
    with pytest.raises(RulesError) as refused:
        load_crossbow(enc, 1, ["Light crossbow"])
    assert str(refused.value) == (
        "Mira has no unloaded crossbow: a crossbow stays loaded until it shoots."
    )
    # A crossbow taken off the sheet since it shot isn't there to load.
    gone = note_shot(enc, 1, HEAVY)
    with pytest.raises(RulesError, match=r"^Mira has no unloaded crossbow"):
        load_crossbow(gone, 1, ["Light crossbow"])
    shot = note_shot(enc, 1, LIGHT)
    used, _ = mark_action(shot, 1, Action.ATTACK)
    with pytest.raises(RulesError, match=r"^Mira has already used their attack this turn\.$"):
        load_crossbow(used, 1, ["Light crossbow"])
    with pytest.raises(RulesError, match=r"^It isn't Goblin's side's turn; wait for it\.$"):
        load_crossbow(note_shot(shot, 11, LIGHT), 11, ["Light crossbow"])
    assert shot.combatant(1).unloaded == ("Light crossbow",)  # nothing changed by a refusal


def test_a_combatant_without_a_sheet_just_gives_up_the_attack() -> None:
    enc, event = load_crossbow(fight(), 1, None)
    assert event == CrossbowLoaded(1, None, extra=False)
    assert enc.state(1).sacrificed is Sacrifice.LOAD and enc.combatant(1).unloaded == ()


def test_only_crossbows_unload_and_only_once_the_fight_started() -> None:
    enc = fight()
    assert note_shot(enc, 1, LONGBOW) is enc and note_shot(enc, 1, None) is enc
    check_loaded(note_shot(enc, 1, LIGHT), 1, LONGBOW, (LIGHT, LONGBOW))
    check_loaded(note_shot(enc, 1, LIGHT), 1, None, (LIGHT,))
    before = unstarted()  # the table loads before the fight
    assert note_shot(before, 1, LIGHT) is before


def test_still_carried_keeps_the_shot_order_and_the_sheets_count() -> None:
    unloaded = ("Hand crossbow", "Heavy crossbow", "Hand crossbow", "Light crossbow")
    assert still_carried(unloaded, ["Hand crossbow", "Light crossbow", "Longbow"]) == (
        "Hand crossbow",
        "Light crossbow",
    )
    assert still_carried(unloaded, []) == ()


def test_unloaded_crossbows_survive_a_restart_and_old_encounters_load_all_loaded() -> None:
    enc = note_shot(note_shot(fight(), 1, HAND), 1, HAND)
    stored = json.loads(json.dumps(encounter_to_dict(enc)))
    assert stored["combatants"][0]["unloaded"] == ["Hand crossbow", "Hand crossbow"]
    assert encounter_from_dict(stored) == enc
    for c in stored["combatants"]:
        del c["unloaded"]  # stored before crossbows were tracked
    assert encounter_from_dict(stored) == replace(
        enc, combatants=tuple(replace(c, unloaded=()) for c in enc.combatants)
    )
    stored["combatants"][0]["unloaded"] = "Hand crossbow"
    with pytest.raises(RulesError, match="This stored encounter is damaged"):
        encounter_from_dict(stored)
