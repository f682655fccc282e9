"""One user-text escaper for every renderer, pinned to the four it replaced.

Before the layout was unified, the HOCS sheet, the tracker, the recovery prompts and the
roll embeds each had their own escaper (two escaped mentions first, two markdown first;
one dropped direction controls; the roll embeds also put text on one line). They are
written out here as they were, and ``safe``/``safe_line`` must give their bytes for any
text a user can store today (direction controls are refused on input, so only the sheet's
escaper ever saw one).
"""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.interactions.user_text import DIRECTION_CONTROLS, without_direction_controls
from bot.render.text import safe, safe_line


def sheet_before(text: str) -> str:  # bot/render/character.py
    text = without_direction_controls(text)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def tracker_before(text: str) -> str:  # bot/render/initiative.py and bot/render/recovery.py
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def roll_before(text: str) -> str:  # bot/render/skill_roll_dice.py
    one_line = " ".join(text.split())
    return discord.utils.escape_mentions(discord.utils.escape_markdown(one_line))


# What Discord formats or pings on, mixed with ordinary text.
PIECES = st.sampled_from(
    [
        "@everyone",
        "@here",
        "<@123456789012345678>",
        "<@&123456789012345678>",
        "@123456789012345678",
        "**",
        "__",
        "~~",
        "||",
        "`",
        "```",
        "> ",
        ">>> ",
        "# ",
        "## ",
        "- ",
        "* ",
        "[a](http://x.y)",
        "\\",
        "\n",
        "  ",
        "\t",
        "http://x.y/_a_",
        "Aria",
        "O'Neil",
        "é",
        "名前",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=8).map("".join)
TYPABLE = TEXT.filter(lambda t: not any(c in DIRECTION_CONTROLS for c in t))


@given(TYPABLE)
def test_safe_writes_what_every_renderer_wrote(text: str) -> None:
    assert safe(text) == sheet_before(text) == tracker_before(text)


@given(TYPABLE)
def test_safe_line_writes_what_the_roll_embeds_wrote(text: str) -> None:
    assert safe_line(text) == roll_before(text)


@given(TEXT)
def test_stored_direction_controls_are_dropped_everywhere(text: str) -> None:
    assert safe(text) == sheet_before(text)
    assert not any(c in DIRECTION_CONTROLS for c in safe(text))


def test_the_examples_read_as_typed_and_ping_nobody() -> None:
    assert safe("**Aria** @everyone") == "\\*\\*Aria\\*\\* @\u200beveryone"
    assert safe_line("Sneak\n  *past*") == "Sneak \\*past\\*"
