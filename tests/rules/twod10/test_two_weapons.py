"""Ruling two-weapon-finesse: the round's grip, as the tracker keeps it."""

from __future__ import annotations

import json

import pytest

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.model import Combatant, Encounter, Side
from bot.rules.twod10.initiative.two_weapons import check_grip, note_grip

ENC = Encounter(combatants=(Combatant(id=1, name="Mira", side=Side.PLAYERS, finesse=2),))


def test_a_strength_attack_rules_out_the_offhand() -> None:
    enc = note_grip(ENC, 1, offhand=False, finesse=False)
    check_grip(enc, 1, offhand=False, finesse=False)  # a second strength attack is fine
    with pytest.raises(RulesError, match=r"^Mira attacked with strength this round"):
        check_grip(enc, 1, offhand=True, finesse=True)


def test_an_offhand_attack_holds_the_main_weapon_to_finesse() -> None:
    enc = note_grip(ENC, 1, offhand=True, finesse=True)
    check_grip(enc, 1, offhand=False, finesse=True)
    check_grip(enc, 1, offhand=True, finesse=True)
    with pytest.raises(RulesError, match=r"^Mira fights with an offhand weapon this round"):
        check_grip(enc, 1, offhand=False, finesse=False)


def test_finesse_main_attacks_leave_both_open_and_the_grip_survives_a_restart() -> None:
    enc = note_grip(ENC, 1, offhand=False, finesse=True)
    check_grip(enc, 1, offhand=True, finesse=True)
    both = note_grip(note_grip(ENC, 1, offhand=True, finesse=True), 1, offhand=False, finesse=False)
    stored = json.loads(json.dumps(encounter_to_dict(both)))
    assert encounter_from_dict(stored) == both
    del stored["states"][0]["offhand_attack"], stored["states"][0]["strength_attack"]
    assert encounter_from_dict(stored).state(1).offhand_attack is False  # stored before
