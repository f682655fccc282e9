"""Tests against a difficulty: names, outcomes, advantage, zero dice."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.check import TestOutcome, TestResult, resolve_test, roll_test
from bot.rules.hocs.difficulty import Difficulty, match_difficulty_names, parse_difficulty
from bot.rules.hocs.pool import PoolSpec


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Routinary", 0),
        ("easy", 0),
        ("Routinary or Easy", 0),
        ("considerable", 1),
        ("CHALLENGING", 2),
        ("Demanding", 3),
        ("hard", 4),
        ("Tough", 5),
        ("astonishing", 6),
        ("Epic", 7),
        ("legendary", 8),
        ("Mythological", 9),
        ("nearly impossible", 10),
        ("Nearly_Impossible", 10),
        (" 7 ", 7),
        (3, 3),
        (Difficulty.HARD, 4),
    ],
)
def test_difficulty_by_name_or_number(text: str | int, value: int) -> None:
    assert parse_difficulty(text) == value


@pytest.mark.parametrize("bad", [11, -1, "impossible", "", True, 2.0, "12"])
def test_bad_difficulty_refused(bad: object) -> None:
    with pytest.raises(RulesError):
        parse_difficulty(bad)  # type: ignore[arg-type]


def test_difficulty_labels_and_autocomplete() -> None:
    assert Difficulty.ROUTINARY.label == "Routinary or Easy"
    assert Difficulty.NEARLY_IMPOSSIBLE.label == "Nearly Impossible"
    assert match_difficulty_names("le")[0] == "Legendary (8)"
    assert match_difficulty_names("myth") == ("Mythological (9)",)
    assert match_difficulty_names("ha")[0] == "Hard (4)"
    assert len(match_difficulty_names("")) == 11


def test_advantage_example_difficulty_three_five_successes() -> None:
    # Athletics vs difficulty 3, 5 successes: advantage.
    test = roll_test(PoolSpec(base=5), difficulty=3, dice=ScriptedDice([4, 5, 6, 4, 5]))
    assert test.successes == 5 and test.succeeded and test.advantage
    assert test.outcome is TestOutcome.ADVANTAGE


@pytest.mark.parametrize(
    ("faces", "difficulty", "outcome", "by_two"),
    [
        ([4, 5, 1], 2, TestOutcome.SUCCESS, False),
        ([4, 5, 6], 1, TestOutcome.ADVANTAGE, False),
        ([4, 1, 1], 2, TestOutcome.FAILURE, False),
        ([1, 1, 1], 2, TestOutcome.FAILURE_BY_TWO, True),
        ([4, 1, 1], 3, TestOutcome.FAILURE_BY_TWO, True),
    ],
)
def test_outcomes(faces: list[int], difficulty: int, outcome: TestOutcome, by_two: bool) -> None:
    test = roll_test(PoolSpec(base=3), difficulty=difficulty, dice=ScriptedDice(faces))
    assert test.outcome is outcome
    assert test.failed_by_two_or_more is by_two


def test_difficulty_zero_is_automatic_success_even_if_rolled() -> None:
    test = roll_test(PoolSpec(base=2), difficulty="easy", dice=ScriptedDice([1, 1]))
    assert test.no_roll_needed and test.succeeded
    assert test.outcome is TestOutcome.AUTOMATIC_SUCCESS


def test_zero_dice_fails_any_positive_difficulty() -> None:
    test = roll_test(PoolSpec(base=1, banes=2), difficulty=1, dice=ScriptedDice([]))
    assert test.zero_dice and test.successes == 0 and not test.succeeded
    assert test.outcome is TestOutcome.FAILURE


def test_difficulty_checked_before_rolling() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(RulesError):
        roll_test(PoolSpec(base=1), difficulty=11, dice=dice)
    assert dice.requests == []


def test_result_round_trip() -> None:
    test = resolve_test(
        roll_test(PoolSpec(base=2), difficulty=4, dice=ScriptedDice([6, 6])).roll,
        difficulty="Hard",
    )
    assert TestResult.from_dict(test.to_dict()) == test
    assert test.failed_by_two_or_more is True and test.margin == -2
