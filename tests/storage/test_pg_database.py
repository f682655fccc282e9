"""PgDatabase's own behaviour: dropped connections, cancelled commands, reads beside a
write, constraint errors worded like SQLite's."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import pytest

from bot.storage.campaigns import CampaignRepository
from bot.storage.pg import connect
from bot.storage.pg_database import PgDatabase, redact
from tests.support.pg_fixtures import pg_database

GUILD = 4242


@pytest.fixture
async def pg(request: pytest.FixtureRequest) -> AsyncIterator[PgDatabase]:
    async with pg_database(request) as database:
        yield database


async def ruleset(db: PgDatabase) -> str | None:
    async with db.single() as conn:
        rows = await conn.execute_fetchall(
            "SELECT ruleset FROM campaigns WHERE guild_id = ?", (GUILD,)
        )
    return rows[0][0] if rows else None


async def test_connections_the_server_dropped_cost_no_command(pg: PgDatabase) -> None:
    async with pg.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    async with pg.read() as conn:  # two kept connections now idle in the pool
        async with pg.single() as other:
            await other.execute_fetchall("SELECT 1")
    admin = await connect(pg.url)
    try:  # as a server restart or an idle timeout would
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    async with pg.transaction() as conn:
        await conn.execute("UPDATE campaigns SET ruleset = '2d10' WHERE guild_id = ?", (GUILD,))
    async with pg.read() as conn:
        rows = await conn.execute_fetchall("SELECT ruleset FROM campaigns")
    assert [r[0] for r in rows] == ["2d10"]


async def test_a_cancelled_command_writes_nothing_and_the_next_one_works(pg: PgDatabase) -> None:
    started = asyncio.Event()

    async def command() -> None:
        async with pg.transaction() as conn:
            await CampaignRepository(conn).get_or_create(GUILD)
            started.set()
            await asyncio.sleep(30)  # cancelled here, mid-transaction

    task = asyncio.ensure_future(command())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await ruleset(pg) is None
    async with pg.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    assert await ruleset(pg) == "hocs"


async def test_reads_do_not_wait_for_a_write_in_progress(pg: PgDatabase) -> None:
    async with pg.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    async with pg.transaction() as conn:
        await conn.execute("UPDATE campaigns SET ruleset = '2d10' WHERE guild_id = ?", (GUILD,))
        # Another command's read meanwhile sees the committed state, without waiting.
        assert await asyncio.wait_for(ruleset(pg), timeout=10) == "hocs"
    assert await ruleset(pg) == "2d10"


async def test_constraint_errors_read_like_sqlites(pg: PgDatabase) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY constraint failed"):
        async with pg.transaction() as conn:
            await conn.execute(
                "INSERT INTO roll_log (guild_id, user_id, kind, expression, result)"
                " VALUES (999, 1, 'roll', '1d6', '{}')"
            )
    async with pg.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('k', 'v')")
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed"):
        async with pg.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('k', 'w')")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        async with pg.transaction() as conn:
            await conn.execute("INSERT INTO campaigns (guild_id, settings) VALUES (1, 'nope')")


async def test_an_unreachable_server_is_a_readable_error_without_the_password() -> None:
    from bot.storage.errors import DatabaseUnavailable

    url = "postgresql://bot:hunter2@127.0.0.1:1/x?connect_timeout=2"
    with pytest.raises(DatabaseUnavailable) as caught:
        await PgDatabase.open(url)
    assert "hunter2" not in str(caught.value)
    assert redact(url) in str(caught.value)


async def test_a_deadlock_between_two_processes_is_a_retry_sentence(pg: PgDatabase) -> None:
    from bot.storage.pg import DatabaseBusy

    async with pg.transaction() as conn:
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('a', '0'), ('b', '0')")
    other = await PgDatabase.open(pg.url)
    locked = asyncio.Barrier(2)

    async def cross(db: PgDatabase, first: str, second: str) -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE bot_meta SET value = '1' WHERE key = ?", (first,))
            await locked.wait()  # each holds one row, then wants the other's
            await conn.execute("UPDATE bot_meta SET value = '1' WHERE key = ?", (second,))

    try:
        results = await asyncio.gather(
            cross(pg, "a", "b"), cross(other, "b", "a"), return_exceptions=True
        )
    finally:
        await other.close()
    refused = [r for r in results if isinstance(r, DatabaseBusy)]
    assert len(refused) == 1 and results.count(None) == 1, results
    assert "run the command again" in str(refused[0])
