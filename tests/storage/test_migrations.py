"""Migrations: from empty to latest, atomic failure, refusal of a newer database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.storage.errors import DatabaseUnavailable, MigrationError
from bot.storage.migrations import MIGRATIONS_DIR, current_version, discover, migrate


async def _tables(db: Database) -> set[str]:
    async with db.connection.execute("SELECT name FROM sqlite_master WHERE type='table'") as cur:
        return {row[0] for row in await cur.fetchall()}


async def test_empty_database_migrates_to_latest(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "fresh.sqlite3")
    try:
        version = await migrate(db.connection)
        assert version == len(discover()) >= 1
        assert await current_version(db.connection) == version
        assert {"campaigns", "roll_log", "bot_meta"} <= await _tables(db)
        # A second run is a no-op.
        assert await migrate(db.connection) == version
    finally:
        await db.close()


async def test_wal_and_foreign_keys_are_on(db: Database) -> None:
    async with db.connection.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with db.connection.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO roll_log (guild_id, user_id, kind, expression, result)"
                " VALUES (999, 1, 'roll', '1d6', '{}')"
            )


async def test_failing_migration_leaves_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in discover():
        (folder / migration.path.name).write_text(migration.sql)
    good = len(discover())
    bad_number = good + 1
    (folder / f"{bad_number:04d}-broken.sql").write_text(
        "CREATE TABLE half_done (id INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    db = await Database.open(tmp_path / "db.sqlite3")
    try:
        with pytest.raises(MigrationError, match="broken"):
            await migrate(db.connection, folder)
        assert await current_version(db.connection) == good
        assert "half_done" not in await _tables(db)
        # The database is still usable after the failure.
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO campaigns (guild_id) VALUES (1)")
    finally:
        await db.close()


async def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(discover()) + 5}")
    db = await Database.open(path)
    try:
        with pytest.raises(MigrationError, match="newer version of the bot"):
            await migrate(db.connection)
    finally:
        await db.close()


def test_migration_files_are_numbered_without_gaps() -> None:
    versions = [m.version for m in discover(MIGRATIONS_DIR)]
    assert versions == list(range(1, len(versions) + 1))


async def test_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseUnavailable, match=r"corrupt\.sqlite3"):
        await Database.open(path)


async def test_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(DatabaseUnavailable, match="cannot create the folder"):
        await Database.open(blocker / "sub" / "db.sqlite3")


async def test_transaction_rolls_back_on_error(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO campaigns (guild_id) VALUES (7)")
            raise RuntimeError("boom")
    async with db.read() as conn, conn.execute("SELECT count(*) FROM campaigns") as cur:
        assert (await cur.fetchone())[0] == 0
