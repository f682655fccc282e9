"""Apply ``migrations/postgresql/NNNN-*.sql`` in order: the PostgreSQL twins of the
SQLite migrations (``migrations/postgresql/README.md`` says how to write one).

The version lives in the one-row table ``schema_version``. Each file runs in its own
transaction together with the version update, so a failing file leaves the database
exactly at the previous version; a database newer than this code is refused. Processes
starting together (shards) take turns on an advisory lock: one migrates, the others
then find nothing left to do.
"""

from __future__ import annotations

import logging
from pathlib import Path

from bot.storage.errors import MigrationError
from bot.storage.migrations import MIGRATIONS_DIR, discover
from bot.storage.pg import PgConnection

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgresql"
# pg_advisory_lock key: any constant the bot's database uses for nothing else.
MIGRATION_LOCK = 0x7AB1EB07


async def current_version(conn: PgConnection) -> int:
    """The schema version recorded in the database (0 for an empty one)."""
    if not await _has_version_table(conn):
        return 0
    rows = await conn.execute_fetchall("SELECT version FROM schema_version")
    return int(rows[0][0]) if rows else 0


async def _has_version_table(conn: PgConnection) -> bool:
    rows = await conn.execute_fetchall(
        "SELECT 1 FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_name = 'schema_version'"
    )
    return bool(rows)


async def migrate(conn: PgConnection, directory: Path = PG_MIGRATIONS_DIR) -> int:
    """Bring the database up to the newest migration; return the resulting version.

    Raises MigrationError when the database is newer than this code or a file fails.
    """
    migrations = discover(directory)
    latest = len(migrations)
    await conn.execute("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        rows = await conn.execute_fetchall("SELECT version FROM schema_version")
        if not rows:
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        version = int(rows[0][0]) if rows else 0
        if version > latest:
            raise MigrationError(
                f"the database is at schema version {version} but this bot only knows"
                f" {latest}; run a newer version of the bot or restore a backup"
            )
        for migration in migrations[version:]:
            await conn.execute("BEGIN")
            try:
                await conn.executescript(migration.sql)
                await conn.execute("UPDATE schema_version SET version = ?", (migration.version,))
            except Exception as exc:
                await conn.execute("ROLLBACK")
                raise MigrationError(
                    f"migration postgresql/{migration.path.name} failed and was rolled back: {exc}"
                ) from exc
            await conn.execute("COMMIT")
            log.info("applied migration postgresql/%s", migration.path.name)
        return latest
    finally:
        await conn.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))
