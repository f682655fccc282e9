"""Pins on the tracker (rulings pin-tracked and pin-ends): "A pinned opponent may make no
movement until they incur damage against the attacker and any attacks they make have
disadvantage. Any attacks the attacker makes against a pinned opponent have advantage."
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Sacrifice,
    Side,
    add_combatant,
    remove_combatant,
)
from bot.rules.twod10.initiative.pins import (
    PinEnd,
    PinEnded,
    PinStarted,
    check_free_to_move,
    end_pins_of,
    note_damage,
    pin_flags,
    pinned_by,
    pinning,
    release,
    start_pin,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.turns import (
    mark_action,
    mark_down,
    move,
    sacrifice_attack,
    stand_up,
)

MIRA, ARN, OGRE, GOBLIN = 1, 2, 11, 12
PINNED = "Mira is pinned by Ogre and can't move until they damage Ogre."


def fight() -> Encounter:
    """Round 1, the players' turn; the Ogre pins Mira."""
    enc = Encounter()
    for c in (
        Combatant(id=MIRA, name="Mira", side=Side.PLAYERS, finesse=2),
        Combatant(id=ARN, name="Arn", side=Side.PLAYERS),
        Combatant(id=OGRE, name="Ogre", side=Side.NPCS),
        Combatant(id=GOBLIN, name="Goblin", side=Side.NPCS),
    ):
        enc = add_combatant(enc, c)
    enc, _ = start_encounter(enc, dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([1]))  # the players go first
    enc, started = start_pin(enc, OGRE, MIRA)
    assert started == PinStarted(OGRE, MIRA)
    return enc


def test_a_pin_is_known_both_ways_and_sets_the_attacks_edges() -> None:
    enc = fight()
    assert pinned_by(enc, MIRA) == enc.combatant(OGRE)
    assert pinning(enc, OGRE) == (enc.combatant(MIRA),)
    assert pinned_by(enc, OGRE) is None and pinning(enc, MIRA) == ()
    assert pin_flags(enc, MIRA, OGRE) == (True, False)  # Mira attacks at disadvantage
    assert pin_flags(enc, OGRE, MIRA) == (False, True)  # the Ogre at advantage on her
    assert pin_flags(enc, GOBLIN, MIRA) == (False, False)  # only the pinner's advantage
    assert pin_flags(enc, ARN, OGRE) == (False, False)


def test_the_pinned_can_make_no_movement_of_any_kind() -> None:
    enc = fight()
    with pytest.raises(RulesError) as raised:
        check_free_to_move(enc, MIRA)
    assert str(raised.value) == PINNED
    for attempt in (
        lambda: move(enc, MIRA, 5),
        lambda: mark_action(enc, MIRA, Action.MOVEMENT),
        lambda: sacrifice_attack(enc, MIRA, Sacrifice.DASH),
        lambda: sacrifice_attack(enc, MIRA, Sacrifice.DISENGAGE),
        lambda: stand_up(enc, MIRA),
    ):
        with pytest.raises(RulesError, match=re.escape(PINNED)):
            attempt()
    # Her other actions are hers: the attack, an interaction, a parry.
    after, _ = mark_action(enc, MIRA, Action.INTERACT)
    after, _ = sacrifice_attack(after, MIRA, Sacrifice.PARRY, parry=3)
    assert after.state(MIRA).parry == 3


def test_the_pinner_moves_freely() -> None:
    enc, _ = advance(advance(fight(), ScriptedDice([]))[0], ScriptedDice([]))  # NPCs' turn
    enc, left = move(enc, OGRE, 10)
    assert left == 20


def test_only_damage_to_the_pinner_frees_the_pinned() -> None:
    enc = fight()
    assert note_damage(enc, MIRA, OGRE, 0) == (enc, None)  # a miss, or all stopped by armor
    assert note_damage(enc, MIRA, GOBLIN, 6) == (enc, None)  # someone else
    assert note_damage(enc, ARN, OGRE, 6) == (enc, None)  # someone else's damage
    freed, ended = note_damage(enc, MIRA, OGRE, 1)
    assert ended == PinEnded(OGRE, MIRA, PinEnd.DAMAGED)
    assert pinned_by(freed, MIRA) is None
    check_free_to_move(freed, MIRA)
    assert move(freed, MIRA, 5)[1] == 25


@pytest.mark.parametrize("down", [MIRA, OGRE])
def test_either_going_down_ends_the_pin(down: int) -> None:
    enc, _ = mark_down(fight(), down)
    assert pinned_by(enc, MIRA) is None and pinning(enc, OGRE) == ()


@pytest.mark.parametrize("leaving", [MIRA, OGRE])
def test_either_leaving_ends_the_pin(leaving: int) -> None:
    enc = remove_combatant(fight(), leaving)
    assert all(c.pinned_by is None for c in enc.combatants)


def test_the_pinner_releases_everyone_it_pins_with_no_action() -> None:
    enc, _ = start_pin(fight(), OGRE, ARN, prone=True)
    freed, ended = release(enc, OGRE)
    assert ended == [
        PinEnded(OGRE, MIRA, PinEnd.RELEASED),
        PinEnded(OGRE, ARN, PinEnd.RELEASED),
    ]
    assert pinning(freed, OGRE) == ()
    assert freed.states == enc.states  # no action marked
    with pytest.raises(
        RulesError, match=re.escape("Ogre isn't pinning anyone: there is nobody to release.")
    ):
        release(freed, OGRE)
    assert end_pins_of(freed, MIRA) == (freed, [])


def test_a_new_pinner_takes_the_pin_over() -> None:
    enc, started = start_pin(fight(), GOBLIN, MIRA, prone=True)
    assert started == PinStarted(GOBLIN, MIRA, prone=True, taken_from=OGRE)
    assert pinned_by(enc, MIRA) == enc.combatant(GOBLIN) and pinning(enc, OGRE) == ()
    again, same = start_pin(enc, GOBLIN, MIRA)
    assert same == PinStarted(GOBLIN, MIRA) and again == enc
    with pytest.raises(RulesError, match=re.escape("A combatant can't pin itself.")):
        start_pin(enc, MIRA, MIRA)


def test_a_pin_survives_a_restart_and_old_encounters_have_none() -> None:
    enc = fight()
    stored = json.loads(json.dumps(encounter_to_dict(enc)))
    assert [c["pinned_by"] for c in stored["combatants"]] == [OGRE, None, None, None]
    assert encounter_from_dict(stored) == enc
    for c in stored["combatants"]:
        del c["pinned_by"]  # stored before pins were tracked
    assert encounter_from_dict(stored) == replace(
        enc, combatants=tuple(replace(c, pinned_by=None) for c in enc.combatants)
    )
    stored["combatants"][0]["pinned_by"] = "Ogre"
    with pytest.raises(RulesError, match="This stored encounter is damaged"):
        encounter_from_dict(stored)
