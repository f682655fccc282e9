"""Work a command leaves for after its reply: keyed, coalesced, ordered, retried.

A command answers first; what only keeps another message in step (the initiative
tracker's edit, an encounter following a sheet another command changed) runs here,
as a task of its own, so it never holds up the reply. Per key (one channel's tracker,
one guild's changed characters):

* **coalesced**: work scheduled while the key's earlier work is still waiting replaces
  it, so a burst of commands makes one edit. Only work that reads the newest state
  when it runs may be scheduled (a tracker refresh loads what is stored then), so
  the last run always shows the last change;
* **after the reply**: work waits while the bot is handling a command
  (``busy``, held by the command tree around each command), up to ``MAX_HOLD_SECONDS``
  so a steady stream of commands cannot starve it: commands first, bookkeeping after;
* **ordered**: one run per key at a time; work scheduled while a run is going starts
  after it, never beside it;
* **never lost**: work that raises (logged) or returns False (it logs why) is tried
  again after a pause (a few times), unless newer work for the key came first and
  does it anyway. A restart loses nothing a player needs: the tracker is redrawn from
  storage by the next change.

Tests and the benchmark wait for all of it with ``await bot.followups.drain()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable, Iterator

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[object]]

# Pauses before each retry of failed work (then it waits for the next change).
RETRY_DELAYS = (2.0, 15.0, 60.0)
# The longest work waits for the bot to finish the commands it is handling.
MAX_HOLD_SECONDS = 0.5


class FollowUps:
    """The bot's follow-up work (``bot.delivery.followups``)."""

    def __init__(self, *, retry_delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self._retry_delays = retry_delays
        self._waiting: dict[Hashable, Work] = {}  # key → the newest work not yet started
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}  # key → its running task
        self._retries: dict[Hashable, asyncio.TimerHandle] = {}
        self._failures: dict[Hashable, int] = {}  # key → failed runs in a row
        self._closed = False
        self._busy = 0  # commands being handled (``busy``)
        self._idle = asyncio.Event()
        self._idle.set()
        # Keys whose work was scheduled while a command ran: their tasks start when the
        # bot is idle (or MAX_HOLD_SECONDS later), so a command pays for no task start
        # and no timed wait of the work it leaves behind.
        self._held: set[Hashable] = set()
        self._hold_timer: asyncio.TimerHandle | None = None

    def schedule(self, key: Hashable, work: Work) -> None:
        """Run ``work`` after the reply: after the key's running work, instead of any
        work of the key still waiting. Nothing happens once the bot is closing."""
        if self._closed:
            return
        self._waiting[key] = work
        retry = self._retries.pop(key, None)
        if retry is not None:  # this newer work does what the retry would have done
            retry.cancel()
        if key in self._tasks or key in self._held:
            return
        if not self._busy:
            self._start(key)
            return
        self._held.add(key)
        if self._hold_timer is None:
            self._hold_timer = asyncio.get_running_loop().call_later(
                MAX_HOLD_SECONDS, self._release_held, True
            )

    def _start(self, key: Hashable, *, waited: bool = False) -> None:
        self._tasks[key] = asyncio.get_running_loop().create_task(
            self._run(key, waited=waited), name=f"followup {key}"
        )

    def _release_held(self, waited: bool = False) -> None:
        """Start the held keys' tasks: the bot is idle, or (``waited``) they have been
        held MAX_HOLD_SECONDS already and run now even beside a command."""
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        held, self._held = self._held, set()
        for key in held:
            if key not in self._tasks and key in self._waiting:
                self._start(key, waited=waited)

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Hold follow-up work back while a command is handled (up to MAX_HOLD_SECONDS),
        so its reply goes out before any of it runs."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()
                if self._held:
                    self._release_held()

    async def _wait_until_idle(self) -> None:
        if self._idle.is_set():
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(MAX_HOLD_SECONDS):
                await self._idle.wait()

    @property
    def handling(self) -> bool:
        """Whether a command is being handled now (inside ``busy``)."""
        return self._busy > 0

    @property
    def pending(self) -> int:
        """Keys with work waiting or running (retries waiting out their pause excluded)."""
        return len(self._tasks) + len(self._held)

    async def _run(self, key: Hashable, *, waited: bool = False) -> None:
        try:
            while key in self._waiting:
                if not waited:
                    await self._wait_until_idle()  # (work scheduled meanwhile replaces it)
                waited = False
                work = self._waiting.pop(key)
                try:
                    done = await work() is not False
                except Exception:
                    log.exception("follow-up work %s failed", key)
                    done = False
                if done:
                    self._failures.pop(key, None)
                elif key not in self._waiting:  # (newer work would redo it anyway)
                    self._retry_later(key, work)
        finally:
            self._tasks.pop(key, None)

    def _retry_later(self, key: Hashable, work: Work) -> None:
        failures = self._failures.get(key, 0)
        if failures >= len(self._retry_delays) or self._closed:
            self._failures.pop(key, None)
            log.warning("follow-up work %s given up: the next change redoes it", key)
            return
        self._failures[key] = failures + 1
        loop = asyncio.get_running_loop()
        self._retries[key] = loop.call_later(
            self._retry_delays[failures], self._retry_now, key, work
        )

    def _retry_now(self, key: Hashable, work: Work) -> None:
        self._retries.pop(key, None)
        if key not in self._waiting:  # (newer work would have cancelled this timer)
            self.schedule(key, work)

    async def drain(self) -> None:
        """Wait until no work is waiting or running, including work that work scheduled.
        Retries still pausing after a failure are not waited for."""
        self._release_held()
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self, *, grace_seconds: float = 5.0) -> None:
        """Stop taking work, finish what is queued (for up to ``grace_seconds``), cancel
        the rest."""
        self._closed = True
        self._release_held()  # (queued work still goes out, as below)
        for handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace_seconds):
                await self.drain()
        for task in list(self._tasks.values()):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
