"""A sheet saved by no command at all (a repository write in a transaction of its own)
still reaches the tracker seating it: the save records it and the database tells the
tracker once the transaction commits (bot.storage.changes), so a command can't forget
to. A transaction rolled back tells it nothing."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.twod10.characters import TwoD10CharacterRepository
from tests.cogs.twod10.rounds_support import set_hp_elsewhere
from tests.cogs.twod10.test_medicine_tracker import fight, mira_line
from tests.support.slash import SlashHarness


async def settle(bot: TableBot) -> None:
    """Let the notice's listener run (its own task), then the tracker edit it queued."""
    await dpytest.run_all_events()
    await bot.followups.drain()


async def test_a_bare_repository_save_redraws_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await fight(bot, slash)
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(mira.guild_id, mira.id, 10)
    await settle(bot)
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 10/20"
    await dpytest.empty_queue()


async def test_a_rolled_back_save_leaves_the_tracker_alone(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await fight(bot, slash)
    # The sheet now differs from the tracker, so any redraw at all would show 9.
    set_hp_elsewhere(bot, mira, 9)
    with pytest.raises(RuntimeError):
        async with bot.db.transaction() as conn:
            await TwoD10CharacterRepository(conn).set_hp(mira.guild_id, mira.id, 10)
            raise RuntimeError("the command failed after writing")
    await settle(bot)
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20"
    await dpytest.empty_queue()
