"""Apply the numbered SQL files in ``migrations/`` in order.

The schema version lives in ``PRAGMA user_version``. Each file runs inside its own
transaction together with the version bump, so a failing file leaves the database
exactly at the previous version.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.storage.errors import MigrationError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
_NAME = re.compile(r"^(\d{4})-[\w-]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    path: Path

    @property
    def sql(self) -> str:
        return self.path.read_text(encoding="utf-8")


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``directory``, checked to be numbered 1, 2, 3 … without gaps."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file name {path.name!r} is not NNNN-name.sql")
        found.append(Migration(int(match.group(1)), path))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered without gaps; expected {expected:04d},"
                f" found {migration.path.name}"
            )
    return found


async def current_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0])


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> int:
    """Bring the database up to the newest migration; return the resulting version.

    Raises MigrationError when the database is newer than this code or a file fails.
    """
    migrations = discover(directory)
    latest = len(migrations)
    version = await current_version(conn)
    if version > latest:
        raise MigrationError(
            f"the database is at schema version {version} but this bot only knows {latest};"
            " run a newer version of the bot or restore a backup"
        )
    for migration in migrations[version:]:
        # executescript commits any open transaction first, so BEGIN/COMMIT live
        # inside the script itself to make the file and the version bump one unit.
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            f"PRAGMA user_version = {migration.version};\n"
            "COMMIT;\n"
        )
        try:
            await conn.executescript(script)
        except Exception as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if await current_version(conn) >= migration.version:
                # Another process (shard processes starting together on a new file)
                # applied it between our version read and our lock: nothing to do.
                log.info("migration %s was applied by another process", migration.path.name)
                continue
            raise MigrationError(
                f"migration {migration.path.name} failed and was rolled back: {exc}"
            ) from exc
        log.info("applied migration %s", migration.path.name)
    return latest
