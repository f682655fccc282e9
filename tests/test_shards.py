"""SHARD_COUNT / SHARD_IDS: validated settings, which process owns which guild, and
command sync sent once by shard processes sharing one database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.client import ShardedTableBot, TableBot
from bot.config import Settings
from bot.interactions.command_sync import SYNC_LEASE_SECONDS, SyncMode, sync_if_changed
from bot.process.sharding import ShardPlan, shard_of
from bot.storage import migrations
from bot.storage.database import Database
from bot.storage.meta import MetaRepository
from bot.storage.migrations import discover, migrate


def shard_settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(_env_file=None, database_path=tmp_path / "shared.sqlite3", **values)


def guild_on(shard: int, count: int, low_bits: int = 12345) -> int:
    """A guild id Discord routes to ``shard`` of ``count`` (the shard is its timestamp
    bits, id >> 22, modulo the count)."""
    return ((1_000_000 * count + shard) << 22) | low_bits


# --- settings -------------------------------------------------------------------------


def test_unset_means_automatic_sharding(tmp_path: Path) -> None:
    settings = shard_settings(tmp_path)
    assert settings.shard_count is None and settings.shard_ids is None
    plan = ShardPlan.from_settings(settings)
    assert plan.runs_every_shard and plan.syncs_globals and plan.owns(guild_on(3, 7))


def test_ids_are_read_from_the_environment_as_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3, 1")
    settings = Settings(_env_file=None)
    assert settings.shard_count == 4
    assert settings.shard_ids == (1, 3)
    monkeypatch.setenv("SHARD_IDS", "")
    assert Settings(_env_file=None).shard_ids is None  # a blank line in .env: all shards


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"shard_ids": "0"}, "SHARD_IDS needs SHARD_COUNT, the total number of shards"),
        ({"shard_count": 2, "shard_ids": "2"}, "shard 2 is outside 0 to 1 (SHARD_COUNT=2)"),
        ({"shard_count": 2, "shard_ids": "0,-1"}, "SHARD_IDS must be shard numbers"),
        ({"shard_count": 3, "shard_ids": "1,1"}, "SHARD_IDS names a shard twice"),
        ({"shard_count": 3, "shard_ids": "one"}, "SHARD_IDS must be shard numbers"),
        ({"shard_count": 0}, "greater than or equal to 1"),
        ({"shard_count": 5000}, "less than or equal to 4096"),
    ],
)
def test_bad_shard_settings_are_refused(
    tmp_path: Path, values: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        shard_settings(tmp_path, **values)
    assert message in caught.value.errors()[0]["msg"]


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"SHARD_IDS": "1"},
            "error: Setting SHARD_IDS is invalid: SHARD_IDS needs SHARD_COUNT, the total"
            " number of shards (check .env).",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0,2"},
            "error: Setting SHARD_IDS is invalid: shard 2 is outside 0 to 1 (SHARD_COUNT=2)"
            " (check .env).",
        ),
    ],
)
def test_python_m_bot_refuses_bad_shards_in_one_line(
    tmp_path: Path, env: dict[str, str], line: str
) -> None:
    from tests.test_startup import DUMMY_TOKEN, run_bot

    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, **env)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [line]


def test_python_m_bot_says_which_shards_it_runs(tmp_path: Path) -> None:
    from tests.test_startup import DUMMY_TOKEN, run_bot

    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, SHARD_COUNT="4", SHARD_IDS="3,1")
    assert "logging in to Discord (shards 1, 3 of 4)" in result.stdout + result.stderr
    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN)
    output = result.stdout + result.stderr
    assert "(automatic sharding: one process, shard count from Discord)" in output


# --- ownership --------------------------------------------------------------------------


def test_a_guild_belongs_to_the_shard_of_its_timestamp_bits() -> None:
    # Discord's documentation's example snowflake: its timestamp bits (id >> 22) are
    # 41944705796, so it goes to 41944705796 % N.
    snowflake = 175928847299117063
    assert snowflake >> 22 == 41944705796
    assert [shard_of(snowflake, count) for count in (1, 3, 4, 5)] == [0, 2, 0, 1]
    plan = ShardPlan(count=3, ids=(1, 2))
    assert plan.owns(snowflake)
    assert not ShardPlan(count=3, ids=(0, 1)).owns(snowflake)
    assert plan.describe() == "shards 1, 2 of 3"
    assert not plan.syncs_globals and ShardPlan(count=3, ids=(0, 2)).syncs_globals


@hypothesis_settings(deadline=None)  # a shared, loaded machine: no timing in tests
@given(
    guild_id=st.integers(min_value=1, max_value=2**63 - 1),
    count=st.integers(min_value=1, max_value=64),
    split=st.integers(min_value=1, max_value=64),
)
def test_processes_splitting_the_shards_own_each_guild_exactly_once(
    guild_id: int, count: int, split: int
) -> None:
    processes = [
        ShardPlan(count=count, ids=tuple(range(start, count, split)))
        for start in range(min(split, count))
    ]
    assert sum(plan.owns(guild_id) for plan in processes) == 1
    assert sum(plan.syncs_globals for plan in processes) == 1


async def test_the_production_bot_opens_the_configured_shards(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "x.sqlite3")
    try:
        bot = ShardedTableBot(shard_settings(tmp_path, shard_count=4, shard_ids="3,1"), db)
        assert isinstance(bot, discord.AutoShardedClient)
        assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
        automatic = ShardedTableBot(shard_settings(tmp_path), db)
        assert (automatic.shard_count, automatic.shard_ids) == (None, None)  # from Discord
    finally:
        await db.close()


# --- sync once across processes sharing a database -----------------------------------


async def open_db(path: Path) -> Database:
    db = await Database.open(path)
    await migrate(db.connection)
    return db


async def process(settings: Settings, path: Path, db: Any = None) -> Any:
    """A bot as one shard process sees it: its own connection to the shared file (or
    the given database)."""
    db = db if db is not None else await open_db(path)
    bot = TableBot(settings, db, intents=discord.Intents.default())
    await bot.load_cogs()
    bot._connection.application_id = 99  # as after login
    bot.synced = []
    bot.start_background = lambda: None  # no maintenance task nor gc.freeze in a test

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        for _ in range(5):  # a REST call: the other process runs meanwhile
            await asyncio.sleep(0)
        bot.synced.append(guild.id if guild else None)
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    return bot


async def test_each_process_syncs_only_its_own_guilds_and_shard_zero_the_globals(
    tmp_path: Path,
) -> None:
    path = tmp_path / "shared.sqlite3"
    zero = await process(shard_settings(tmp_path, shard_count=2, shard_ids="0"), path)
    one = await process(shard_settings(tmp_path, shard_count=2, shard_ids="1"), path)
    try:
        a, b = guild_on(0, 2), guild_on(1, 2)
        await asyncio.gather(zero.setup_hook(), one.setup_hook())
        for guild_id in (a, b):
            await asyncio.gather(zero.sync_guild(guild_id), one.sync_guild(guild_id))
        assert zero.synced == [None, a]
        assert one.synced == [b]
        # A re-shard to one process finds every hash stored: nothing is sent again.
        merged = await process(shard_settings(tmp_path, shard_count=1), path)
        try:
            await merged.setup_hook()
            assert not await merged.sync_guild(a) and not await merged.sync_guild(b)
            assert merged.synced == []
        finally:
            await merged.db.close()
    finally:
        await zero.db.close()
        await one.db.close()


async def test_startup_syncs_only_the_guilds_of_this_processs_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # discord.py's gateway brings a shard process only its guilds; should the cache hold
    # another's (a re-shard while running), the start-up sync still leaves it alone.
    path = tmp_path / "shared.sqlite3"
    one = await process(shard_settings(tmp_path, shard_count=2, shard_ids="1"), path)
    try:
        a, b, c = guild_on(0, 2), guild_on(1, 2), guild_on(1, 2, low_bits=7)
        seen = [discord.Object(a), discord.Object(b), discord.Object(c)]
        monkeypatch.setattr(TableBot, "guilds", property(lambda self: seen))
        await one.on_ready()
        assert one.synced == [b, c]
    finally:
        await one.db.close()


async def test_two_processes_racing_to_sync_send_it_once(tmp_path: Path) -> None:
    # Both think they should (say, two processes that both hold shard 0 during a
    # re-shard): the lease lets one through; the other finds it held, then the hash.
    path = tmp_path / "shared.sqlite3"
    first = await process(shard_settings(tmp_path), path)
    second = await process(shard_settings(tmp_path), path)
    try:
        guild = guild_on(0, 1)
        results = await asyncio.gather(first.sync_guild(guild), second.sync_guild(guild))
        assert sorted(results) == [False, True]
        assert first.synced + second.synced == [guild]
        globals_ = await asyncio.gather(
            sync_if_changed(first.tree, first.db, dev_guild_id=None, mode=SyncMode.AUTO),
            sync_if_changed(second.tree, second.db, dev_guild_id=None, mode=SyncMode.AUTO),
        )
        assert sorted(globals_) == [False, True]
        assert not await second.sync_guild(guild)  # later: the stored hash matches
        async with first.db.read() as conn:
            meta = MetaRepository(conn)
            assert await meta.get("lease:command_sync:global") is None  # given back
            assert await meta.get(f"lease:command_sync:{guild}") is None
    finally:
        await first.db.close()
        await second.db.close()


async def test_two_processes_on_postgresql_sync_once(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from bot.storage.pg_database import PgDatabase
    from tests.support.pg_fixtures import pg_database

    async with pg_database(request) as shared:
        other = await PgDatabase.open(shared.url)
        first = await process(shard_settings(tmp_path), tmp_path / "unused", shared)
        second = await process(shard_settings(tmp_path), tmp_path / "unused", other)
        try:
            guild = guild_on(0, 1)
            results = await asyncio.gather(first.sync_guild(guild), second.sync_guild(guild))
            assert sorted(results) == [False, True]
            assert first.synced + second.synced == [guild]
            assert not await first.sync_guild(guild) and not await second.sync_guild(guild)
        finally:
            await other.close()


async def test_a_failed_sync_gives_the_lease_back(tmp_path: Path) -> None:
    bot = await process(shard_settings(tmp_path), tmp_path / "shared.sqlite3")
    try:

        async def refused(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
            raise discord.HTTPException(_Response(), "missing access")  # type: ignore[arg-type]

        working = bot.tree.sync
        bot.tree.sync = refused  # type: ignore[method-assign]
        with pytest.raises(discord.HTTPException):
            await sync_if_changed(bot.tree, bot.db, dev_guild_id=None, mode=SyncMode.AUTO)
        bot.tree.sync = working  # type: ignore[method-assign]
        assert await sync_if_changed(bot.tree, bot.db, dev_guild_id=None, mode=SyncMode.AUTO)
        assert bot.synced == [None]
    finally:
        await bot.db.close()


@pytest.mark.both_backends
async def test_a_lease_blocks_other_holders_until_it_expires(db: Any) -> None:
    async with db.transaction() as conn:
        meta = MetaRepository(conn)
        assert await meta.claim("lease:x", "a", now=1000.0, seconds=SYNC_LEASE_SECONDS)
        assert not await meta.claim("lease:x", "b", now=1000.0, seconds=SYNC_LEASE_SECONDS)
        assert not await meta.claim("lease:x", "b", now=1119.9, seconds=SYNC_LEASE_SECONDS)
        await meta.release("lease:x", "b")  # not b's: stays
        assert not await meta.claim("lease:x", "b", now=1001.0, seconds=SYNC_LEASE_SECONDS)
        # a killed holder's lease runs out
        assert await meta.claim("lease:x", "b", now=1120.1, seconds=SYNC_LEASE_SECONDS)
        await meta.release("lease:x", "b")
        assert await meta.get("lease:x") is None
        assert await meta.claim("lease:x", "c", now=1121.0, seconds=SYNC_LEASE_SECONDS)


class _Response:
    status = 400
    reason = "Bad Request"


# --- shard processes starting together on a new database -------------------------------


async def test_processes_migrating_a_new_file_together_all_start(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    dbs = [await Database.open(path) for _ in range(3)]
    try:
        versions = await asyncio.gather(*(migrate(db.connection) for db in dbs))
        assert versions == [len(discover())] * 3
    finally:
        for db in dbs:
            await db.close()


async def test_a_migration_another_process_applied_meanwhile_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # This process read version 0; by the time it holds the lock, another process has
    # applied everything: each file then fails ("table exists") and is found applied.
    path = tmp_path / "raced.sqlite3"
    done = await open_db(path)
    await done.close()
    real = migrations.current_version
    reads: list[int] = []

    async def stale_first(conn: Any) -> int:
        reads.append(0)
        return 0 if len(reads) == 1 else await real(conn)

    monkeypatch.setattr(migrations, "current_version", stale_first)
    late = await Database.open(path)
    try:
        assert await migrate(late.connection) == len(discover())
        assert len(reads) == 1 + len(discover())  # each file re-checked once
    finally:
        await late.close()
