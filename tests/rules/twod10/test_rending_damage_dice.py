"""A successful rending's die is counted apart from the natural 20's (ruling rending-reach)."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackerStats, Situation, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.damage import add_damage_die
from bot.rules.twod10.wielding import unarmed

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
TARGET = TargetStats(attribute=Attribute.FINESSE, defense=4)


def test_the_rending_die_is_counted_and_added_to_the_total() -> None:
    # 21 on fists: d12s. Rending 5 + 5 + 5 = 15. Dice 7, 3, 2 and the rending's 6.
    dice = ScriptedDice([10, 10, 5, 5, 7, 3, 2, 6])
    result = roll_attack(unarmed(3), FIGHTER, TARGET, situation=Situation(rend=True), dice=dice)
    assert result.damage is not None
    assert result.damage.natural_twenty_dice == 2 and result.damage.rending_dice == 1
    assert result.damage_total == 7 + 3 + 2 + 6 + 2


def test_without_rending_no_die_is_counted() -> None:
    dice = ScriptedDice([10, 10, 7, 3, 2])
    result = roll_attack(unarmed(3), FIGHTER, TARGET, dice=dice)
    assert result.damage is not None and result.damage.rending_dice == 0
    assert result.damage_total == 14


def test_no_die_is_added_to_an_attack_that_dealt_nothing() -> None:
    miss = roll_attack(unarmed(3), FIGHTER, TARGET, dice=ScriptedDice([1, 1]))  # natural 2
    assert miss.damage is not None
    with pytest.raises(RulesError, match="no damage"):
        add_damage_die(miss.damage, ScriptedDice([3]))
