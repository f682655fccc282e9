from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.wounds import (
    BaneScope,
    InjuryKind,
    Wound,
    WoundCheckResult,
    WoundKind,
    apply_wound_effects,
    needs_wound_check,
    roll_recovery,
    roll_wound_check,
    wounds_are_fatal,
)


def test_wound_check_only_for_ten_or_more_to_a_survivor() -> None:
    assert not needs_wound_check(9, survived=True)
    assert needs_wound_check(10, survived=True)
    assert not needs_wound_check(15, survived=False)


@pytest.mark.parametrize(
    ("face", "result"),
    [
        (1, WoundCheckResult.NOTHING),
        (5, WoundCheckResult.NOTHING),
        (6, WoundCheckResult.ITEM_DAMAGED),
        (7, WoundCheckResult.ITEM_DAMAGED),
    ],
)
def test_wound_check_without_a_wound(face: int, result: WoundCheckResult) -> None:
    dice = ScriptedDice([face])
    check = roll_wound_check(dice)
    assert check.result is result and check.wound is None
    assert dice.remaining == 0


def test_wound_check_rolls_a_wound_and_its_recovery() -> None:
    # Check 8 → wounded; wounds d10 2 → max HP −2; recovery 2d4 (3, 1) + 4 = 8 days.
    dice = ScriptedDice([8, 2, 3, 1])
    check = roll_wound_check(dice)
    assert check.result is WoundCheckResult.WOUNDED
    assert check.wound == Wound(WoundKind.MAX_HP_MINUS_2, 8, (3, 1))
    assert dice.requests == [10, 10, 4, 4]
    assert not check.wound.is_injury


def test_wound_ten_is_an_injury() -> None:
    # Check 10, wound 10 → injury d12 9 = broken arm; 3d10 (1, 2, 3) + 30 = 36 days.
    dice = ScriptedDice([10, 10, 9, 1, 2, 3])
    check = roll_wound_check(dice)
    assert check.injury_face == 9
    assert check.wound == Wound(InjuryKind.BROKEN_ARM, 36, (1, 2, 3))
    assert check.wound.is_injury
    assert dice.requests == [10, 10, 12, 10, 10, 10]


@pytest.mark.parametrize(
    ("face", "kind", "sides", "count", "days"),
    [
        (1, InjuryKind.TORN_MUSCLE_ARM, 6, 2, 10),
        (6, InjuryKind.TORN_MUSCLE_LEG, 6, 2, 10),
        (8, InjuryKind.INTERNAL_BLEEDING, 6, 2, 10),
        (10, InjuryKind.BROKEN_LEG, 10, 3, 30),
        (11, InjuryKind.BROKEN_TORSO, 10, 3, 30),
        (12, InjuryKind.FRACTURED_SKULL, 10, 4, 30),
    ],
)
def test_injury_table(face: int, kind: InjuryKind, sides: int, count: int, days: int) -> None:
    dice = ScriptedDice([9, 10, face] + [1] * count)
    wound = roll_wound_check(dice).wound
    assert wound is not None and wound.kind is kind
    assert wound.recovery_days == count + days
    assert dice.requests[3:] == [sides] * count


def test_every_wound_face_maps_to_its_kind() -> None:
    for face in range(1, 10):
        wound = roll_wound_check(ScriptedDice([8, face, 1, 1])).wound
        assert wound is not None and wound.kind is WoundKind(face)


def test_effective_values_are_recomputed_from_base_values() -> None:
    wounds = [
        roll_recovery(WoundKind.MAX_HP_MINUS_4, ScriptedDice([1, 1])),
        roll_recovery(WoundKind.STRENGTH_AND_AGILITY_MINUS_1, ScriptedDice([1, 1])),
        roll_recovery(WoundKind.THRESHOLD_DIFFICULTY, ScriptedDice([1, 1])),
        roll_recovery(WoundKind.RESTING_MINUS_5, ScriptedDice([1, 1])),
        roll_recovery(WoundKind.SPEED_MINUS_10, ScriptedDice([1, 1])),
        roll_recovery(WoundKind.SPEED_HALVED, ScriptedDice([1, 1])),
        roll_recovery(InjuryKind.TORN_MUSCLE_ARM, ScriptedDice([1, 1])),
        roll_recovery(InjuryKind.INTERNAL_BLEEDING, ScriptedDice([1, 1])),
    ]
    values = apply_wound_effects(strength=10, agility=3, max_hp=12, speed=30, wounds=wounds)
    assert values.max_hp == 8
    assert values.strength == 9 and values.agility == 2
    assert values.threshold_difficulty == 1
    assert values.resting_value == -5
    assert values.speed == 10  # (30 − 10) halved
    assert values.banes == ((BaneScope.ARM, 2),)
    assert values.strength_damage == -2
    assert values.bleeding == 2
    assert not values.dead and not values.out_of_game


def test_broken_leg_sets_speed_to_ten() -> None:
    leg = roll_recovery(InjuryKind.BROKEN_LEG, ScriptedDice([1, 1, 1]))
    values = apply_wound_effects(strength=3, agility=3, max_hp=12, speed=30, wounds=[leg])
    assert values.speed == 10
    assert values.banes == ((BaneScope.LEG, 5),)


def test_no_wounds_leaves_base_values() -> None:
    values = apply_wound_effects(strength=3, agility=2, max_hp=12, speed=30, wounds=())
    assert (values.strength, values.agility, values.max_hp, values.speed) == (3, 2, 12, 30)
    assert not values.dead


def test_death_from_as_many_wounds_as_base_strength() -> None:
    wound = Wound(WoundKind.STRENGTH_MINUS_1, 6)
    two = apply_wound_effects(strength=3, agility=2, max_hp=12, speed=30, wounds=[wound] * 2)
    assert not two.dead
    three = apply_wound_effects(strength=3, agility=2, max_hp=12, speed=30, wounds=[wound] * 3)
    assert three.dead


def test_death_when_maximum_hit_points_reach_zero() -> None:
    assert wounds_are_fatal(base_strength=5, wounds=[Wound(WoundKind.MAX_HP_MINUS_4, 6)], max_hp=0)
    hp4 = Wound(WoundKind.MAX_HP_MINUS_4, 6)
    values = apply_wound_effects(strength=5, agility=1, max_hp=8, speed=30, wounds=[hp4, hp4])
    assert values.max_hp == 0 and values.dead


def test_wound_round_trip_and_descriptions() -> None:
    wound = Wound(InjuryKind.FRACTURED_SKULL, 40, (5, 2, 2, 1))
    assert Wound.from_dict(wound.to_dict()) == wound
    assert wound.effect.out_of_game
    assert wound.description.startswith("5 banes on most rolls")
    with pytest.raises(RulesError):
        Wound.from_dict({"kind": "PAPER_CUT", "recovery_days": 1})


def test_negative_base_values_are_refused() -> None:
    with pytest.raises(RulesError):
        apply_wound_effects(strength=-1, agility=1, max_hp=8, speed=30, wounds=())
