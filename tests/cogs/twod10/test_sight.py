"""Ruling sight-tasks: "low light ... disadvantage to ... perception rolls"; "complete
darkness has disadvantage on any action requiring sight"."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import player, script, table, text
from tests.support.slash import SlashHarness


@pytest.mark.parametrize(
    ("options", "dice"),
    [
        (
            {"skill": "perception", "attribute": "mind", "light": "low light"},
            3,
        ),  # 3d10, the highest dropped
        ({"skill": "perception", "attribute": "mind"}, 2),
        (
            {"skill": "stealth", "attribute": "finesse", "light": "low light"},
            2,
        ),  # low light troubles only perception
        ({"skill": "stealth", "attribute": "finesse", "light": "darkness"}, 3),
        ({"attribute": "mind", "light": "darkness"}, 3),
        (
            {"skill": "perception", "attribute": "mind", "light": "darkness", "advantage": 1},
            2,
        ),  # they cancel
    ],
)
async def test_the_light_gives_the_disadvantage_the_text_says(
    bot: TableBot, slash: SlashHarness, options: dict[str, object], dice: int
) -> None:
    await table(bot, slash)
    scripted = script(bot, 4, 7, 9)
    said = text(await slash.run("task", difficulty="normal", **options, **player(slash)))
    assert len(scripted.requests) == dice, said
    await dpytest.empty_queue()


async def test_the_odds_count_the_light_as_the_roll_does(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    lit = await slash.run(
        "odds task", skill="perception", attribute="mind", light="low light", **player(slash)
    )
    plain = await slash.run(
        "odds task", skill="perception", attribute="mind", disadvantage=1, **player(slash)
    )
    assert lit.embeds[0]["fields"] == plain.embeds[0]["fields"]
    bright = await slash.run("odds task", skill="perception", attribute="mind", **player(slash))
    assert bright.embeds[0]["fields"] != lit.embeds[0]["fields"]
    await dpytest.empty_queue()
