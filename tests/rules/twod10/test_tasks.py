"""Task rolls: the difficulty ladder, advantage/disadvantage, natural 2, every band of the table."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.bands import OutcomeBand, band_for, category_shift
from bot.rules.twod10.difficulty import (
    Difficulty,
    difficulty_label,
    match_difficulty_names,
    parse_difficulty,
)
from bot.rules.twod10.tasks import Edge, Modifier, net_edge, roll_d10s, roll_task


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("very easy", 5),
        ("Very Easy task", 5),
        ("easy", 5),
        ("normal", 0),
        ("Difficult", -5),
        ("difficult for an expert", -10),
        ("expert", -10),
        ("heroic", -15),
        ("very heroic", -20),
        ("Legendary", -25),
        ("demigod", -25),
        ("-7", -7),
        ("+5", 5),
        (-25, -25),
        (Difficulty.HEROIC, -15),
    ],
)
def test_ladder_by_name_or_number(text: str | int, value: int) -> None:
    assert parse_difficulty(text) == value


@pytest.mark.parametrize("bad", [6, -26, "impossible", "", True, 2.5, "10000"])
def test_bad_difficulty_refused(bad: object) -> None:
    with pytest.raises(RulesError):
        parse_difficulty(bad)  # type: ignore[arg-type]


def test_two_heroic_rungs_have_distinct_names() -> None:
    # Ruling two-heroics: the text calls both -15 and -20 "heroic task".
    assert parse_difficulty("heroic") == -15
    assert parse_difficulty("very heroic") == -20
    assert difficulty_label(-20) == "Very heroic (-20)"
    assert difficulty_label(-7) == "-7"
    assert match_difficulty_names("hero") == ("Heroic (-15)", "Very heroic (-20)")
    assert match_difficulty_names("very")[:2] == ("Very easy (+5)", "Very heroic (-20)")


def test_signed_ladder_is_added_to_the_roll() -> None:
    # Ruling ladder-signs: "difficult" (-5) takes 5 off; "very easy" adds 5.
    hard = roll_task(attribute=2, skill=1, difficulty=-5, dice=ScriptedDice([6, 5]))
    assert hard.total == 6 + 5 + 2 + 1 - 5 == 9
    assert not hard.succeeded
    easy = roll_task(attribute=2, skill=1, difficulty=5, dice=ScriptedDice([6, 5]))
    assert easy.total == 19 and easy.succeeded


def test_exactly_ten_succeeds() -> None:
    # "On a roll of 10, the action succeeds."
    result = roll_task(attribute=1, skill=1, dice=ScriptedDice([4, 4]))
    assert result.total == 10 and result.succeeded and result.margin == 0
    result = roll_task(attribute=1, skill=0, dice=ScriptedDice([4, 4]))
    assert result.total == 9 and not result.succeeded


def test_advantage_drops_lowest_disadvantage_drops_highest() -> None:
    adv = roll_task(attribute=0, advantage=1, dice=ScriptedDice([3, 9, 5]))
    assert adv.roll.faces == (3, 9, 5) and adv.roll.kept == (9, 5) and adv.total == 14
    dis = roll_task(attribute=0, disadvantage=1, dice=ScriptedDice([3, 9, 5]))
    assert dis.roll.kept == (3, 5) and dis.total == 8


def test_advantage_and_disadvantage_cancel_one_for_one() -> None:
    assert net_edge(1, 1) is Edge.NONE
    assert net_edge(2, 1) is Edge.ADVANTAGE
    assert net_edge(1, 3) is Edge.DISADVANTAGE
    # Ruling advantage-stack: two net advantages still roll three dice.
    dice = ScriptedDice([2, 7, 8])
    result = roll_task(attribute=0, advantage=3, disadvantage=1, dice=dice)
    assert dice.requests == [10, 10, 10] and result.roll.kept == (7, 8)
    even = ScriptedDice([2, 7])
    assert roll_task(attribute=0, advantage=2, disadvantage=2, dice=even).roll.dropped is None
    assert even.requests == [10, 10]


def test_equal_faces_drop_one_of_them() -> None:
    roll = roll_d10s(Edge.ADVANTAGE, ScriptedDice([4, 4, 9]))
    assert roll.kept == (4, 9) and roll.natural == 13


@pytest.mark.parametrize("count", [-1, 21, True])
def test_edge_counts_bounded(count: int) -> None:
    with pytest.raises(RulesError):
        net_edge(count, 0)


def test_natural_two_always_fails() -> None:
    # Ruling natural-two: 1 + 1 on the kept dice fails even with a total of 10+.
    result = roll_task(attribute=6, skill=6, dice=ScriptedDice([1, 1]))
    assert result.total == 14 and result.natural_two and not result.succeeded
    assert result.band is OutcomeBand.FAILURE
    low = roll_task(attribute=0, dice=ScriptedDice([1, 1]))
    assert low.band is OutcomeBand.EXTREME_FAILURE
    # With advantage the dropped die doesn't count: 1, 1 kept of 1, 1, 1.
    assert roll_task(attribute=6, advantage=1, dice=ScriptedDice([1, 1, 1])).natural_two
    assert not roll_task(attribute=6, advantage=1, dice=ScriptedDice([1, 1, 2])).natural_two


# Every row of the to-hit table: the band and the dice categories.
@pytest.mark.parametrize(
    ("total", "band", "shift"),
    [
        (2, OutcomeBand.EXTREME_FAILURE, -8),
        (4, OutcomeBand.EXTREME_FAILURE, -6),
        (5, OutcomeBand.EXTREME_FAILURE, -5),  # ruling minus-six: the table prints -6
        (6, OutcomeBand.FAILURE, -4),
        (7, OutcomeBand.FAILURE, -3),
        (8, OutcomeBand.FAILURE, -2),
        (9, OutcomeBand.FAILURE, -1),
        (10, OutcomeBand.SUCCESS_WITH_COMPLICATION, 0),
        (11, OutcomeBand.SUCCESS_WITH_COMPLICATION, 0),
        (12, OutcomeBand.SUCCESS_WITH_COMPLICATION, 1),
        (13, OutcomeBand.SUCCESS_WITH_COMPLICATION, 1),
        (14, OutcomeBand.SUCCESS_WITH_COMPLICATION, 2),
        (15, OutcomeBand.SUCCESS, 2),
        (16, OutcomeBand.SUCCESS, 3),
        (18, OutcomeBand.SUCCESS, 4),
        (19, OutcomeBand.SUCCESS, 4),
        (20, OutcomeBand.SUCCESS_WITH_BONUS, 5),
        (24, OutcomeBand.SUCCESS_WITH_BONUS, 7),  # ruling past-twenty
        (25, OutcomeBand.EXTRA_ACTION, 7),
        (31, OutcomeBand.EXTRA_ACTION, 10),
    ],
)
def test_to_hit_table_rows(total: int, band: OutcomeBand, shift: int) -> None:
    assert band_for(total) is band
    assert category_shift(total) == shift


# Each band reached by real scripted dice through roll_task.
@pytest.mark.parametrize(
    ("faces", "attribute", "skill", "difficulty", "band"),
    [
        ((2, 1), 1, 1, 0, OutcomeBand.EXTREME_FAILURE),  # 5
        ((3, 3), 1, 1, 0, OutcomeBand.FAILURE),  # 8
        ((5, 4), 1, 1, -1, OutcomeBand.SUCCESS_WITH_COMPLICATION),  # 10
        ((7, 6), 1, 1, 0, OutcomeBand.SUCCESS),  # 15
        ((10, 9), 1, 0, 0, OutcomeBand.SUCCESS_WITH_BONUS),  # 20
        ((10, 10), 3, 2, 0, OutcomeBand.EXTRA_ACTION),  # 25
    ],
)
def test_bands_from_scripted_dice(
    faces: tuple[int, int], attribute: int, skill: int, difficulty: int, band: OutcomeBand
) -> None:
    result = roll_task(
        attribute=attribute, skill=skill, difficulty=difficulty, dice=ScriptedDice(faces)
    )
    assert result.band is band
    assert result.total == sum(faces) + attribute + skill + difficulty


def test_modifiers_recorded_and_bounded() -> None:
    result = roll_task(
        attribute=2,
        skill=3,
        difficulty=-10,
        extra=(Modifier(label="soft cover", value=-2),),
        dice=ScriptedDice([8, 9]),
    )
    assert [(m.label, m.value) for m in result.modifiers] == [
        ("attribute", 2),
        ("skill", 3),
        ("difficulty", -10),
        ("soft cover", -2),
    ]
    assert result.total == 10
    with pytest.raises(RulesError):
        roll_task(attribute=7, dice=ScriptedDice([1, 1]))
    with pytest.raises(RulesError):
        roll_task(attribute=0, skill=-1, dice=ScriptedDice([1, 1]))
    with pytest.raises(RulesError):
        Modifier(label="bonus", value=999)


def test_impossible_face_refused() -> None:
    class Broken:
        def roll(self, sides: int) -> int:
            return 0

    with pytest.raises(RulesError):
        roll_task(attribute=0, dice=Broken())
