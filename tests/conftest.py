"""Shared fixtures: a real SQLite file, a bot wired to dpytest's fake Discord."""

from __future__ import annotations

import asyncio
import compileall
import concurrent.futures
import gc
import os
import random
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.rules.dice_source import RandomDice
from bot.storage.database import Database
from bot.storage.migrations import migrate
from tests.reliability.figures import WorkerFigures, write_summary
from tests.support import cog_loading
from tests.support.dpytest_fixes import (
    patch_dpytest,
    record_sent_payloads,
    report_only_unexpected_errors,
)
from tests.support.every_module import import_everything
from tests.support.pg_fixtures import BACKENDS, pg_database, pg_test_url
from tests.support.pg_fixtures import pg_server as pg_server  # (a session fixture)
from tests.support.view_store import stored_views as stored_views  # (a fixture)

cog_loading.install()  # every test loads every cog: see tests/support/cog_loading.py


ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    # The suite starts about sixty interpreters (bot processes, writers, shard
    # processes) and a worker per core, each importing the bot's 600 modules: compiled
    # once and kept in __pycache__ (ignored by git) even where PYTHONDONTWRITEBYTECODE
    # is set, that is 0.3 s less per interpreter and half of each worker's collection.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # (for the workers and children)
    if not hasattr(config, "workerinput"):  # the first process: before any worker starts
        for package in ("bot", "cogs", "bench"):
            compileall.compile_dir(ROOT / package, quiet=1)
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(WorkerFigures(), "reliability-figures")


def pytest_collection_finish(session: pytest.Session) -> None:
    import_everything()  # the same fuzz inputs in any test order (every_module.py)
    # Thousands of tests each build a bot and drop it: the modules, test functions and
    # Hypothesis strategies collected so far live as long as the process, so the
    # collector need not walk them again in every full collection (production does the
    # same after start-up: bot.process.idle_gc).
    gc.collect()
    gc.freeze()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    # One worker more than there are cores: while a worker waits on a bot process, the
    # emulator or a PostgreSQL round trip, another has the core (measured on 2 cores:
    # 3 workers 3 min 40 s, 2 workers 4 min 21 s, 4 workers 3 min 47 s).
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write_summary(terminalreporter)  # (on the controller when tests ran in workers)


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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file migrated once per test process (each xdist worker has its own)."""
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"

    async def build() -> None:
        database = await Database.open(path)
        try:
            await migrate(database.connection)
        finally:
            await database.close()  # (checkpoints the WAL: the one file holds it all)

    # On a thread with a loop of its own: a test's event loop may be running here.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, build()).result()
    return path


@pytest.fixture
async def db(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest, sqlite_template: Path
) -> AsyncIterator[Any]:
    if backend == "postgresql":
        async with pg_database(request) as database:
            yield database
        return
    # A copy of the migrated file is the database a restarted bot opens: the same
    # schema as migrating from empty (tests/storage/test_migrations.py) at a tenth the cost.
    shutil.copyfile(sqlite_template, tmp_path / "test.sqlite3")
    database = await Database.open(tmp_path / "test.sqlite3")
    yield database
    await database.close()


@pytest.fixture(scope="session")
def base_settings() -> Settings:
    """The tests' settings, read and validated once per test process."""
    return Settings(
        _env_file=None, discord_token=None, command_prefix="!", message_content_intent=True
    )


@pytest.fixture
def settings(
    base_settings: Settings, tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> Settings:
    # Only the database differs from test to test: a copy of the validated settings with
    # it changed costs microseconds, where reading the environment again costs 10 ms.
    return base_settings.model_copy(
        update={
            "database_path": tmp_path / "test.sqlite3",
            "database_url": pg_test_url(request) if backend == "postgresql" else None,
        }
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
