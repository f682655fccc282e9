"""Rending on an attack: a natural-20 hit tries brawl + strength for one more damage die."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackerStats, Situation, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.wielding import unarmed, wield

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
TARGET = TargetStats(attribute=Attribute.FINESSE, defense=4)
REND = Situation(rend=True)


def test_a_natural_twenty_hit_rends_for_one_more_die() -> None:
    # Fists (brawl 3: 1d3). 10 + 10 + 2 + 3 − 4 = 21: +5 categories, capped at a d12.
    # Rending: 4 + 5 + 2 strength + 3 brawl = 14, a success: one more d12 after the
    # weapon's die and the natural 20's two.
    dice = ScriptedDice([10, 10, 4, 5, 7, 3, 2, 6])
    result = roll_attack(unarmed(3), FIGHTER, TARGET, situation=REND, dice=dice)
    assert result.rending is not None and result.rending.succeeded
    assert result.rending.roll.total == 14
    assert result.damage is not None
    assert [f.face for f in result.damage.faces] == [7, 3, 2, 6]
    assert [f.extra for f in result.damage.faces] == [False, True, True, True]
    assert result.damage.faces[-1].sides == 12
    # 7 + 3 + 2 + 6 dice + 2 strength = 20.
    assert result.damage_total == 20
    assert dice.remaining == 0


def test_a_failed_rending_adds_nothing() -> None:
    # Rending 1 + 2 + 5 = 8: below 10.
    dice = ScriptedDice([10, 10, 1, 2, 7, 3, 2])
    result = roll_attack(unarmed(3), FIGHTER, TARGET, situation=REND, dice=dice)
    assert result.rending is not None and not result.rending.succeeded
    assert result.damage is not None and len(result.damage.faces) == 3
    assert dice.remaining == 0


def test_no_natural_twenty_no_rending_roll() -> None:
    dice = ScriptedDice([9, 10, 2])  # 19 + 5 − 4 = 20, a hit but no critical
    result = roll_attack(unarmed(3), FIGHTER, TARGET, situation=REND, dice=dice)
    assert result.rending is None and dice.remaining == 0


def test_a_natural_twenty_that_misses_is_no_critical_hit() -> None:
    armoured = TargetStats(attribute=Attribute.FINESSE, defense=20)
    dice = ScriptedDice([10, 10, 1])  # 20 + 5 − 20 = 5: a miss, d3 down to a d2? no: 1d1
    result = roll_attack(unarmed(3), FIGHTER, armoured, situation=REND, dice=dice)
    assert result.roll is not None and result.roll.natural_twenty and not result.hit
    assert result.rending is None


def test_ranged_attacks_cannot_rend() -> None:
    with pytest.raises(RulesError, match="can't"):
        roll_attack(wield(weapon("shortbow")), FIGHTER, TARGET, situation=REND,
                    dice=ScriptedDice([]))  # fmt: skip
