"""Bookkeeping writes that need not cost a transaction of their own (``Database.defer``).

For what the bot learns only after a command's transaction, such as the id of the reply
that shows a roll. Part of ``Database`` (its lock, connection and transaction helpers).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiosqlite

    from bot.storage.connection import LoopConnection

log = logging.getLogger("bot.storage.database")  # (its failures are the database's to log)

# A write queued by ``Database.defer``: runs on the connection inside a transaction.
DeferredWrite = Callable[["aiosqlite.Connection"], Awaitable[object]]


class DeferredWrites:
    """``Database``'s queue of deferred writes."""

    _conn: LoopConnection
    _lock: asyncio.Lock
    _deferred: list[DeferredWrite]
    _checkpointed: bool
    on_deferred: Callable[[], None] | None

    if TYPE_CHECKING:  # (Database's own)

        async def _begin_immediate(self) -> None: ...

        def _used(self, *, wrote: bool) -> None: ...

    def defer(self, write: DeferredWrite) -> None:
        """Queue a small bookkeeping write that need not cost a transaction of its own.

        For what the bot learns only after a command's transaction, such as the id of
        the reply that shows a roll: it runs at the start of the next transaction or
        read, or from the maintenance task when idle, or at close. Never for game
        state: a process killed before then loses the write. The bot writes them
        sooner, right after the reply (``on_deferred``, ``flush_deferred``).
        """
        self._deferred.append(write)
        if self.on_deferred is not None:
            self.on_deferred()

    async def flush_deferred(self) -> None:
        """Write what was deferred now, in a transaction of its own: after a reply
        (``bot.delivery.followups``), so the next command's transaction doesn't carry it."""
        if not self._deferred:
            return
        async with self._lock:
            deferred = self._take_deferred()
            if deferred:
                await self._write_deferred(deferred)
                self._used(wrote=True)

    def _take_deferred(self) -> list[DeferredWrite]:
        deferred, self._deferred = self._deferred, []
        return deferred

    async def _run_deferred(self, deferred: list[DeferredWrite]) -> None:
        for write in deferred:
            try:
                await write(self._conn)
            except Exception:
                # A failed statement is rolled back on its own; the transaction goes on.
                log.exception("a deferred write failed")

    async def _write_deferred(self, deferred: list[DeferredWrite]) -> None:
        """Commit ``deferred`` in a transaction of their own (the lock is held)."""
        self._checkpointed = False
        await self._begin_immediate()
        self._conn.inline = True
        try:
            await self._run_deferred(deferred)
        except BaseException:
            await self._conn.execute("ROLLBACK")
            raise
        else:
            await self._conn.execute("COMMIT")
        finally:
            self._conn.inline = False
