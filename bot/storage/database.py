"""The SQLite connection: WAL, foreign keys, and one transaction per command."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

# Another process (a second bot instance, a backup script) may hold the write lock
# briefly; waiting this long turns "database is locked" into a short pause.
BUSY_TIMEOUT_MS = 10_000


class Database:
    """One aiosqlite connection shared by every command of the process.

    Transactions are serialised with an asyncio lock because a single SQLite
    connection cannot hold two transactions; other processes are kept out by
    ``BEGIN IMMEDIATE`` and the busy timeout.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path | str) -> None:
        self._conn = connection
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        """Open (creating its folder if needed) the database file at ``path``.

        Raises DatabaseUnavailable with a readable reason when the file cannot be
        opened, is not a database, or is read-only.
        """
        if str(path) != ":memory:":
            path = Path(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(
                    f"cannot create the folder {path.parent} for the database: {exc.strerror}"
                ) from exc
        pending = aiosqlite.connect(str(path), isolation_level=None)
        try:
            conn = await pending
        except Exception as exc:
            # aiosqlite's worker thread answers the failed connect's stop request via
            # the event loop; wait for it so it never finds the loop already closed
            # (a stray "Event loop is closed" traceback at exit).
            await asyncio.to_thread(pending._thread.join, 5)
            raise DatabaseUnavailable(f"cannot open the database {path}: {exc}") from exc
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            async with conn.execute("PRAGMA quick_check") as cursor:
                row = await cursor.fetchone()
            if row is None or row[0] != "ok":
                raise DatabaseUnavailable(
                    f"the database {path} is damaged (integrity check: {row[0] if row else '?'});"
                    " restore it from a backup"
                )
            # Probe for writability now so a read-only file fails at startup, not mid-session.
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("ROLLBACK")
        except DatabaseUnavailable:
            await conn.close()
            raise
        except Exception as exc:
            await conn.close()
            raise DatabaseUnavailable(f"cannot use the database {path}: {exc}") from exc
        conn.row_factory = aiosqlite.Row
        return cls(conn, path)

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run a block as one write transaction: all of it is committed or none.

        ``BEGIN IMMEDIATE`` takes the write lock up front so that two processes
        never both read a value and then both write a stale update.
        """
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent read-only view (a deferred transaction, never writes)."""
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                await self._conn.execute("ROLLBACK")

    async def close(self) -> None:
        await self._conn.close()
