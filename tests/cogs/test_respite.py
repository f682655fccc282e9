"""/respite: 1 recovery point for [1d STR] hit points or 1 determination point."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import fresh, set_points
from tests.support.slash import SlashHarness


async def test_strength_3_rolls_1d8(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=2, nonlethal=3)
    bot.dice = ScriptedDice([6])
    result = await slash.run("respite", regain="hp")
    [embed] = result.embeds
    assert embed["title"] == "Mira takes a respite"
    assert "Spent 1 recovery point (2 left)." in embed["description"]
    assert "[1d STR] 1d8: **6** = **6** → +6 HP." in embed["description"]
    assert "3 HP lost to non-lethal damage came back." in embed["description"]
    assert bot.dice.requests == [8]
    state = (await fresh(bot, mira)).state
    assert (state.hp, state.nonlethal, state.recovery) == (11, 0, 2)
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_strength_4_rolls_2d8_and_keeps_one(bot: TableBot, slash: SlashHarness) -> None:
    bram = await make_character(bot, slash.members[0], "Bram", strength=4)  # 14 HP
    await set_points(bot, bram, hp=1)
    bot.dice = ScriptedDice([8, 8])  # keep one 8, +1 for the other 8
    result = await slash.run("respite", regain="hp")
    assert (
        "[1d STR] 2d8: **8** · 8 +1 (other dice at their maximum) = **9**"
        in (result.embeds[0]["description"])
    )
    assert (await fresh(bot, bram)).state.hp == 10
    bot.dice = ScriptedDice([3, 7])
    await slash.run("respite", regain="hp")
    assert (await fresh(bot, bram)).state.hp == 14  # 10 + 7, capped at 14
    await dpytest.empty_queue()


async def test_determination_point_and_refusals(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    full = await slash.run("respite", regain="dp")
    assert full.ephemeral and full.content == (
        "Mira is already at full determination: no recovery point spent."
    )
    await set_points(bot, mira, determination=1)
    result = await slash.run("respite", regain="dp")
    assert "+1 determination point." in result.embeds[0]["description"]
    state = (await fresh(bot, mira)).state
    assert (state.determination, state.recovery) == (2, 2)
    await set_points(bot, mira, recovery=0, hp=4)
    bot.dice = ScriptedDice([8])
    none_left = await slash.run("respite", regain="hp")
    assert none_left.ephemeral and none_left.content.startswith(
        "Mira has no recovery points left, so nothing changed"
    )
    assert (await fresh(bot, mira)).state.hp == 4 and bot.dice.remaining == 1
    await dpytest.empty_queue()
