"""The 2d10 tracker's own dice are in the roll log, each with its faces, written in the
change that rolled them: the GM's side-initiative d6, an interrupt's two d8, a morale
roll (called by the GM or by NPCs falling)."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.twod10.rounds_support import gm, player
from tests.cogs.twod10.test_rounds_initiative import next_, setup_fight
from tests.support.slash import SlashHarness


async def logged(bot: TableBot, slash: SlashHarness, kind: str) -> list[LoggedRoll]:
    async with bot.db.read() as conn:
        rolls = await RollLogRepository(conn).recent(slash.guild.id, limit=100)
    return [r for r in reversed(rolls) if r.kind == kind]


async def test_the_side_initiative_d6_and_an_interrupt_are_logged(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await next_(slash)  # round 1's declarations: nothing rolled
    assert await logged(bot, slash, "2d10-initiative") == []
    await slash.run("init react", kind="declare", trigger="a goblin attacks", **player(slash))
    bot.dice = ScriptedDice([5])
    await next_(slash)
    (initiative,) = await logged(bot, slash, "2d10-initiative")
    assert initiative.result["faces"] == [5] and initiative.total == 5
    assert initiative.result["winner"] == "npcs" and initiative.result["round"] == 1
    assert initiative.expression == "side initiative, round 1: d6 5"
    assert initiative.channel_id == slash.channel.id
    assert initiative.user_id == slash.members[2].id  # the GM who moved the round on
    bot.dice = ScriptedDice([3, 6])
    await slash.run("init react", kind="interrupt", opponent="Goblin 1", **player(slash))
    (interrupt,) = await logged(bot, slash, "2d10-interrupt")
    assert interrupt.expression == "interrupt: 1d8 3 + 2 vs 1d8 6 + 0"
    assert interrupt.result["reactor_faces"] == [3] and interrupt.result["opponent_face"] == 6
    assert interrupt.result["reacts_first"] is False and interrupt.total == 5
    assert interrupt.user_id == slash.members[0].id
    await dpytest.empty_queue()


async def test_morale_rolls_are_logged_whoever_calls_them(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash, goblins=4)
    await slash.run("morale set", score=5, **gm(slash))
    bot.dice = ScriptedDice([5, 5])  # the first goblin falls: 10 + 5, they hold
    await slash.run("init down", name="Goblin 1", **gm(slash))
    bot.dice = ScriptedDice([1, 2])  # the GM calls one: 3 + 5 = 8, they flee
    await slash.run("morale roll", **gm(slash))
    fallen, called = await logged(bot, slash, "2d10-morale")
    assert fallen.result["faces"] == [5, 5] and fallen.total == 15
    assert fallen.result["triggers"] == ["the first ally fell"] and fallen.result["flees"] is False
    assert called.result["faces"] == [1, 2] and called.total == 8
    assert called.result["triggers"] == ["the GM called for it"] and called.result["flees"] is True
    await dpytest.empty_queue()
