"""PostgreSQL's accelerator for live pages: LISTEN/NOTIFY between the bot's processes.

Each process with a web server keeps one extra connection that LISTENs on
:data:`CHANNEL`; a notification (payload: a server id) wakes the process's
``VersionWatcher`` to poll at once. A process NOTIFYs when its bot tells that
characters were written (``bot.delivery.events``: hit points, conditions, points),
after the commit and off the command's reply (a task of its own, one autocommit
statement on a pool connection).

It is only an accelerator: the watcher polls the shared database every
``POLL_SECONDS`` on every backend, so a change without a notice (an encounter
advanced, a roll logged, another program's write) or a notice lost while the
listening connection reconnects still reaches every page within that period.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import psycopg

from bot.web.live_watcher import VersionWatcher

log = logging.getLogger(__name__)

CHANNEL = "tablebot_web_changed"
RECONNECT_SECONDS = 5.0


class PgChanges:
    """The LISTEN connection of one process, and its NOTIFY."""

    def __init__(self, db: Any, watcher: VersionWatcher) -> None:
        self._db = db
        self._watcher = watcher
        self._task: asyncio.Task[None] | None = None
        self._telling: set[asyncio.Task[None]] = set()
        self.listening = asyncio.Event()  # (for tests: LISTEN has run)
        self.received = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._listen(), name="web-pg-listen"
            )

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._telling) if t is not None]
        self._task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _listen(self) -> None:
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._db.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    async for note in conn.notifies():
                        self.received += 1
                        payload = note.payload
                        self._watcher.nudge(int(payload) if payload.isdigit() else None)
            except psycopg.Error as exc:
                # (polling goes on meanwhile: pages are only slower, not stale)
                log.warning("web pages' LISTEN connection lost (%s); reconnecting", exc)
            finally:
                self.listening.clear()
            await asyncio.sleep(RECONNECT_SECONDS)

    def tell(self, guild_id: int) -> None:
        """NOTIFY every process that ``guild_id``'s pages changed (in a task)."""
        task = asyncio.get_running_loop().create_task(self._notify(guild_id))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _notify(self, guild_id: int) -> None:
        try:
            async with self._db.single(sees_deferred=False) as conn:
                await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, str(guild_id)))
        except Exception:  # a lost notice only waits for the next poll
            log.warning("NOTIFY for the web pages failed", exc_info=True)
