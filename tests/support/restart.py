"""A bot process on a database file, and dpytest's world with chosen ids: what a restart
test needs to start a second process on the same file in a Discord world with the same
ids as the first (dpytest's id factory replays them), as after a real restart."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import discord.ext.test as dpytest
from discord.ext.test import factories

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.rules.dice_source import RandomDice
from bot.storage.database import Database
from bot.storage.migrations import migrate
from tests.conftest import intents_for_tests
from tests.support.dpytest_fixes import patch_dpytest, report_only_unexpected_errors


async def start_bot(settings: Settings, path: Path) -> TableBot:
    """A bot process on the database file ``path`` (migrated), its cogs loaded."""
    db = await Database.open(path)
    await migrate(db.connection)
    bot = TableBot(
        settings, db, dice=RandomDice(random.Random(7)), sync_mode=SyncMode.SKIP,
        intents=intents_for_tests(),
    )  # fmt: skip
    await bot._async_setup_hook()
    await bot.load_cogs()
    return bot


def configure(bot: TableBot, make_id: Callable[[], int]) -> None:
    """dpytest's world for ``bot``, its ids from ``make_id``."""
    patch_dpytest()
    original = factories.make_id
    factories.make_id = make_id
    try:
        dpytest.configure(bot, guilds=1, text_channels=1, members=3)
    finally:
        factories.make_id = original
    report_only_unexpected_errors(bot)
