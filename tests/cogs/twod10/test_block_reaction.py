"""Ruling block-reaction: "A block uses a reaction and does not need to be declared." In
a tracked fight the block is the blocker's one reaction for the round."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.cogs.twod10.rounds_support import stored
from tests.support.slash import SlashHarness


async def fight(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Knight", **gm(slash))


async def block(slash: SlashHarness):  # type: ignore[no-untyped-def]
    return await slash.run(
        "attack", target="Knight", weapon="One-handed blunt", block=True, **player(slash)
    )


async def knight_state(bot: TableBot, slash: SlashHarness):  # type: ignore[no-untyped-def]
    record = await stored(bot, slash.channel.id)
    knight = next(c for c in record.encounter.combatants if c.name == "Knight")
    return record.encounter.state(knight.id)


async def test_a_block_uses_the_round_s_reaction(bot: TableBot, slash: SlashHarness) -> None:
    await fight(bot, slash)
    script(bot, 5, 5, 12)
    assert "Shield block halves it: 7" in text(await block(slash))
    assert (await knight_state(bot, slash)).reaction_used
    scripted = script(bot, 5, 5, 12)
    refused(await block(slash), "Knight has already used their reaction this round.")
    assert scripted.requests == []  # refused before any die, nothing spent
    assert (await sheet(bot, "Knight")).hp == 25 - 3
    late = await slash.run("init react", kind="undeclared", name="Knight", **gm(slash))
    refused(late, "Knight has already used their reaction this round.")
    script(bot, 5, 5, 12)  # without a block the attack goes on as ever
    unblocked = text(
        await slash.run("attack", target="Knight", weapon="One-handed blunt", **player(slash))
    )
    assert "Shield block" not in unblocked
    await dpytest.empty_queue()


async def test_a_declared_reaction_leaves_no_block(bot: TableBot, slash: SlashHarness) -> None:
    await fight(bot, slash)
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    await slash.run(
        "init react", kind="declare", name="Knight", trigger="Aria attacks", **gm(slash)
    )
    scripted = script(bot, 5, 5, 12)
    refused(await block(slash), "Knight declared a reaction this round, so it can't block too.")
    assert scripted.requests == []
    await dpytest.empty_queue()


async def test_outside_a_tracked_fight_blocks_count_only_the_shield(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    for _ in range(2):
        script(bot, 5, 5, 12)
        assert "Shield block halves it" in text(await block(slash))
    await dpytest.empty_queue()
