"""``roll_expression``: scripted examples, the result model and every limit."""

from __future__ import annotations

import json

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.generic_roll import (
    BinaryTerm,
    DiceGroup,
    Face,
    GenericRoll,
    LiteralTerm,
    SetTerm,
    roll_expression,
)


def roll(text: str, *faces: int) -> GenericRoll:
    dice = ScriptedDice(faces)
    result = roll_expression(text, dice=dice)
    assert dice.remaining == 0, "every scripted face should be used"
    return result


def only_group(result: GenericRoll) -> DiceGroup:
    (group,) = result.dice_groups
    return group


# ----- worked examples -----


def test_keep_highest_three_of_four_drops_the_lowest() -> None:
    result = roll("4d6kh3", 6, 1, 3, 4)
    assert result.total == 13
    assert result.expression == "4d6kh3"
    assert result.label is None
    group = only_group(result)
    assert (group.count, group.sides, group.operations) == (4, 6, "kh3")
    assert [die.value for die in group.dice] == [6, 1, 3, 4]
    assert [die.kept for die in group.dice] == [True, False, True, True]
    assert group.dice[0].faces == (Face(rolled=6, value=6, is_max=True),)
    assert group.dice[1].faces == (Face(rolled=1, value=1, is_min=True),)
    assert result.dice_rolled == 4


def test_keep_lowest_and_drop_highest() -> None:
    assert roll("2d20kl1", 17, 4).total == 4
    assert roll("3d6ph1", 5, 6, 2).total == 7
    assert roll("3d6pl1", 5, 1, 2).total == 7


def test_modifier_is_added() -> None:
    result = roll("1d20+5", 12)
    assert result.total == 17
    assert result.expression == "1d20 + 5"
    assert isinstance(result.tree, BinaryTerm)
    assert result.tree.op == "+"
    assert result.tree.right == LiteralTerm(5)


def test_explosion_adds_a_die_for_each_max_face() -> None:
    result = roll("2d6e6", 6, 3, 6, 2)
    assert result.total == 17
    group = only_group(result)
    assert [die.value for die in group.dice] == [6, 3, 6, 2]
    assert [die.exploded for die in group.dice] == [True, False, True, False]
    assert [die.from_explosion for die in group.dice] == [False, False, True, True]
    assert result.dice_rolled == 4


def test_reroll_replaces_the_face_and_keeps_the_history() -> None:
    result = roll("1d6rr1", 1, 1, 4)
    assert result.total == 4
    (die,) = only_group(result).dice
    assert die.rerolled == (1, 1)
    assert die.value == 4
    assert [face.replaced for face in die.faces] == [True, True, False]
    assert result.dice_rolled == 3


def test_reroll_once_and_explode_once() -> None:
    assert roll("1d6ro1", 1, 1).total == 1
    result = roll("2d6ra6", 6, 6, 6)
    assert result.total == 18
    assert [die.exploded for die in only_group(result).dice] == [True, False, False]


def test_rerolls_and_explosions_happen_left_to_right() -> None:
    # Scripted faces must land on the same dice every run (d20 walks a set).
    for _ in range(20):
        group = only_group(roll("4d6ro<3kh3", 1, 2, 6, 5, 3, 1))
        assert [die.rerolled for die in group.dice] == [(1,), (2,), (), ()]
        assert [die.value for die in group.dice] == [3, 1, 6, 5]
        assert [die.kept for die in group.dice] == [True, False, True, True]


def test_minimum_raises_the_value_but_remembers_the_natural_roll() -> None:
    result = roll("1d20mi10", 3)
    assert result.total == 10
    (die,) = only_group(result).dice
    assert die.faces == (Face(rolled=3, value=10),)
    assert roll("1d20mi10", 1).dice_groups[0].dice[0].faces[0].is_min
    assert roll("1d20ma5", 18).total == 5
    assert roll("1d20mi10", 15).total == 15


def test_trailing_text_is_the_label() -> None:
    result = roll("1d20 attack roll", 11)
    assert result.label == "attack roll"
    assert result.expression == "1d20"
    assert result.total == 11


def test_label_is_kept_as_typed_even_with_mentions_and_markdown() -> None:
    result = roll("1d20+2 @everyone **bold** <@123456789012345678>", 5)
    assert result.label == "@everyone **bold** <@123456789012345678>"
    assert result.total == 7


def test_sets_keep_the_best_group() -> None:
    result = roll("(1d6, 1d8)kh1", 2, 7)
    assert result.total == 7
    assert isinstance(result.tree, SetTerm)
    assert [item.kept for item in result.tree.items] == [False, True]


def test_arithmetic_comparisons_and_annotations() -> None:
    assert (
        roll(
            "2*3+4//3-1",
        ).total
        == 6
    )
    assert roll("1d20 >= 10", 12).total == 1
    assert roll("7/2").total == 3  # truncated, as d20 does
    assert roll("-1d4", 3).total == -3
    result = roll("3d6 [fire] + 2", 1, 2, 3)
    assert result.total == 8
    assert only_group(result).annotation == "[fire]"


def test_percentile_die_is_d20s_tens_die() -> None:
    result = roll("1d%", 10)
    assert result.total == 90
    face = only_group(result).dice[0].faces[0]
    assert face.is_max and not face.is_min
    assert roll("1d%", 1).total == 0


def test_leading_and_trailing_spaces_are_ignored() -> None:
    assert roll("  1d6  ", 4).total == 4


def test_result_is_immutable() -> None:
    result = roll("1d6", 4)
    with pytest.raises(AttributeError):
        result.total = 6  # type: ignore[misc]


def test_to_dict_is_json_and_complete() -> None:
    result = roll("2d6rr1e6kh2+1.5 fireball", 1, 6, 2, 5)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["expression"] == result.expression
    assert data["label"] == "fireball"
    assert data["total"] == result.total == 12  # rr1 first: 1→2; e6 adds 5; kh2 keeps 6+5
    assert data["dice_rolled"] == 4
    dice = data["tree"]["left"]
    assert dice["type"] == "dice"
    assert dice["notation"] == "2d6rr1e6kh2"
    assert [[f["rolled"] for f in die["faces"]] for die in dice["dice"]] == [[1, 2], [6], [5]]
    assert [die["kept"] for die in dice["dice"]] == [False, True, True]
    assert dice["dice"][0]["faces"][0] == {
        "rolled": 1,
        "value": 1,
        "replaced": True,
        "exploded": False,
        "is_max": False,
        "is_min": True,
    }
    assert data["tree"]["right"] == {"type": "literal", "value": 1.5, "kept": True}


def test_default_dice_are_fair_random_dice() -> None:
    result = roll_expression("1d6")
    assert 1 <= result.total <= 6


# ----- limits and abuse -----


def refuse(text: str, *, faces: tuple[int, ...] = ()) -> str:
    dice = ScriptedDice(faces)
    with pytest.raises(RulesError) as caught:
        roll_expression(text, dice=dice)
    message = str(caught.value)
    assert message and "\n" not in message and message.endswith(".")
    assert "@everyone" not in message
    return message


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_expression_is_refused(text: str) -> None:
    assert "Type some dice" in refuse(text)


def test_too_many_dice_are_refused_before_rolling() -> None:
    assert "10000 dice" in refuse("10000d10000")
    assert "101 dice" in refuse("100d6+1d6")
    assert roll("100d1", *[1] * 100).total == 100


@pytest.mark.parametrize("text", ["1d99999999", "1d0", "1d1001", "2d6+1d1000000"])
def test_impossible_die_sizes_are_refused(text: str) -> None:
    assert "between 1 and 1000 sides" in refuse(text)


def test_die_sizes_at_the_limits_are_fine() -> None:
    assert roll("1d1000", 1000).total == 1000
    assert roll("1d1", 1).total == 1


def test_deep_brackets_are_refused() -> None:
    assert "200" in refuse("(" * 500 + "1" + ")" * 500)  # too long first
    assert "nested 25 deep" in refuse("(" * 25 + "1" + ")" * 25)
    assert roll("(" * 20 + "1" + ")" * 20).total == 1


def test_long_operator_chains_are_refused_not_crashing() -> None:
    assert "nests too many" in refuse("-" * 199 + "1")
    assert roll("+".join(["1"] * 100)).total == 100


def test_two_thousand_terms_are_refused_by_length() -> None:
    assert "200" in refuse("+".join(["1"] * 2000))
    assert "200" in refuse("1d6+" * 400)


def test_text_before_the_dice_is_a_syntax_error() -> None:
    # Ruling: a label trails the dice; leading text is refused with a hint.
    message = refuse("@everyone 1d6")
    assert "put any label after them" in message
    assert "@\u200beveryone" in message


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("1d20+", "ends too early"),
        ("1d20 + (", "ends too early"),
        ("1d", "ends too early"),
        ("2d20kh", "ends too early"),
        ("1d20+)", "character 6"),
        ("abc", "put any label after them"),
    ],
)
def test_syntax_errors_say_where(text: str, hint: str) -> None:
    message = refuse(text)
    assert hint in message
    assert "`2d20kh1+5`" in message or "`1d20+5 attack`" in message


def test_syntax_error_snippet_cannot_escape_inline_code() -> None:
    message = refuse("1d20+`@here`")
    assert "`'@\u200bhere'`" in message


def test_endless_explosion_is_refused_before_rolling() -> None:
    assert "explode forever" in refuse("1d1e1")
    assert "explode forever" in refuse("3d6e<7")
    assert "reroll forever" in refuse("1d6rr<7")
    assert "reroll forever" in refuse("1d%rr<100")


def test_explosions_that_run_past_the_budget_stop_with_a_message() -> None:
    # 100 dice all showing 6: the first explosion would be die 101.
    assert "more than 100 dice" in refuse("100d6e6", faces=(6,) * 100)
    # A d2 exploding on 2 keeps going while 2s come up; it stops at 100 draws.
    assert "more than 100 dice" in refuse("1d2e2", faces=(2,) * 100)
    assert roll("1d2e2", 2, 2, 1).total == 5


def test_rerolls_that_run_past_the_budget_stop_with_a_message() -> None:
    assert "more than 100 dice" in refuse("1d6rrh1", faces=(3,) * 100)


def test_huge_numbers_are_refused() -> None:
    assert "9 digits" in refuse("9" * 199)
    assert "9 digits" in refuse("1d6+1000000000")
    assert "9 digits" in refuse("1d6kh1000000000")
    assert roll("999999999*999999999").total == 999999999**2


def test_division_by_zero_is_a_rules_error() -> None:
    assert "divides by zero" in refuse("1d6/0", faces=(3,))
    assert "divides by zero" in refuse("(1/0, 2)kh1")
    assert "divides by zero" in refuse("5%0")


def test_minimum_with_a_ranked_selector_is_a_rules_error() -> None:
    assert "plain number" in refuse("1d6mih1", faces=(3,))
