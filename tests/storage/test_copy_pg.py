"""The copy tool between SQLite and PostgreSQL: a played campaign goes into a new
PostgreSQL database and comes back into a new SQLite file identical, row for row and
id counter for id counter; the bot then runs on the copy."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from psycopg.conninfo import conninfo_to_dict

from bot.client import TableBot
from bot.storage.copy import CopyRefused, copy_database
from bot.storage.pg_database import PgDatabase
from bot.storage.roll_log import RollLogRepository
from tests.storage.test_copy import play_a_little, run_tool, table_rows
from tests.support.pg_fixtures import create_database, drop_database
from tests.support.pg_server import Server
from tests.support.slash import SlashHarness


def as_url(conninfo: str) -> str:
    """A ``postgresql://`` URL for a libpq conninfo string (the fixtures make those)."""
    info = conninfo_to_dict(conninfo)
    url = f"postgresql://{info.get('user', '')}@/{info['dbname']}"
    extras = [f"{key}={info[key]}" for key in ("host", "port") if info.get(key)]
    return url + ("?" + "&".join(extras) if extras else "")


@pytest.fixture
def empty_pg(pg_server: Server) -> Iterator[str]:
    """A new, empty PostgreSQL database (createdb, nothing else): its URL."""
    conninfo = create_database(pg_server, template=None)
    yield as_url(conninfo)
    drop_database(pg_server, conninfo)


async def pg_rows(url: str, table: str) -> list[Any]:
    db = await PgDatabase.open(url)
    try:
        async with db.read() as conn:
            return [tuple(r) for r in await conn.execute_fetchall(f"SELECT * FROM {table}")]
    finally:
        await db.close()


async def test_sqlite_to_postgresql_and_back_is_the_same_campaign(
    bot: TableBot, slash: SlashHarness, tmp_path: Path, empty_pg: str
) -> None:
    source = await play_a_little(bot, slash)
    original = table_rows(source)
    there = await copy_database(f"sqlite:{source}", empty_pg)
    assert there.counters == dict(original["sqlite_sequence"])
    assert sorted(await pg_rows(empty_pg, "campaigns"), key=repr) == original["campaigns"]
    back = tmp_path / "back.sqlite3"
    result = await asyncio.to_thread(run_tool, empty_pg, f"sqlite:{back}")
    assert result.returncode == 0, result.stderr
    assert table_rows(back) == original  # every row, and the AUTOINCREMENT counters
    returned = {f.table: f for f in there.tables}
    assert all(line.split()[-1] == returned[line.split()[0]].digest[:16]
               for line in result.stdout.strip().splitlines()[:-1])  # fmt: skip


async def test_ids_go_on_after_the_copy_without_reusing_a_deleted_one(
    bot: TableBot, slash: SlashHarness, empty_pg: str
) -> None:
    source = await play_a_little(bot, slash)
    report = await copy_database(str(source), empty_pg)
    db = await PgDatabase.open(empty_pg)
    try:
        async with db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "INSERT INTO roll_log (guild_id, user_id, kind, expression, result)"
                " VALUES (?, 1, 'roll', '1d4', '{}') RETURNING id",
                (slash.guild.id,),
            )
        # the deleted roll's id was counted: the next one is past it, as on SQLite
        assert rows[0][0] == report.counters["roll_log"] + 1
        async with db.read() as conn:  # the bot's own repositories read the copy
            [aria] = await conn.execute_fetchall("SELECT id FROM characters WHERE name = 'Aria'")
            logged = await RollLogRepository(conn).latest_for_character(aria[0])
        assert logged is not None and logged.kind == "check"
    finally:
        await db.close()


async def test_a_postgresql_destination_with_rows_is_refused(
    bot: TableBot, slash: SlashHarness, empty_pg: str
) -> None:
    source = await play_a_little(bot, slash)
    await copy_database(str(source), empty_pg)
    before = await pg_rows(empty_pg, "characters")
    with pytest.raises(CopyRefused, match=r"is not empty \(table active_characters has rows\)"):
        await copy_database(str(source), empty_pg)
    assert await pg_rows(empty_pg, "characters") == before


async def test_a_postgresql_destination_with_another_schema_is_refused(
    bot: TableBot, slash: SlashHarness, empty_pg: str
) -> None:
    source = await play_a_little(bot, slash)
    db = await PgDatabase.open(empty_pg)
    try:
        await db.migrate()
        async with db.transaction() as conn:
            await conn.execute("ALTER TABLE sessions ADD COLUMN mood TEXT")
    finally:
        await db.close()
    with pytest.raises(CopyRefused, match=r"the schemas differ \(table sessions has other columns"):
        await copy_database(str(source), empty_pg)
