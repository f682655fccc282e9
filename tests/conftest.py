"""Shared fixtures: a real SQLite file, a bot wired to dpytest's fake Discord."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.command_sync import SyncMode
from bot.config import Settings
from bot.rules.dice_source import RandomDice
from bot.storage.database import Database
from bot.storage.migrations import migrate
from tests.support.dpytest_fixes import (
    patch_dpytest,
    record_sent_payloads,
    report_only_unexpected_errors,
)
from tests.support.pg_fixtures import BACKENDS, pg_database, pg_test_url
from tests.support.pg_fixtures import pg_server as pg_server  # (a session fixture)
from tests.support.view_store import stored_views as stored_views  # (a fixture)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Tests marked both_backends run once per backend (the storage, race, kill and fuzz
    # suites); every other test runs on SQLite, the default.
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "both_backends"
    ):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend under test: "sqlite" unless the test runs on both."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def db(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    if backend == "postgresql":
        async with pg_database(request) as database:
            yield database
        return
    database = await Database.open(tmp_path / "test.sqlite3")
    await migrate(database.connection)
    yield database
    await database.close()


@pytest.fixture
def settings(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Settings:
    return Settings(
        _env_file=None,
        discord_token=None,
        database_path=tmp_path / "test.sqlite3",
        database_url=pg_test_url(request) if backend == "postgresql" else None,
        command_prefix="!",
        message_content_intent=True,
    )


def intents_for_tests() -> discord.Intents:
    # Production runs without the privileged members intent. dpytest, though, can build
    # its fake guild's members only into the member cache, which needs that intent: it
    # is on for that reason alone. The slash harness empties the cache while the bot
    # handles each interaction (tests/support/slash.py, _hide_members), so commands and
    # buttons run as in production; Message Content is an operator option the bot uses.
    intents = discord.Intents.default()
    intents.members = True
    intents.message_content = True
    return intents


@pytest.fixture
async def bot(settings: Settings, db: Database) -> AsyncIterator[TableBot]:
    patch_dpytest()
    client = TableBot(
        settings,
        db,
        dice=RandomDice(random.Random(1234)),
        sync_mode=SyncMode.SKIP,
        intents=intents_for_tests(),
    )
    await client._async_setup_hook()
    await client.load_cogs()
    dpytest.configure(client, guilds=1, text_channels=1, members=3)
    report_only_unexpected_errors(client)
    client.sent_payloads = record_sent_payloads(client)  # type: ignore[attr-defined]
    yield client
    await dpytest.empty_queue()
    # dpytest never opened a real gateway, so Client.close() would fail on it.


from tests.support.slash import SlashHarness  # noqa: E402  (appended fixture)


@pytest.fixture
def slash(bot: TableBot) -> SlashHarness:
    """The slash-command harness on the dpytest bot (see tests/support/slash.py)."""
    # A command's statements are round trips to a server on PostgreSQL: hundreds of
    # simultaneous ones queue longer on a loaded machine than the harness's default.
    return SlashHarness(bot, timeout=60.0 if bot.db.backend == "postgresql" else 10.0)
