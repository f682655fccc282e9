"""/help shows the combat commands' rulings (and every page fits Discord's limits)."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.support.slash import SlashHarness


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("attack", "see /help damage"),
        ("damage", "physique or willpower (threshold:, default the one with more dice)"),
        ("hp", "GM only"),
        ("condition add", "Wounded follows the wound list"),
        ("character weapon add", "Source dice"),
        ("character defenses", "defaults to 30"),
        ("character wounds heal", "only the GM adds or heals them"),
    ],
)
async def test_help_shows_the_rulings(
    bot: TableBot, slash: SlashHarness, command: str, words: str
) -> None:
    result = await slash.run("help", command=command)
    assert result.ephemeral
    [embed] = result.embeds
    everything = embed.get("description", "") + "".join(
        f["name"] + f["value"] for f in embed.get("fields", [])
    )
    assert words in everything.replace("\n", " ")
    await dpytest.empty_queue()


def test_rulings_and_options_are_shown_whole_within_discords_limits(bot: TableBot) -> None:
    from bot.render.help import command_pages, walk_leaf_commands

    names = ("attack", "damage", "hp", "condition", "character weapon", "character defenses")
    names += ("character wounds",)
    for command in walk_leaf_commands(bot):
        if not command.qualified_name.startswith(names):
            continue
        pages = command_pages(command)
        for embed in pages:  # each page is one message: 6000 characters
            assert len(embed) <= 6000, command.qualified_name
            assert all(len(f.value or "") <= 1024 for f in embed.fields), command.qualified_name
        shown = "\n".join(f.value or "" for e in pages for f in e.fields)
        for ruling in command.extras.get("rulings", []):
            assert f"• {ruling}" in shown, (command.qualified_name, ruling)
