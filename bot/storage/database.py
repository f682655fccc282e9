"""The SQLite connection: WAL, foreign keys, and one transaction per command."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.changes import Changed, OnChanged, tell
from bot.storage.connection import LoopConnection, connect
from bot.storage.deferred_writes import DeferredWrite, DeferredWrites
from bot.storage.errors import DatabaseUnavailable
from bot.storage.migrations import migrate
from bot.storage.wal import Checkpointer

log = logging.getLogger(__name__)

# Another process (a second bot instance, a backup script) may hold the write lock
# briefly; waiting this long turns "database is locked" into a short pause.
BUSY_TIMEOUT_MS = 10_000
# SQLite copies the WAL back into the database file (a checkpoint) when a commit finds
# the WAL past this many pages. That copy runs inside the unlucky command's COMMIT and
# is most of the latency spikes over 3 ms, so the bot checkpoints from its maintenance
# task when idle instead; this threshold is the safety net for a process that never
# starts that task (scripts, tests) or is never idle: about 16 MiB of WAL.
AUTOCHECKPOINT_PAGES = 4000
# The maintenance task checkpoints when no transaction has run for this long.
IDLE_SECONDS = 0.5
MAINTENANCE_PERIOD_SECONDS = 1.0
# A bot that is never idle that long checkpoints anyway once this many write
# transactions (a few WAL pages each: about a quarter of the threshold above) ran since
# the last checkpoint, at most this often: the WAL stays small and no COMMIT copies it
# back. The bot runs it after a reply (``on_checkpoint_due``): on one CPU a copy of a
# few MiB beside a command took its time from that command's reply.
BUSY_CHECKPOINT_WRITES = 300
BUSY_CHECKPOINT_SECONDS = 0.5


class Database(DeferredWrites):
    """One aiosqlite connection shared by every command of the process.

    Transactions are serialised with an asyncio lock because a single SQLite
    connection cannot hold two transactions; other processes are kept out by
    ``BEGIN IMMEDIATE`` and the busy timeout.
    """

    backend = "sqlite"

    def __init__(self, connection: LoopConnection, path: Path | str) -> None:
        self._conn = connection
        self.path = path
        self._lock = asyncio.Lock()
        self._deferred: list[DeferredWrite] = []
        # Called after each ``defer``: the bot schedules ``flush_deferred`` for after
        # the reply there (``bot.delivery.followups``), so no command's transaction carries them.
        self.on_deferred: Callable[[], None] | None = None
        # Called after each commit that wrote characters (``bot.storage.changes``): the
        # bot tells the trackers showing them from there.
        self.on_characters_changed: OnChanged | None = None
        # Called after each write once a busy checkpoint is due: the bot schedules
        # ``checkpoint_if_due`` for after the reply there (``bot.delivery.followups``). Without
        # it, the maintenance task checkpoints beside the commands.
        self.on_checkpoint_due: Callable[[], None] | None = None
        self._last_used = time.monotonic()
        self._maintenance: asyncio.Task[None] | None = None
        self._checkpointed = True
        self._writes = 0  # write transactions since the last checkpoint began
        self._wake = asyncio.Event()  # the maintenance task's cue: enough writes
        self._last_checkpoint = -BUSY_CHECKPOINT_SECONDS  # (none yet: the first is due)
        self.checkpoints = 0  # checkpoints begun (for tests and the bench)
        self._checkpointer = Checkpointer(path)

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
        pending = connect(str(path))
        try:
            conn = await pending
        except Exception as exc:
            # aiosqlite's worker thread answers the failed connect's stop request via
            # the event loop; wait for it so it never finds the loop already closed
            # (a stray "Event loop is closed" traceback at exit).
            await asyncio.to_thread(pending._thread.join, 5)
            raise DatabaseUnavailable(f"cannot open the database {path}: {exc}") from exc
        try:
            conn.busy_timeout_ms = BUSY_TIMEOUT_MS  # set before each call on the worker
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
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

    async def migrate(self) -> int:
        """Apply the SQLite migrations; the schema version (MigrationError if not)."""
        self._conn.campaign_cache.disable()  # a rebuilt table loses its triggers
        return await migrate(self._conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run a block as one write transaction: all of it is committed or none.

        ``BEGIN IMMEDIATE`` takes the write lock up front so that two processes
        never both read a value and then both write a stale update. Writes queued
        with ``defer`` run first, inside the same transaction. Characters the block
        wrote are told (``on_characters_changed``) after the commit, never after a
        rollback. Once the lock is
        held nothing can wait, so the block's statements run on the loop's thread
        (``bot.storage.connection``): no round trip to aiosqlite's worker.
        """
        changed: Changed = {}
        async with self._lock:
            await self._begin_immediate()
            deferred = self._take_deferred()
            self._conn.inline = True
            self._conn.changed_characters = changed  # (bot.storage.changes)
            try:
                await self._run_deferred(deferred)
                yield self._conn
            except BaseException:
                self._conn.changed_characters = None  # rolled back: nothing to tell
                await self._conn.execute("ROLLBACK")
                self._conn.inline = False
                if deferred:  # not their fault: they still belong in the file
                    try:
                        await self._write_deferred(deferred)
                    except Exception:
                        log.exception("deferred writes lost after a rollback")
                raise
            else:
                await self._conn.execute("COMMIT")
            finally:
                self._conn.changed_characters = None
                self._conn.inline = False
                self._used(wrote=True)
        tell(self.on_characters_changed, changed)  # (reached only once COMMIT succeeded)

    async def _begin_immediate(self) -> None:
        """``BEGIN IMMEDIATE`` on the loop's thread when the write lock is free (it is,
        almost always); when another process holds it, on the worker, which waits for
        it up to the busy timeout without stopping the event loop."""
        conn = self._conn
        await self._end_orphan()
        conn.inline = True  # here the busy timeout is 0: a locked file fails at once
        try:
            self._new_section()
            await conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        finally:
            conn.inline = False
        await conn.execute("BEGIN IMMEDIATE")  # on the worker, with the busy timeout

    def _new_section(self) -> None:
        """Before a section's first statement, outside any transaction (the lock held,
        ``inline`` set): the campaign cache checks the file's version again, and gets
        its triggers once the table exists (``bot.storage.campaign_cache``)."""
        cache = self._conn.campaign_cache
        cache.begin()
        if not cache.enabled and (raw := self._conn.here()) is not None:
            cache.enable(raw)

    async def _end_orphan(self) -> None:
        """Roll back a transaction nobody owns: a ``BEGIN IMMEDIATE`` whose caller was
        cancelled while it waited on the worker still completes there afterwards."""
        if self._conn.worker_idle and self._conn.in_transaction:
            log.warning("rolling back a transaction left open by a cancelled command")
            await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent read-only view (a deferred transaction, never writes).

        Writes queued with ``defer`` are committed first, so a read sees them. In
        WAL mode a reader waits for nobody, so it runs on the loop's thread.
        """
        async with self._lock:
            deferred = self._take_deferred()
            if deferred:
                await self._write_deferred(deferred)
            await self._end_orphan()
            self._conn.inline = True
            try:
                self._new_section()
                await self._conn.execute("BEGIN")
                try:
                    yield self._conn
                finally:
                    await self._conn.execute("ROLLBACK")
            finally:
                self._conn.inline = False
                self._used(wrote=False)

    @asynccontextmanager
    async def single(self, *, sees_deferred: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """For exactly ONE read statement: SQLite runs it as its own transaction, so it
        sees one consistent state without the BEGIN and ROLLBACK of ``read``. Writes
        queued with ``defer`` are committed first, unless the caller says its
        statement reads none of what they write (``sees_deferred=False``)."""
        async with self._lock:
            deferred = self._take_deferred() if sees_deferred else []
            if deferred:
                await self._write_deferred(deferred)
            await self._end_orphan()
            self._conn.inline = True
            try:
                self._new_section()
                yield self._conn
            finally:
                self._conn.inline = False
                self._used(wrote=False)

    @property
    def idle_seconds(self) -> float:
        """Seconds since the last transaction or read ended (0 while one runs)."""
        if self._lock.locked():
            return 0.0
        return time.monotonic() - self._last_used

    def _used(self, *, wrote: bool) -> None:
        self._last_used = now = time.monotonic()
        if wrote:
            self._checkpointed = False
            self._writes += 1
            if self.on_checkpoint_due is None:
                if self._writes == BUSY_CHECKPOINT_WRITES:
                    self._wake.set()  # (if too soon then, the task's next tick does it)
            elif self._busy_due(BUSY_CHECKPOINT_WRITES, now):
                self.on_checkpoint_due()  # (until it runs: the follow-up coalesces)

    def _busy_due(self, writes: int, now: float) -> bool:
        """Whether the busy rule checkpoints now: ``writes`` write transactions and
        ``BUSY_CHECKPOINT_SECONDS`` since the last checkpoint began."""
        return self._writes >= writes and now - self._last_checkpoint >= BUSY_CHECKPOINT_SECONDS

    async def checkpoint_if_due(self) -> None:
        """The busy checkpoint, if still due: the bot runs this after a reply
        (``on_checkpoint_due``), so the copy starts between two commands."""
        if self._busy_due(BUSY_CHECKPOINT_WRITES, time.monotonic()):
            await self.maintain_now()

    # --- maintenance: off the reply path -------------------------------------------

    def start_maintenance(self) -> None:
        """Start the task that writes deferred writes and checkpoints the WAL (when idle,
        and every so often while busy)."""
        if self._maintenance is None:
            self._maintenance = asyncio.get_running_loop().create_task(
                self._maintain(), name="database-maintenance"
            )

    async def _maintain(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), MAINTENANCE_PERIOD_SECONDS)
            self._wake.clear()
            # With the bot checkpointing after replies, this task only steps in if
            # twice as many writes piled up (a bot whose follow-ups can't run).
            busy_writes = BUSY_CHECKPOINT_WRITES * (1 if self.on_checkpoint_due is None else 2)
            too_soon = self._last_checkpoint + BUSY_CHECKPOINT_SECONDS - time.monotonic()
            if self._writes >= busy_writes and too_soon > 0:
                await asyncio.sleep(too_soon)
            try:
                await self.maintain_now(idle_for=IDLE_SECONDS, busy_writes=busy_writes)
            except Exception:
                log.exception("database maintenance failed; retrying later")

    async def maintain_now(self, *, idle_for: float = 0.0, busy_writes: int = 0) -> bool:
        """Write what was deferred and checkpoint the WAL (PASSIVE: it never waits for
        another connection's readers or writers) if nothing ran for ``idle_for``
        seconds, or, however busy, if ``busy_writes`` (``BUSY_CHECKPOINT_WRITES`` if 0)
        write transactions and ``BUSY_CHECKPOINT_SECONDS`` passed since the last. True
        if it checkpointed."""
        now = time.monotonic()
        due = self._busy_due(busy_writes or BUSY_CHECKPOINT_WRITES, now)
        if not due:  # then only if idle (deferred writes wait for that too)
            if self._lock.locked():
                return False
            async with self._lock:
                deferred = self._take_deferred()
                if deferred:
                    await self._write_deferred(deferred)
                    self._used(wrote=True)  # just written: idle again from now
                idle = time.monotonic() - self._last_used
                due = not self._checkpointed and idle >= idle_for
            if not due:
                return False
        self._checkpointed = True  # (a write while it runs sets this back)
        self._writes = 0
        self._last_checkpoint = now
        self.checkpoints += 1
        if str(self.path) != ":memory:" and not await asyncio.to_thread(self._checkpoint):
            # Commands wrote meanwhile: what they wrote (a few pages) is copied between
            # two of them, so the WAL is all copied and the next write restarts it.
            # Else the WAL only grows while busy, and a COMMIT copies it at the threshold.
            async with self._lock:
                await asyncio.to_thread(self._checkpoint)
        return True

    def _checkpoint(self) -> bool:
        """On a thread (``bot.storage.wal``): the bot's connection and lock stay free, so
        a command arriving meanwhile doesn't wait for the copy."""
        return self._checkpointer.run()

    async def close(self) -> None:
        if self._maintenance is not None:
            self._maintenance.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._maintenance
            self._maintenance = None
        deferred = self._take_deferred()
        if deferred:
            try:
                async with self._lock:
                    await self._write_deferred(deferred)
            except Exception:
                log.exception("deferred writes lost at close")
        await asyncio.to_thread(self._checkpointer.close)
        await self._conn.close()
