"""The PostgreSQL database: ``Database``'s interface over a small connection pool.

Same contract as the SQLite ``Database``: ``transaction`` runs a block as one
transaction (all or nothing), ``read`` gives one consistent snapshot, ``single`` runs
one read statement on its own, ``defer`` queues bookkeeping writes for the next
transaction. What differs, and why:

- Write transactions of ONE process still take turns (an asyncio lock), as on SQLite:
  the commands of a process never see each other half-done, and a burst of clicks on
  one encounter advances it once per click instead of refusing all but the first.
  Processes (shards) run side by side; PostgreSQL's row locks order them.
- Across processes a transaction is READ COMMITTED. That keeps every guarantee the
  repositories give, because none of them writes from a stale read: a spend is one
  conditional UPDATE (``… WHERE hero_points > 0``), which PostgreSQL re-checks on the
  newest row after waiting for a concurrent writer's commit, so exactly one of two
  spends of the last point succeeds; a versioned save (``… WHERE version = ?``) finds
  the version moved and writes nothing (``EncounterChanged``, ``SheetChanged``);
  a unique insert waits for the other and then fails as on SQLite.
- A read whose row the command then saves under a version (an encounter) locks
  that row (``dialect.ROW_LOCK`` → ``FOR UPDATE``), so two processes advancing one
  encounter take turns as on SQLite instead of one being refused as stale.
- Reads need no turn: ``read`` is a REPEATABLE READ READ ONLY transaction (one
  snapshot, like SQLite's deferred read transaction in WAL mode) and ``single`` an
  autocommit statement, each on a pool connection of its own.
- There is no WAL to checkpoint: maintenance only writes what was deferred.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import psycopg

from bot.storage.changes import Changed, OnChanged, tell
from bot.storage.errors import DatabaseUnavailable
from bot.storage.pg import PgConnection, connect
from bot.storage.pg_migrations import migrate

log = logging.getLogger(__name__)

POOL_SIZE = 4  # one writer at a time per process, plus reads beside it
IDLE_SECONDS = 0.5
MAINTENANCE_PERIOD_SECONDS = 1.0

DeferredWrite = Callable[[Any], Awaitable[object]]


def redact(url: str) -> str:
    """The URL without its password, for logs and error messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    host = info.get("host", "")
    return f"postgresql://{info.get('user', '')}@{host}/{info.get('dbname', '')}"


class _Pool:
    """At most ``size`` connections, made when first needed and kept; one that broke
    or was left inside a transaction (a cancelled command) is closed, not reused."""

    def __init__(self, url: str, size: int) -> None:
        self._url = url
        self._idle: list[PgConnection] = []
        self._slots = asyncio.Semaphore(size)
        self._open: set[PgConnection] = set()
        self.statements_closed = 0  # statements of connections already closed

    async def acquire(self) -> PgConnection:
        await self._slots.acquire()
        try:
            while self._idle:
                conn = self._idle.pop()
                if not conn.raw.closed:
                    return conn
                self._forget(conn)
            conn = await connect(self._url)
            self._open.add(conn)
            return conn
        except BaseException:
            self._slots.release()
            raise

    async def release(self, conn: PgConnection) -> None:
        try:
            if conn.raw.closed or conn.in_transaction or conn.raw.broken:
                self._forget(conn)
                with contextlib.suppress(Exception):
                    await conn.close()  # the server rolls back what it left open
            else:
                self._idle.append(conn)
        finally:
            self._slots.release()

    async def drop_idle(self) -> None:
        """Close every kept connection (after one turned out dead, the rest may be)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            self._forget(conn)
            with contextlib.suppress(Exception):
                await conn.close()

    def _forget(self, conn: PgConnection) -> None:
        if conn in self._open:
            self._open.discard(conn)
            self.statements_closed += conn.statements

    @property
    def statements(self) -> int:
        return self.statements_closed + sum(c.statements for c in self._open)

    async def close(self) -> None:
        for conn in list(self._open):
            self._forget(conn)
            with contextlib.suppress(Exception):
                await conn.close()
        self._idle.clear()


class PgDatabase:
    """A pool of connections to one PostgreSQL database, shared by every command."""

    backend = "postgresql"

    def __init__(self, pool: _Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self.path = redact(url)  # what logs show (Database.path's counterpart)
        self._lock = asyncio.Lock()
        self._deferred: list[DeferredWrite] = []
        self.on_deferred: Callable[[], None] | None = None  # as ``Database.on_deferred``
        self.on_characters_changed: OnChanged | None = None  # as ``Database``'s
        self._last_used = time.monotonic()
        self._maintenance: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PgDatabase:
        """Connect to the database at ``url``.

        Raises DatabaseUnavailable with a readable reason (never the password) when
        the server cannot be reached, refuses the login, or is read-only.
        """
        pool = _Pool(url, pool_size)
        try:
            conn = await pool.acquire()
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DatabaseUnavailable(f"cannot open the database {redact(url)}: {reason}") from None
        try:
            rows = await conn.execute_fetchall("SELECT current_setting('transaction_read_only')")
            if rows[0][0] == "on":
                raise DatabaseUnavailable(f"the database {redact(url)} is read-only")
        except DatabaseUnavailable:
            await pool.release(conn)
            await pool.close()
            raise
        await pool.release(conn)
        return cls(pool, url)

    async def migrate(self) -> int:
        """Apply the PostgreSQL migrations; the schema version (MigrationError if not)."""
        conn = await self._pool.acquire()
        try:
            return await migrate(conn)
        finally:
            await self._pool.release(conn)

    @property
    def statements(self) -> int:
        """Statements sent, ever: each one is a round trip to the server (for the bench)."""
        return self._pool.statements

    @asynccontextmanager
    async def _connection(self, first: str | None = None) -> AsyncIterator[PgConnection]:
        """A pool connection, ``first`` already run on it. Kept connections the server
        has dropped meanwhile (a restart, a failover, an idle timeout) fail that first
        statement: then the idle ones are dropped and it runs once more on a new one, so
        no command fails for them."""
        conn = await self._pool.acquire()
        if first is not None:
            try:
                await conn.execute(first)
            except psycopg.OperationalError:
                log.warning("a kept database connection was dropped; reconnecting")
                await self._pool.release(conn)
                await self._pool.drop_idle()
                conn = await self._pool.acquire()
                try:
                    await conn.execute(first)
                except BaseException:
                    await self._pool.release(conn)
                    raise
        try:
            yield conn
        finally:
            await self._pool.release(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """Run a block as one transaction: all of it is committed or none.

        Writes queued with ``defer`` run first, inside it (each behind a savepoint: a
        failing one must not abort the command's transaction, as PostgreSQL would).
        Characters the block wrote are told after the commit, as on SQLite.
        """
        changed: Changed = {}
        async with self._lock, self._connection("BEGIN") as conn:
            deferred = self._take_deferred()
            conn.writing = True
            conn.changed_characters = changed  # (bot.storage.changes)
            try:
                await self._run_deferred(conn, deferred)
                yield conn
            except BaseException:
                conn.changed_characters = None  # rolled back: nothing to tell
                await _rollback(conn)
                if deferred:  # not their fault: they still belong in the database
                    try:
                        await self._write_deferred(conn, deferred)
                    except Exception:
                        log.exception("deferred writes lost after a rollback")
                raise
            else:
                await conn.execute("COMMIT")
            finally:
                conn.changed_characters = None
                conn.writing = False
                self._last_used = time.monotonic()
        tell(self.on_characters_changed, changed)  # (reached only once COMMIT succeeded)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConnection]:
        """A consistent read-only view: one snapshot, sees what was deferred."""
        await self._flush_deferred()
        async with self._connection("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") as conn:
            try:
                yield conn
            finally:
                await _rollback(conn)
                self._last_used = time.monotonic()

    @asynccontextmanager
    async def single(self, *, sees_deferred: bool = True) -> AsyncIterator[PgConnection]:
        """For exactly ONE read statement, run as its own transaction (autocommit)."""
        if sees_deferred:
            await self._flush_deferred()
        async with self._connection() as conn:
            try:
                yield conn
            finally:
                self._last_used = time.monotonic()

    def defer(self, write: DeferredWrite) -> None:
        """Queue a small bookkeeping write (see ``Database.defer``): never game state."""
        self._deferred.append(write)
        if self.on_deferred is not None:
            self.on_deferred()

    def _take_deferred(self) -> list[DeferredWrite]:
        deferred, self._deferred = self._deferred, []
        return deferred

    async def _run_deferred(self, conn: PgConnection, deferred: list[DeferredWrite]) -> None:
        for write in deferred:
            await conn.execute("SAVEPOINT deferred")
            try:
                await write(conn)
            except Exception:
                await conn.execute("ROLLBACK TO SAVEPOINT deferred")
                log.exception("a deferred write failed")
            else:
                await conn.execute("RELEASE SAVEPOINT deferred")

    async def _write_deferred(self, conn: PgConnection, deferred: list[DeferredWrite]) -> None:
        await conn.execute("BEGIN")
        try:
            await self._run_deferred(conn, deferred)
        except BaseException:
            await _rollback(conn)
            raise
        await conn.execute("COMMIT")

    async def flush_deferred(self) -> None:
        """Write what was deferred now (see ``Database.flush_deferred``)."""
        await self._flush_deferred()

    async def _flush_deferred(self) -> None:
        if not self._deferred:
            return
        async with self._lock:
            deferred = self._take_deferred()
            if deferred:
                async with self._connection() as conn:
                    await self._write_deferred(conn, deferred)

    # --- maintenance: off the reply path -------------------------------------------

    def start_maintenance(self) -> None:
        """Start the task that writes deferred writes when the bot is idle."""
        if self._maintenance is None:
            self._maintenance = asyncio.get_running_loop().create_task(
                self._maintain(), name="database-maintenance"
            )

    async def _maintain(self) -> None:
        while True:
            await asyncio.sleep(MAINTENANCE_PERIOD_SECONDS)
            try:
                await self.maintain_now(idle_for=IDLE_SECONDS)
            except Exception:
                log.exception("database maintenance failed; retrying later")

    async def maintain_now(self, *, idle_for: float = 0.0) -> bool:
        """Write what was deferred. Always False: PostgreSQL has no WAL file of ours to
        checkpoint (the server checkpoints itself)."""
        if self._lock.locked():
            return False
        await self._flush_deferred()
        return False

    async def close(self) -> None:
        if self._maintenance is not None:
            self._maintenance.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._maintenance
            self._maintenance = None
        try:
            await self._flush_deferred()
        except Exception:
            log.exception("deferred writes lost at close")
        await self._pool.close()


async def _rollback(conn: PgConnection) -> None:
    """Roll back; a connection too broken to say so is closed by the pool instead."""
    try:
        await conn.execute("ROLLBACK")
    except psycopg.Error:
        log.warning("rollback failed; the connection will be dropped", exc_info=True)
