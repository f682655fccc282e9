"""Medicine: every band of daily and short-rest use, stabilisation, attribute damage, supplies."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.healing import HealingState, fresh, long_rest, take_damage
from bot.rules.twod10.medicine import (
    Healer,
    daily_medicine,
    heal_attribute_damage,
    short_rest_medicine,
    stabilise,
)
from bot.rules.twod10.tasks import Edge

UNTRAINED = Healer(mind=0)
DOCTOR = Healer(mind=2, medicine=3)  # +5
HURT = HealingState(hp=10, max_hp=30, damaged_since_rest=True)


@pytest.mark.parametrize(
    ("healer", "faces", "toughness", "change"),
    [
        (UNTRAINED, (1, 1), 3, -2),  # natural 2
        (DOCTOR, (1, 1), 3, -2),  # natural 2 even at a total of 7
        (UNTRAINED, (2, 3), 3, -1),  # 5 or under
        (UNTRAINED, (4, 5), 3, 0),  # 9: nothing (ruling medicine-bands)
        (UNTRAINED, (5, 5), 3, 1),  # 10: half toughness, rounded down
        (UNTRAINED, (5, 5), -1, 0),  # ... or 0
        (UNTRAINED, (7, 8), 3, 3),  # 15: toughness
        (UNTRAINED, (7, 8), 0, 1),  # ... or 1
        (UNTRAINED, (10, 10), 3, 6),  # 20: 2 x toughness
        (UNTRAINED, (10, 10), 0, 2),  # ... or 2
        (DOCTOR, (10, 10), 3, 9),  # 25: 3 x toughness
        (DOCTOR, (10, 10), 0, 3),  # ... or 3
    ],
)
def test_daily_use_bands(healer: Healer, faces: tuple[int, int], toughness: int,
                         change: int) -> None:  # fmt: skip
    result = daily_medicine(healer, HURT, toughness=toughness, dice=ScriptedDice(faces))
    assert result.change == change and result.after is not None
    assert result.after.hp == 10 + change and result.supplies_used == 0


def test_daily_use_once_a_day() -> None:
    first = daily_medicine(UNTRAINED, HURT, toughness=3, dice=ScriptedDice([5, 5]))
    assert first.after is not None and first.after.daily_medicine_used
    with pytest.raises(RulesError, match="daily medicine"):
        daily_medicine(UNTRAINED, first.after, toughness=3, dice=ScriptedDice([5, 5]))
    rested = long_rest(first.after, toughness=3).after
    again = daily_medicine(UNTRAINED, rested, toughness=3, dice=ScriptedDice([5, 5]))
    assert again.change == 1


@pytest.mark.parametrize(
    ("faces", "toughness", "change"),
    [
        ((1, 1), 3, -2),
        ((2, 3), 3, -1),
        ((4, 5), 3, 0),
        ((5, 5), 2, 1),  # 10: 1 if toughness is 2+
        ((5, 5), 1, 0),  # ... or 0
        ((7, 8), 0, 1),
        ((10, 10), 0, 2),
    ],
)
def test_short_rest_use_bands(faces: tuple[int, int], toughness: int, change: int) -> None:
    result = short_rest_medicine(UNTRAINED, HURT, toughness=toughness, dice=ScriptedDice(faces))
    assert result.change == change and result.supplies_used == 1
    # The rest's own gain (toughness or 1) comes with it.
    assert result.after is not None and result.after.hp == 10 + max(toughness, 1) + change
    assert result.rest is not None and result.rest.medicine == change


def test_short_rest_use_twenty_five() -> None:
    result = short_rest_medicine(DOCTOR, HURT, toughness=0, dice=ScriptedDice([10, 10]))
    assert result.roll.total == 25 and result.change == 3


def test_short_rest_use_is_capped_and_checked_before_rolling() -> None:
    capped = HealingState(hp=10, max_hp=30, damaged_since_rest=True, short_rest_cap=12)
    result = short_rest_medicine(DOCTOR, capped, toughness=3, dice=ScriptedDice([10, 10]))
    assert result.after is not None and result.after.hp == 12
    rested = HealingState(hp=10, max_hp=30)
    dice = ScriptedDice([10, 10])
    with pytest.raises(RulesError, match="after damage is taken again"):
        short_rest_medicine(DOCTOR, rested, toughness=3, dice=dice)
    assert dice.remaining == 2  # nothing rolled, no supplies spent


def test_missing_supplies_give_disadvantage_and_spend_nothing() -> None:
    healer = Healer(mind=2, medicine=3, supplies=False)
    result = short_rest_medicine(healer, HURT, toughness=2, dice=ScriptedDice([9, 8, 2]))
    assert result.roll.roll.edge is Edge.DISADVANTAGE and result.roll.natural == 10
    assert result.roll.total == 15 and result.change == 1 and result.supplies_used == 0


@pytest.mark.parametrize(
    ("faces", "hp_after", "advantage"),
    [
        ((3, 4), -3, False),  # 7 + 5 - 3 = 9
        ((4, 4), -3, True),  # 10: advantage only
        ((7, 6), -2, True),  # 15: +1
        ((9, 9), -1, True),  # 20: +2 (18 + 5 - 3)
        ((10, 10), -1, True),  # 22: still +2
    ],
)
def test_stabilisation_bands(faces: tuple[int, int], hp_after: int, advantage: bool) -> None:
    patient = HealingState(hp=-3, max_hp=30, unconscious=True)
    result = stabilise(DOCTOR, patient, toughness=3, dice=ScriptedDice(faces))
    assert result.roll.modifiers[-1].label == "patient's HP"
    assert result.after is not None and result.after.hp == hp_after
    assert result.after.toughness_advantage is advantage
    assert result.supplies_used == 0


@pytest.mark.parametrize(("healer", "gain"), [(DOCTOR, 3), (Healer(mind=5, medicine=5), 5)])
def test_stabilisation_high_bands(healer: Healer, gain: int) -> None:
    # 25 gives 3 HP and 30 gives 5 HP; a patient at 0 adds nothing to the roll.
    patient = HealingState(hp=0, max_hp=30, unconscious=True)
    result = stabilise(healer, patient, toughness=3, dice=ScriptedDice([10, 10]))
    assert result.roll.total == 20 + healer.mind + healer.medicine
    assert result.after is not None and result.after.hp == gain
    assert not result.after.unconscious  # back to 1 HP or more: awake


def test_stabilise_only_the_dying() -> None:
    with pytest.raises(RulesError, match="0 HP or below"):
        stabilise(DOCTOR, HURT, toughness=3, dice=ScriptedDice([]))
    dead = take_damage(fresh(30), 50, toughness=3)
    with pytest.raises(RulesError, match="dead"):
        stabilise(DOCTOR, dead, toughness=3, dice=ScriptedDice([]))


@pytest.mark.parametrize(("faces", "needed", "healed"), [
    ((5, 5), 15, True), ((5, 4), 15, False), ((10, 5), 20, True), ((9, 5), 20, False),
])  # fmt: skip
def test_attribute_damage(faces: tuple[int, int], needed: int, healed: bool) -> None:
    result = heal_attribute_damage(DOCTOR, HURT, needed=needed, dice=ScriptedDice(faces))
    assert result.healed is healed and result.supplies_used == 1
    assert result.after.attribute_healed_today is healed


def test_attribute_damage_once_a_day_and_bounds() -> None:
    done = heal_attribute_damage(DOCTOR, HURT, needed=15, dice=ScriptedDice([5, 5])).after
    with pytest.raises(RulesError, match="once a day"):
        heal_attribute_damage(DOCTOR, done, needed=15, dice=ScriptedDice([5, 5]))
    with pytest.raises(RulesError, match="15 to 20"):
        heal_attribute_damage(DOCTOR, HURT, needed=21, dice=ScriptedDice([]))
    bare = Healer(mind=2, medicine=3, supplies=False)
    result = heal_attribute_damage(bare, HURT, needed=15, dice=ScriptedDice([10, 10, 5]))
    assert result.roll.roll.edge is Edge.DISADVANTAGE and result.healed
    assert result.supplies_used == 0


def test_healer_scores_checked() -> None:
    with pytest.raises(RulesError, match="Medicine"):
        Healer(mind=1, medicine=7)
