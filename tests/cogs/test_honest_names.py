"""Names that can't impersonate and text that can't reverse a reply (issue 10, item 6).

Look-alike names are normalised (NFKC, invisible format characters removed, single
spaces) before the uniqueness check and storage; bidirectional controls are refused in
every text option (the tree's option check) and in every prefix message.
"""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest
from discord import AppCommandOptionType, app_commands

from bot.client import TableBot
from bot.interactions.option_check import option_problem
from bot.interactions.user_text import DIRECTION_CONTROLS, code, echo, normalise_text
from bot.render.text import safe
from bot.rules.generic.names import normalise_name
from bot.rulesets import Ruleset
from tests.cogs.test_character_helpers import assert_refused, create, stored
from tests.support.slash import SlashHarness

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "12" after it reads "21"
ALL_CONTROLS = sorted(DIRECTION_CONTROLS)


def test_the_controls_are_the_ones_the_brief_names() -> None:
    expected = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}
    assert DIRECTION_CONTROLS == expected | {"\u200e", "\u200f", "\u061c"}


@pytest.mark.parametrize(
    ("typed", "honest"),
    [
        ("Aria\u200b", "Aria"),  # zero-width space
        ("Cafe\u0301", "Café"),  # decomposed accent
        ("A\u200dria", "Aria"),  # zero-width joiner
        ("\ufeffAria", "Aria"),  # byte-order mark
        ("Ｍｉｒａ", "Mira"),  # fullwidth letters (NFKC)
        ("Old  \u3000 Tom", "Old Tom"),  # runs of spaces, ideographic space
        (f"Mi{RLO}ra", "Mira"),
    ],
)
def test_normalise_text(typed: str, honest: str) -> None:
    assert normalise_text(typed) == honest
    assert normalise_name(typed) == normalise_name(honest)


def test_echoes_drop_direction_controls_of_older_text() -> None:
    assert echo(f"total {RLO}12") == "total 12"
    assert code(f"{RLO}12") == "`12`"
    assert safe("Mi\u2066ra\u2069") == "Mira"


def _text_parameters(bot: TableBot) -> list[tuple[Any, str]]:
    found = []
    roots = [*bot.tree.get_commands(), *bot.command_sets.catalogues[Ruleset.HOCS].app.values()]
    walked = [c for root in roots for c in [root, *getattr(root, "walk_commands", list)()]]
    for command in walked:
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                if param.type is AppCommandOptionType.string:
                    found.append((command, param.display_name))
    return found


async def test_every_text_option_refuses_every_direction_control(bot: TableBot) -> None:
    parameters = _text_parameters(bot)
    names = {f"{c.qualified_name} {p}" for c, p in parameters}
    # The fields the issue names are among them.
    for field in (
        "character create name",
        "character edit new_name",
        "character trait add trait",
        "character customskill name",
        "pool label",
        "roll expression",
    ):
        assert field in names, sorted(names)
    for command, param in parameters:
        for control in ALL_CONTROLS:
            problem = option_problem(command, {param: f"ab{control}c"})
            assert problem is not None and "direction" in problem, (command.qualified_name, param)
            assert problem.endswith("retype it without it.")


async def test_zero_width_twin_of_a_name_is_taken(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Aria")
    result = await create(slash, "Aria\u200b", user=slash.members[1])
    assert_refused(result, "already a character called Aria")
    result = await create(slash, "ARIA", user=slash.members[1])
    assert_refused(result, "already a character called")
    await dpytest.empty_queue()


async def test_decomposed_accent_twin_is_taken(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Café")
    result = await create(slash, "Cafe\u0301", user=slash.members[1])
    assert_refused(result, "already a character called Café")
    await dpytest.empty_queue()


async def test_names_are_stored_normalised_and_found_by_look_alikes(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await create(slash, "Bo\u200bb  the\u00a0Bold")
    assert result.content == "Created **Bob the Bold**. It is now your active character."
    bob = await stored(bot, "bob the bold")
    assert bob is not None and bob.name == "Bob the Bold"
    shown = await slash.run("character show", user=slash.members[1], name="Bob\u200b the Bold")
    assert shown.embeds[0]["title"] == "Bob the Bold"
    await dpytest.empty_queue()


async def test_direction_controls_refused_on_create(bot: TableBot, slash: SlashHarness) -> None:
    result = await create(slash, f"Mi{RLO}ra")
    assert_refused(result, "direction")
    assert await stored(bot, "mira") is None
    await dpytest.empty_queue()


async def test_rename_normalised_and_checked(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Aria")
    await create(slash, "Mira", user=slash.members[1])
    owner = slash.members[1]
    taken = await slash.run("character edit", user=owner, name="Mira", new_name="Ari\u200ba")
    assert_refused(taken, "already a character called Aria")
    bidi = await slash.run("character edit", user=owner, name="Mira", new_name=f"{RLO}Lena")
    assert_refused(bidi, "direction")
    renamed = await slash.run("character edit", user=owner, name="Mira", new_name="Le\u200bna")
    assert not renamed.ephemeral
    assert (await stored(bot, "lena")).name == "Lena"  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_traits_and_weapons_normalised(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    user = slash.members[0]
    bad = await slash.run("character trait add", user=user, trait=f"brave{RLO}")
    assert_refused(bad, "direction")
    good = await slash.run("character trait add", user=user, trait="bra\u200bve")
    assert not good.ephemeral
    mira = await stored(bot, "mira")
    assert mira is not None and mira.details.traits == ("brave",)
    await dpytest.empty_queue()


async def test_labels_and_roll_comments_refused(bot: TableBot, slash: SlashHarness) -> None:
    user = slash.members[0]
    label = await slash.run("pool", user=user, dice=3, label=f"total {RLO}12")
    assert_refused(label, "direction")
    comment = await slash.run("roll", user=user, expression=f"1d20 total {RLO}12")
    assert_refused(comment, "direction")
    await dpytest.empty_queue()


async def test_prefix_messages_refused(bot: TableBot) -> None:
    await dpytest.message(f"!roll 1d20 total {RLO}12")
    reply = dpytest.get_message()
    assert "direction" in reply.content and RLO not in reply.content
    await dpytest.message("!character create Mi\u2067ra 3 2 2 1")
    assert "direction" in dpytest.get_message().content
    await dpytest.message("!character create Aria 3 2 2 1")
    dpytest.get_message()
    await dpytest.message("!character create Aria\u200b 3 2 2 1")
    assert "already a character called Aria" in dpytest.get_message().content
    await dpytest.empty_queue()
