"""PostgreSQL migrations: a twin for every SQLite migration, the same tables and
columns from both, applied atomically with the version recorded, a newer database
refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.storage.errors import MigrationError
from bot.storage.migrations import discover
from bot.storage.pg_database import PgDatabase
from bot.storage.pg_migrations import PG_MIGRATIONS_DIR, current_version, migrate
from tests.support.pg_fixtures import empty_pg as empty_pg  # (a fixture)
from tests.support.pg_server import Server

# SQLite's declared types → the PostgreSQL type a twin gives the column.
TYPE_TWINS = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision", "BLOB": "bytea"}


def test_every_sqlite_migration_has_a_postgresql_twin() -> None:
    sqlite = [m.path.name for m in discover()]
    postgres = [m.path.name for m in discover(PG_MIGRATIONS_DIR)]
    missing = sorted(set(sqlite) - set(postgres))
    assert not missing, (
        f"write the PostgreSQL twin of {missing} in migrations/postgresql/"
        " (same file name; migrations/postgresql/README.md says how)"
    )
    assert postgres == sqlite


async def _sqlite_schema(tmp_path: Path) -> dict[str, dict[str, tuple[str, bool]]]:
    db = await Database.open(tmp_path / "schema.sqlite3")
    try:
        await db.migrate()
        async with db.read() as conn:
            tables = [r[0] for r in await conn.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%'")]  # fmt: skip
            schema = {}
            for table in tables:
                rows = await conn.execute_fetchall(f"PRAGMA table_info({table})")
                schema[table] = {
                    r["name"]: (TYPE_TWINS[r["type"].upper()], bool(r["notnull"] or r["pk"]))
                    for r in rows
                }
        return schema
    finally:
        await db.close()


async def _pg_schema(db: PgDatabase) -> dict[str, dict[str, tuple[str, bool]]]:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT table_name, column_name, data_type, is_nullable"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
        )
    schema: dict[str, dict[str, tuple[str, bool]]] = {}
    for table, column, kind, nullable in rows:
        if table != "schema_version":
            schema.setdefault(table, {})[column] = (kind, nullable == "NO")
    return schema


async def test_both_dialects_make_the_same_tables_and_columns(
    tmp_path: Path, empty_pg: PgDatabase
) -> None:
    assert await empty_pg.migrate() == len(discover())
    assert await _pg_schema(empty_pg) == await _sqlite_schema(tmp_path)


async def test_empty_database_migrates_to_latest_once(empty_pg: PgDatabase) -> None:
    latest = len(discover(PG_MIGRATIONS_DIR))
    assert await empty_pg.migrate() == latest
    async with empty_pg.single() as conn:
        assert await current_version(conn) == latest
        rows = await conn.execute_fetchall("SELECT version FROM schema_version")
    assert [tuple(r) for r in rows] == [(latest,)]
    assert await empty_pg.migrate() == latest  # a second run is a no-op


async def test_failing_migration_leaves_previous_version(
    tmp_path: Path, empty_pg: PgDatabase
) -> None:
    folder = tmp_path / "postgresql"
    folder.mkdir()
    for migration in discover(PG_MIGRATIONS_DIR):
        (folder / migration.path.name).write_text(migration.sql)
    good = len(discover(PG_MIGRATIONS_DIR))
    (folder / f"{good + 1:04d}-broken.sql").write_text(
        "CREATE TABLE half_done (id BIGINT);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    async with empty_pg._connection() as conn:
        with pytest.raises(MigrationError, match="broken"):
            await migrate(conn, folder)
        assert await current_version(conn) == good
        rows = await conn.execute_fetchall(
            "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'"
        )
    assert rows == []  # the failed file left nothing behind


async def test_newer_database_is_refused(empty_pg: PgDatabase) -> None:
    latest = await empty_pg.migrate()
    async with empty_pg.transaction() as conn:
        await conn.execute("UPDATE schema_version SET version = ?", (latest + 1,))
    with pytest.raises(MigrationError, match="newer version of the bot"):
        await empty_pg.migrate()


async def test_processes_starting_together_migrate_once(
    pg_server: Server, empty_pg: PgDatabase
) -> None:
    other = await PgDatabase.open(empty_pg.url)
    try:
        versions = await asyncio.gather(empty_pg.migrate(), other.migrate())
    finally:
        await other.close()
    assert versions == [len(discover())] * 2
    async with empty_pg.single() as conn:
        rows = await conn.execute_fetchall("SELECT version FROM schema_version")
    assert len(rows) == 1
