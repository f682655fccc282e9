"""The 2d10 restart tests' one set-up: a bot on a database file, then a second process on
the same file in a Discord world with the same ids (dpytest's id factory replays them),
as after a real restart. Only what the database holds (and custom_ids) crosses over."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import discord.ext.test as dpytest
import pytest
from discord.ext.test import factories

from bot.client import TableBot
from bot.config import Settings
from tests.support.restart import configure, start_bot
from tests.support.slash import SlashHarness


@dataclass
class Restart:
    """``bot`` and ``slash`` are the first process's until ``restart()``, then the second's."""

    settings: Settings
    path: Path
    bot: TableBot
    slash: SlashHarness
    world: list[int]  # the Discord ids the first process's world was made with
    make_id: Callable[[], int]  # dpytest's own id factory
    running: bool = True
    restarted: bool = False

    async def restart(self) -> tuple[TableBot, SlashHarness]:
        """End the first process (its database closed) and start the second on the file."""
        assert not self.restarted, "one restart a test"
        self.restarted = True
        await dpytest.empty_queue()
        await self.bot.db.close()  # the process ends
        self.running = False
        replay: Iterator[int] = iter(self.world)
        self.bot = await start_bot(self.settings, self.path)
        self.running = True
        configure(self.bot, lambda: next(replay, None) or self.make_id())
        self.slash = SlashHarness(self.bot)
        return self.bot, self.slash


@pytest.fixture
async def restart(settings: Settings, tmp_path: Path) -> AsyncIterator[Restart]:
    """A first bot on ``restart.sqlite3``, its Discord ids recorded for the second."""
    original = factories.make_id
    world: list[int] = []

    def recording() -> int:
        world.append(original())
        return world[-1]

    path = tmp_path / "restart.sqlite3"
    first = await start_bot(settings, path)
    configure(first, recording)
    state = Restart(settings, path, first, SlashHarness(first), world, original)
    try:
        yield state
    finally:
        await dpytest.empty_queue()
        if state.running:
            await state.bot.db.close()
        factories.make_id = original
