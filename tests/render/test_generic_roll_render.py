"""Markdown and log-line rendering of generic rolls."""

from __future__ import annotations

import pytest

from bot.render.generic_roll import SHORTENED_NOTE, render_roll_line, render_roll_markdown
from bot.rules.dice_source import ScriptedDice
from bot.rules.generic_roll import DiceGroup, DieRoll, Face, GenericRoll, roll_expression


def roll(text: str, *faces: int) -> GenericRoll:
    return roll_expression(text, dice=ScriptedDice(faces))


@pytest.mark.parametrize(
    ("text", "faces", "markdown", "line"),
    [
        (
            "2d20kh1+5",
            (3, 20),
            "`2d20kh1 + 5` → (~~3~~, **20**) + 5 = **25**",
            "2d20kh1 + 5 → (~3~, 20) + 5 = 25",
        ),
        (
            "4d6kh3",
            (6, 1, 3, 4),
            "`4d6kh3` → (**6**, ~~**1**~~, 3, 4) = **13**",
            "4d6kh3 → (6, ~1~, 3, 4) = 13",
        ),
        ("1d20+5", (12,), "`1d20 + 5` → (12) + 5 = **17**", "1d20 + 5 → (12) + 5 = 17"),
        (
            "2d6e6",
            (6, 3, 6, 2),
            "`2d6e6` → (**6**!, 3, **6**!, 2) = **17**",
            "2d6e6 → (6!, 3, 6!, 2) = 17",
        ),
        (
            "1d6rr1",
            (1, 1, 4),
            "`1d6rr1` → (~~**1**~~, ~~**1**~~, 4) = **4**",
            "1d6rr1 → (~1~, ~1~, 4) = 4",
        ),
        ("1d20mi10", (3,), "`1d20mi10` → (3→10) = **10**", "1d20mi10 → (3→10) = 10"),
        ("1d20mi10", (1,), "`1d20mi10` → (**1**→10) = **10**", "1d20mi10 → (1→10) = 10"),
        (
            "1d20 attack roll",
            (20,),
            "**attack roll:** `1d20` → (**20**) = **20**",
            "attack roll: 1d20 → (20) = 20",
        ),
        (
            "4d6ro<3kh3",
            (1, 2, 6, 5, 3, 1),
            "`4d6ro<3kh3` → (~~**1**~~, 3, ~~2, **1**~~, **6**, 5) = **14**",
            "4d6ro<3kh3 → (~1~, 3, ~2, 1~, 6, 5) = 14",
        ),
        (
            "(1d6, 1d8)kh1 * 2",
            (2, 7),
            r"`(1d6, 1d8)kh1 * 2` → (~~(2)~~, (7)) \* 2 = **14**",
            "(1d6, 1d8)kh1 * 2 → (~(2)~, (7)) * 2 = 14",
        ),
        (
            "-(1d4+1) [fire]",
            (4,),
            "`-(1d4 + 1) [fire]` → -((**4**) + 1) [fire] = **-5**",
            "-(1d4 + 1) [fire] → -((4) + 1) [fire] = -5",
        ),
    ],
)
def test_worked_examples(text: str, faces: tuple[int, ...], markdown: str, line: str) -> None:
    result = roll(text, *faces)
    assert render_roll_markdown(result) == markdown
    assert render_roll_line(result) == line


def test_label_markdown_and_mentions_are_escaped() -> None:
    result = roll("1d20 @everyone **loud** ||x|| <@123456789012345678> @here", 5)
    markdown = render_roll_markdown(result)
    assert markdown == (
        "**@\u200beveryone \\*\\*loud\\*\\* \\|\\|x\\|\\| <@\u200b123456789012345678> "
        "@\u200bhere:** `1d20` → (5) = **5**"
    )
    assert "@everyone" not in markdown and "@here" not in markdown
    # The log line is plain text for people reading logs, not Discord.
    assert render_roll_line(result).startswith("@everyone **loud**")


def test_annotations_cannot_break_out_of_inline_code_or_ping() -> None:
    result = roll("1d6 [`@everyone`]", 2)
    markdown = render_roll_markdown(result)
    assert markdown.startswith("`1d6 ['@\u200beveryone']` → (2) ")
    assert markdown.endswith(" = **2**")
    assert "@everyone" not in markdown
    assert markdown.count("`") - markdown.count("\\`") == 2  # the annotation's are escaped


def test_dropped_dice_with_rerolls_are_struck_once() -> None:
    result = roll("2d6rr1kl1", 1, 6, 2)
    assert render_roll_markdown(result) == "`2d6rr1kl1` → (~~**1**~~, 2, ~~**6**~~) = **2**"


def test_the_longest_roll_the_rules_allow_fits_without_collapsing() -> None:
    text = "100d1000ma999 [" + "*" * 184 + "]"
    assert len(text) == 200
    result = roll(text, *([1000] * 100))
    markdown = render_roll_markdown(result)
    assert len(markdown) <= 2000
    assert SHORTENED_NOTE not in markdown


def test_long_detail_is_collapsed_with_a_note() -> None:
    # Built by hand: more dice than the rules allow, to force the collapse.
    faces = (
        Face(rolled=1, value=1, replaced=True, is_min=True),
        Face(rolled=20, value=20, is_max=True),
    )
    group = DiceGroup(count=300, sides=20, dice=(DieRoll(sides=20, faces=faces),) * 300)
    result = GenericRoll(
        expression="300d20rr1",
        label="@everyone " + "*" * 150,
        total=6000,
        tree=group,
        dice_rolled=600,
    )
    markdown = render_roll_markdown(result)
    assert len(markdown) <= 2000
    assert markdown.endswith(SHORTENED_NOTE)
    assert "*600 dice*" in markdown
    assert "= **6000**" in markdown
    assert "@everyone" not in markdown


def test_fractional_literals_render() -> None:
    assert render_roll_markdown(roll("1.5*2")) == r"`1.5 * 2` → 1.5 \* 2 = **3**"
