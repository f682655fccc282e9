"""Encumbrance in the 2d10 tracker (ruling movement-encumbrance): a linked character's
movement follows its load, the tracker shows it, /init act movement spends it."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.rounds_support import (
    gm,
    make_sheet,
    make_twod10,
    player,
    text,
    tracker_line,
)
from tests.support.slash import SlashHarness


async def mira_line(bot: TableBot, slash: SlashHarness) -> str:
    return await tracker_line(bot, slash, "Mira")


async def test_a_heavy_load_slows_her_in_the_tracker_and_on_her_turn(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    # Mira: finesse 2, toughness 1 (ignores EP 1 and 3), a one-handed axe worn (weight 1).
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", **gm(slash))
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20"
    # 15 more worn: 16 is 4 EP, less the 1st and 3rd: 2 EP, 30 - 10 = 20 feet.
    said = await slash.run("inventory add", item="Anvil", weight="5", count=3, worn=True,
                           character="Mira", **player(slash))  # fmt: skip
    assert said.content and said.content.endswith("now 2 EP, movement 20 ft.")
    # The tracker follows the load by itself (after the reply).
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🎒 moves 20 ft"
    bot.dice = ScriptedDice([1])  # the GM's d6: the players go first
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))
    refused = await slash.run("init act", action="movement", feet=25, **player(slash))
    assert refused.ephemeral and refused.content == "Mira has 20 feet of movement left this turn."
    moved = await slash.run("init act", action="movement", feet=15, **player(slash))
    assert "Mira moves 15 ft (5 ft left)." in text(moved)
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🏃 15/20 ft"
    # Putting the anvils away gives the feet back at once.
    await slash.run("inventory remove", item="Anvil", character="Mira", **player(slash))
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🏃 15/30 ft"
    await dpytest.empty_queue()
