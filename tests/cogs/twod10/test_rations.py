"""/rations in a 2d10 guild: one meal per campaign day, half and quarter rations' rolls
with the text's growing difficulty, exhaustion and its recovery, the GM's day."""

from __future__ import annotations

import asyncio
import json

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.rations import TwoD10RationRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    # Brann and Cora (player 1): toughness 1, defense (toughness) 0.
    assert not (await create(slash, "Brann")).ephemeral
    assert not (await create(slash, "Cora")).ephemeral


def script(bot: TableBot, *faces: int) -> None:
    bot.dice = ScriptedDice(faces)


async def quarters(bot: TableBot, name: str) -> int:
    sheet = await stored(bot, name)
    async with bot.db.read() as conn:
        row = await TwoD10RationRepository(conn).get(sheet.guild_id, sheet.id)
    return row.state.quarters if row else 0


async def day(slash: SlashHarness) -> str:
    return text(await slash.run("rations day", **gm(slash)))


async def test_a_week_of_short_rations_exhaustion_and_recovery(
    bot: TableBot, slash: SlashHarness
) -> None:
    added = await slash.run("rations add", rations=3, character="Brann", **player(slash))
    assert added.content == "Brann now carries 3 rations (weight 1 1/2)."
    shown = text(await slash.run("rations eat", portion="full", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "Day 1: Brann eats a full day's rations." in shown and "2 rations" in shown
    refused(await slash.run("rations eat", character="Brann", **player(slash)),
            "Brann has already eaten on day 1")  # fmt: skip
    assert await quarters(bot, "Brann") == 8
    assert "Didn't eat on day 1: Cora" in await day(slash)
    # Day 2, the first day of half rations: -5 - 1. 10 + 1 toughness - 6 = 5: exhaustion.
    script(bot, 5, 5)
    shown = text(await slash.run("rations eat", portion="half", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "**5** = 10 +1 toughness -6 half rations, day 1" in shown
    assert "Failure: **exhaustion**" in shown
    assert "exhausted until 1 more full day of rations" in shown
    await day(slash)
    # Day 3, the first quarter day (the portions count apart): -10 - 1. 20 + 1 - 11 = 10.
    script(bot, 10, 10)
    shown = text(await slash.run("rations eat", portion="quarter", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "**10** = 20 +1 toughness -11 quarter rations, day 1" in shown
    assert "Success: no exhaustion" in shown and "1 1/4 rations" in shown
    await day(slash)
    # Day 4, a second half day: -5 - 2.  11 + 1 - 7 = 5: a failure keeps the recovery.
    script(bot, 6, 5)
    shown = text(await slash.run("rations eat", portion="half", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "-7 half rations, day 2" in shown
    await day(slash)
    # Day 5: a full day would need 1 ration: only 3/4 left.
    refused(await slash.run("rations eat", portion="full", character="Brann", **player(slash)),
            "A full day needs 1 ration; you have 3/4.")  # fmt: skip
    await slash.run("rations add", rations=1, character="Brann", **gm(slash))
    shown = text(await slash.run("rations eat", character="Brann", **player(slash)))
    assert "Enough full days eaten: the exhaustion lifts." in shown
    assert "3/4 ration" in shown and "3/4 rations" not in shown
    shown = (await slash.run("rations show", character="Brann", **player(slash, 2))).content
    assert shown.startswith("Day 5: Brann carries 3/4 ration (weight 3/8).")
    assert "Has eaten today." in shown
    async with bot.db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT result FROM roll_log WHERE kind = '2d10-rations' ORDER BY id"
        )
    assert [json.loads(r[0])["exhaustion"] for r in rows] == [True, False, True]
    await dpytest.empty_queue()


async def test_quarter_failure_needs_two_full_days(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("rations add", rations=4, character="Brann", **player(slash))
    script(bot, 1, 2)
    shown = text(await slash.run("rations eat", portion="quarter", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "exhausted until 2 more full days of rations" in shown
    await day(slash)
    shown = text(await slash.run("rations eat", character="Brann", **player(slash)))
    assert "exhausted until 1 more full day of rations" in shown
    await day(slash)
    assert "the exhaustion lifts" in text(await slash.run("rations eat", character="Brann",
                                                          **player(slash)))  # fmt: skip


async def test_a_meal_is_eaten_once_under_concurrency(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("rations add", rations=5, character="Brann", **player(slash))
    first = len(slash.responses)
    await asyncio.gather(*(
        slash.run("rations eat", character="Brann", **(gm(slash) if n % 2 else player(slash)))
        for n in range(6)
    ))  # fmt: skip
    answers = [r for r in slash.responses[first:] if r.carries_message]
    assert sum(not r.ephemeral for r in answers) == 1
    assert await quarters(bot, "Brann") == 16


async def test_who_may_eat_add_and_move_the_day(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("rations eat", character="Brann", **player(slash)),
            "Brann has no rations: add some with /rations add.")  # fmt: skip
    refused(await slash.run("rations add", rations=2, character="Brann", **player(slash, 2)),
            "isn't yours")  # fmt: skip
    refused(await slash.run("rations day", **player(slash)), "Only the GM")
    await slash.run("rations add", rations=400, character="Brann", **player(slash))
    refused(await slash.run("rations add", rations=1, character="Brann", **player(slash)),
            "Carry at most 400 rations.")  # fmt: skip
    assert await quarters(bot, "Brann") == 1600


async def test_prefix_eat_and_private_lists_refused(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("rations add", rations=1, character="Brann", **player(slash))
    script(bot, 9, 9)  # 18 + 1 toughness - 6 = 13: no exhaustion
    await dpytest.message("!rations eat half Brann", member=slash.members[1])
    embed = dpytest.get_message().embeds[0]
    assert embed.title == "Brann: half rations"
    assert "**13** = 18 +1 toughness -6 half rations, day 1" in embed.description
    # Who is sick is private: a message command (a public reply) is refused.
    await dpytest.message("!disease list", member=slash.members[1])
    assert "Use the slash command" in dpytest.get_message().content
    await dpytest.empty_queue()


async def test_one_ration_reads_singular_and_none_plural(slash: SlashHarness) -> None:
    added = await slash.run("rations add", rations=1, character="Cora", **player(slash))
    assert added.content == "Cora now carries 1 ration (weight 1/2)."
    shown = text(await slash.run("rations eat", character="Cora", **player(slash)))
    assert "Left: 0 rations (weight 0)." in shown, shown
    await dpytest.empty_queue()
