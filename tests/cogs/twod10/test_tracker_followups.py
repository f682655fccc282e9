"""The dying button and /morale answer first; the tracker's edit follows after the
reply (bot.delivery.followups), as every other tracker command's does."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.test_tracker_dying import dying_mira, players_turn
from tests.cogs.twod10.test_tracker_morale import goblins, tracker_fields
from tests.support.slash import SlashHarness


async def test_the_dying_roll_answers_before_the_tracker_shows_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await dying_mira(bot, slash, -1)
    _, prompt = await players_turn(bot, slash)
    bot.dice = ScriptedDice([3, 4])  # 7 + 2 - 1 = 8: unconscious, HP -2
    slash.drain_followups = False
    with bot.followups.busy():  # held until the harness is done, as under load
        rolled = await slash.click(prompt, label="Roll the dying roll", user=slash.members[0])
    assert rolled.content == "**Mira**'s dying roll (round 1) is made."
    assert bot.followups.pending >= 1  # the tracker's edit waits for the reply
    assert "HP -2/25" not in await tracker_fields(bot, slash)
    await bot.followups.drain()
    slash.drain_followups = True
    assert "HP -2/25 · 💀 down (dying, unconscious)" in await tracker_fields(bot, slash)
    await dpytest.empty_queue()


async def test_morale_answers_before_the_tracker_shows_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await goblins(bot, slash)
    gm = {"user": slash.members[0], "manage_guild": True}
    slash.drain_followups = False
    with bot.followups.busy():
        done = await slash.run("morale set", score=-5, **gm)
    assert done.embeds or done.content
    assert bot.followups.pending >= 1
    assert "NPC morale score -5" not in await tracker_fields(bot, slash)
    await bot.followups.drain()
    slash.drain_followups = True
    assert "NPC morale score -5" in await tracker_fields(bot, slash)
    await dpytest.empty_queue()
