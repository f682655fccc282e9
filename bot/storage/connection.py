"""aiosqlite's connection, able to run a statement on the event loop's own thread.

aiosqlite runs every call on its worker thread and hands the result back: a round
trip of two thread switches that costs 20–70 µs on an idle machine and far more
on a busy one, several times the statement itself (5–15 µs). A statement is worth
sending to the worker only if it might WAIT: for another process's write lock
(``BEGIN IMMEDIATE`` under the busy timeout), or for a long job (integrity check,
migrations, a WAL checkpoint, closing).

Inside a write transaction nothing waits: ``BEGIN IMMEDIATE`` has taken the write
lock, and in WAL mode readers never block writers nor writers readers. So while
``Database`` holds its lock and has said so (``inline``), calls run right here; the
rest still go to the worker, which stays the one place anything may block.
The sqlite3 connection is opened with ``check_same_thread=False`` for this; the
two threads never use it at once: a call runs here only when nothing is queued on
or running in the worker, and ``Database`` serialises every use with its lock.

The busy timeout follows the thread: a statement here must never wait (it would
stop the whole bot), so here it is 0, and a locked ``BEGIN IMMEDIATE`` fails at once
and is sent to the worker, where it is ``busy_timeout_ms``. The setting is switched
only when a call runs on the other side from the last one: in the steady state
(every call here) that is never, instead of twice per transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import aiosqlite

from bot.storage.campaign_cache import CampaignCache


class LoopConnection(aiosqlite.Connection):
    def __init__(self, connector: Callable[[], sqlite3.Connection], iter_chunk_size: int) -> None:
        super().__init__(connector, iter_chunk_size)
        self.inline = False  # set by Database while a call cannot wait (see the module)
        # What the open write transaction changed (bot.storage.changes); None outside one.
        self.changed_characters: dict[int, set[int]] | None = None
        # How long a call on the worker may wait for another process's lock (Database
        # sets it); on the loop's thread the timeout is 0 (see the module).
        self.busy_timeout_ms = 0
        self._busy_ms = -1  # the timeout the sqlite3 connection has now (-1: unknown)
        self.pragma_statements = 0  # busy_timeout switches, ever (for the bench's count)
        # The campaign cache's data_version checks, ever: statements that bypass
        # _execute (no round trip), for the bench's count.
        self.version_checks = 0
        self.worker_calls = 0  # round trips to the worker thread, ever (for the bench)
        self.inline_calls = 0  # calls run on the loop's thread instead
        # Each counter is written by one thread only: submitted here, finished there.
        self._submitted = 0
        self._finished = 0
        # aiosqlite's worker keeps its last result referenced until its next call. A
        # sqlite3 cursor still on a row keeps its statement open, and SQLite refuses to
        # COMMIT while one is open, so before the next call runs here the worker is
        # sent a no-op to let go of such a cursor.
        self._worker_holds_cursor = False
        self.campaign_cache = CampaignCache()  # (bot.storage.campaign_cache)

    @property
    def worker_idle(self) -> bool:
        return self._submitted == self._finished

    def here(self) -> sqlite3.Connection | None:
        """The sqlite3 connection, if a call may use it on this thread right now: as
        ``_execute`` would run it here, and with no cursor left on the worker (whose
        open statement could hold an older read snapshot). None if not."""
        if (
            self.inline
            and self.worker_idle
            and not self._worker_holds_cursor
            and self._connection is not None
            and self._running
        ):
            self._set_busy_timeout(0)
            return self._connection
        return None

    def data_version_here(self) -> int | None:
        """``PRAGMA data_version`` run on this thread (no round trip) if ``here`` allows,
        else None."""
        raw = self.here()
        if raw is None:
            return None
        self.version_checks += 1
        cursor = raw.execute("PRAGMA data_version")
        try:
            return int(cursor.fetchone()[0])
        finally:
            cursor.close()  # its statement ended: no read snapshot kept past this

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if self.inline and self.worker_idle and self._connection is not None and self._running:
            if self._worker_holds_cursor:
                self._worker_holds_cursor = False
                await self._on_worker(_nothing)
            self.inline_calls += 1
            self._set_busy_timeout(0)
            return fn(*args, **kwargs)
        result = await self._on_worker(fn, *args, **kwargs)
        # (A statement without result columns, such as BEGIN, is done when it returns.)
        self._worker_holds_cursor = (
            isinstance(result, sqlite3.Cursor) and result.description is not None
        )
        return result

    async def _on_worker(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self.worker_calls += 1
        self._submitted += 1

        def tracked() -> Any:
            try:
                if fn is not _nothing:
                    self._set_busy_timeout(self.busy_timeout_ms)
                return fn(*args, **kwargs)
            finally:
                self._finished += 1  # on the worker: it is idle again once this returns

        return await super()._execute(tracked)

    def _set_busy_timeout(self, ms: int) -> None:
        """On whichever thread is about to use the connection (never both at once)."""
        if self._busy_ms != ms and self._connection is not None:
            self._connection.execute(f"PRAGMA busy_timeout = {ms}")
            self._busy_ms = ms
            self.pragma_statements += 1


def _nothing() -> None:
    return None


def connect(path: str) -> LoopConnection:
    """Like ``aiosqlite.connect(path, isolation_level=None)`` (await it to open)."""

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    return LoopConnection(connector, 64)
