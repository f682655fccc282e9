"""One process's watch on the servers whose pages are open live: :class:`VersionWatcher`.

Every open event stream (``bot.web.live``) watches its server here; the watcher asks
``bot.web.views.registry.version`` for every watched server every ``POLL_SECONDS``, in
ONE read transaction for all of them (a few dozen µs a server, whatever the number
of streams: 200 overlays of one server cost one read), and wakes that server's
streams when the answer changed.

Why polling, on both backends: the version is read from the database every process
shares, so a change committed by another shard process (or a script) is seen here
within one period, with no path between the processes at all. PostgreSQL adds an
accelerator on top (``bot.web.live_pg``): a NOTIFY wakes the watcher at once
(:meth:`nudge`), and so does this process's own ``characters_changed`` notice. Either
only makes the next poll come sooner; a lost notice costs at most one period.

A version is shown to browsers only as its :meth:`stamp`: an HMAC of the values under a
key of this process, so the campaign's settings and revision counters inside the
version never leave the bot, and a stamp from before a restart never matches one after
it (a page reconnecting after a restart refreshes once, which is what it should do:
things may have changed while the bot was down).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.web.views import registry

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25  # a change reaches an open page within this plus one page load
ReadVersion = Callable[[Any, int], Awaitable[tuple[Any, ...]]]


@dataclass
class _Watched:
    # Set at the server's next change, then replaced. A future, not an Event: a stream
    # waits on it with asyncio.wait, which makes no task (an Event's wait() would need
    # one per stream per wake-up, and 200 streams' worth of tasks costs the loop).
    changed: asyncio.Future[None]
    streams: int = 0
    stamp: str = ""


class VersionWatcher:
    """Watches ``db``'s servers that have open streams (start it before use)."""

    def __init__(
        self,
        db: Any,
        *,
        poll_seconds: float = POLL_SECONDS,
        read_version: ReadVersion = registry.version,
    ) -> None:
        self._db = db
        self.poll_seconds = poll_seconds
        self._read_version = read_version
        self._key = secrets.token_bytes(16)
        self._guilds: dict[int, _Watched] = {}
        self._wake = asyncio.Event()
        self._nudged: set[int] = set()  # servers to read before the next full poll
        self._nudged_all = False
        self._closed: asyncio.Future[None] | None = None  # made by start(), in the loop
        self._task: asyncio.Task[None] | None = None
        self.polls = 0  # read transactions run (for tests and the bench)

    # --- for streams ----------------------------------------------------------------

    @property
    def closing(self) -> bool:
        return self._closed is not None and self._closed.done()

    @contextlib.asynccontextmanager
    async def watch(self, guild_id: int) -> AsyncIterator[str]:
        """Watch ``guild_id`` for the block; yields the server's stamp now."""
        watched = self._guilds.get(guild_id)
        if watched is None:
            changed = asyncio.get_running_loop().create_future()
            watched = self._guilds[guild_id] = _Watched(changed)
            try:
                watched.stamp = await self._stamp_now(guild_id)
            except BaseException:
                del self._guilds[guild_id]
                raise
        watched.streams += 1
        try:
            yield watched.stamp
        finally:
            watched.streams -= 1
            if watched.streams == 0 and self._guilds.get(guild_id) is watched:
                del self._guilds[guild_id]

    def stamp_of(self, guild_id: int) -> str | None:
        """The watched server's last seen stamp (None if nobody watches it)."""
        watched = self._guilds.get(guild_id)
        return watched.stamp if watched is not None else None

    async def wait_change(self, guild_id: int, seen: str, within: float) -> str:
        """The server's stamp once it differs from ``seen``, or its current one after
        ``within`` seconds or when the watcher closes (only inside :meth:`watch`)."""
        watched = self._guilds[guild_id]
        if watched.stamp == seen and not self.closing:
            waits = {watched.changed} if self._closed is None else {watched.changed, self._closed}
            # (shared futures: asyncio.wait only adds and removes its callbacks on them)
            await asyncio.wait(waits, timeout=within, return_when=asyncio.FIRST_COMPLETED)
        return watched.stamp

    async def stamp_now(self, guild_id: int) -> str:
        """The server's stamp read now, or the watcher's (at most one period old) when it
        watches the server: either was read before anything the caller reads next, so
        a page stamped with it never misses a change, at worst refreshes once more."""
        return self.stamp_of(guild_id) or await self._stamp_now(guild_id)

    async def _stamp_now(self, guild_id: int) -> str:
        async with self._db.read() as conn:
            return self.stamp(await self._read_version(conn, guild_id))

    def stamp(self, version: tuple[Any, ...]) -> str:
        """What a browser sees of a version: 16 hex digits, under this process's key."""
        return hmac.new(self._key, repr(version).encode(), hashlib.sha256).hexdigest()[:16]

    # --- the loop ---------------------------------------------------------------------

    def nudge(self, guild_id: int | None = None) -> None:
        """A notice said ``guild_id`` (None: some server) changed: read that server's
        version now, if it is watched (only its: one statement, not every server's)."""
        if guild_id is None:
            self._nudged_all = True
            self._wake.set()
        elif guild_id in self._guilds:
            self._nudged.add(guild_id)
            self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._closed = asyncio.get_running_loop().create_future()
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="web-version-watcher"
            )

    async def stop(self) -> None:
        """Stop polling and end every stream's wait (they close themselves)."""
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        if not self._closed.done():
            self._closed.set_result(None)
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        clock = asyncio.get_running_loop().time
        full_at = clock() + self.poll_seconds
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, full_at - clock()))
            self._wake.clear()
            guilds: list[int] | None = None  # (every watched server)
            if clock() >= full_at or self._nudged_all:
                full_at = clock() + self.poll_seconds
            else:
                guilds = [g for g in self._nudged if g in self._guilds]
            self._nudged.clear()
            self._nudged_all = False
            if not self._guilds or guilds == []:
                continue
            try:
                await self.poll(guilds)
            except Exception:
                log.exception("reading the web pages' versions failed; retrying")
                await asyncio.sleep(self.poll_seconds * 4)

    async def poll(self, guilds: list[int] | None = None) -> None:
        """Read every watched server's version (or those of ``guilds``) in one read
        transaction and wake the streams of those that changed."""
        guilds = list(self._guilds) if guilds is None else guilds
        async with self._db.read() as conn:
            stamps = [self.stamp(await self._read_version(conn, g)) for g in guilds]
        self.polls += 1
        for guild_id, stamp in zip(guilds, stamps, strict=True):
            watched = self._guilds.get(guild_id)
            if watched is not None and watched.stamp != stamp:
                watched.stamp = stamp
                changed = watched.changed
                watched.changed = changed.get_loop().create_future()
                changed.set_result(None)
