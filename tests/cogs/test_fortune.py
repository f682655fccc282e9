"""/fortune grant, spend, list, revoke: one per source, each spent exactly once."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_check import dice_field, make_character
from tests.cogs.test_roll_buttons import fresh, grant, last_roll
from tests.support.slash import SlashHarness


async def test_grant_at_most_one_per_source(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    gm = slash.members[2]
    given = await slash.run("fortune grant", user=gm, manage_guild=True, character="Mira",
                            source="Fortune (Cooking)")  # fmt: skip
    assert given.content == "Mira gains a fortune point (cooking)."
    twice = await slash.run("fortune grant", user=gm, manage_guild=True, character="Mira",
                            source="cooking")  # fmt: skip
    assert twice.ephemeral and twice.content == (
        "Mira already has a fortune point (cooking): a character holds at most one per source."
    )
    await slash.run("fortune grant", user=gm, manage_guild=True, character="Mira",
                    source="character")  # fmt: skip
    assert (await fresh(bot, mira)).fortune_sources == ("character", "cooking")
    player = await slash.run("fortune grant", user=slash.members[0], manage_guild=False,
                             character="Mira", source="minstrel")  # fmt: skip
    assert player.ephemeral and player.content.startswith("Only the GM can grant")
    listed = await slash.run("fortune list")
    assert listed.ephemeral
    assert listed.embeds[0]["description"] == "• fortune (character)\n• fortune (cooking)"
    revoked = await slash.run("fortune revoke", user=gm, manage_guild=True, character="Mira",
                              source="cooking")  # fmt: skip
    assert revoked.content == "Mira loses the fortune point (cooking)."
    assert (await fresh(bot, mira)).fortune_sources == ("character",)
    await dpytest.empty_queue()


async def test_spend_rerolls_the_most_useful_die_or_the_chosen_one(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await grant(bot, mira, "cooking", "minstrel")
    bot.dice = ScriptedDice([3, 1, 5])
    await slash.run("check", skill="strength", difficulty="2")
    bot.dice = ScriptedDice([4])
    result = await slash.run("fortune spend", source="cooking")
    assert dice_field(result.embeds[0]) == "3 · ~~1~~ **4** · **5**"
    assert "**2** successes vs Challenging (2): **Success**" in result.embeds[0]["description"]
    bot.dice = ScriptedDice([6])
    chosen = await slash.run("fortune spend", source="minstrel", die=1)
    assert dice_field(chosen.embeds[0]) == "~~3~~ **6** · ~~1~~ **4** · **5**"
    assert (await fresh(bot, mira)).fortune_sources == ()
    gone = await slash.run("fortune spend", source="cooking")
    assert gone.ephemeral and gone.content == (
        "Mira has no fortune point (cooking): see /fortune list."
    )
    await dpytest.empty_queue()


async def test_simultaneous_spends_use_the_point_once(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await grant(bot, mira, "character")
    bot.dice = ScriptedDice([1, 1, 1])
    await slash.run("check", skill="strength")
    bot.dice = ScriptedDice([6] * 30)
    first = len(slash.responses)
    await asyncio.gather(*(slash.run("fortune spend", source="character") for _ in range(20)))
    answers = [r for r in slash.responses[first:] if r.carries_message]
    assert len([r for r in answers if not r.ephemeral]) == 1
    assert len([r for r in answers if r.ephemeral]) == 19
    assert bot.dice.remaining == 29  # refused spends may not roll the dice they'd use
    roll = await last_roll(bot, mira)
    assert roll.result["revision"] == 1 and roll.total == 1
    assert (await fresh(bot, mira)).fortune_sources == ()
    await dpytest.empty_queue()


async def test_source_autocomplete_offers_the_characters_sources(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await grant(bot, mira, "cooking", "character")
    choices = await slash.autocomplete("fortune spend", "source", "c")
    assert [c["value"] for c in choices] == ["character", "cooking"]
    await dpytest.empty_queue()
