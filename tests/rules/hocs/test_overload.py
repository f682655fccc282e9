"""Carrying capacity and overload: "Characters that carry a greater load than what their
capacity allows gain 3 banes on all strength and agility skill rolls and become
hindered, slow and defenseless.\""""

from __future__ import annotations

import pytest

from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.effective import effective_values, overload_conditions


def small(load: int):  # type: ignore[no-untyped-def]
    # The text's example: "a small-sized character with strength 2 would have 8 equipped
    # item slots".
    sheet = CharacterSheet(
        name="Pip", strength=2, agility=2, mind=1, presence=1, size=SizeCategory.SMALL
    )
    return effective_values(sheet, speed=30, load=load)


def test_the_texts_small_character_carries_8_slots_before_overload() -> None:
    assert small(8).carrying_capacity == 8 and not small(8).overloaded
    assert small(9).overloaded


def test_overload_gives_3_banes_on_strength_and_agility_rolls_only() -> None:
    loaded = small(9)
    assert loaded.roll_banes(Attribute.STRENGTH) == (("overloaded", 3),)
    assert loaded.roll_banes(Attribute.AGILITY) == (("overloaded", 3),)
    assert loaded.roll_banes(Attribute.MIND) == ()
    staggered = Conditions.of(Condition.STAGGERED)
    assert loaded.roll_banes(Attribute.AGILITY, staggered) == (
        ("staggered", 2),
        ("overloaded", 3),
    )
    assert small(8).roll_banes(Attribute.STRENGTH) == ()
    with pytest.raises(RulesError):
        small(-1)


def test_overload_conditions_come_and_go_with_the_load() -> None:
    bleeding = Conditions.of(bleeding=2)
    gained = overload_conditions(bleeding, was=False, now=True)
    assert gained == Conditions.of(
        Condition.HINDERED, Condition.SLOW, Condition.DEFENSELESS, bleeding=2
    )
    assert overload_conditions(gained, was=True, now=True) == gained
    assert overload_conditions(gained, was=True, now=False) == bleeding
    assert overload_conditions(bleeding, was=False, now=False) == bleeding
