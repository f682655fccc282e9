"""Full garbage collections when the bot is idle, not inside a command.

CPython runs a full (generation 2) collection on its own once enough objects have
survived into the old generation; it walks every object not frozen at start-up (the
parsed-sheet caches, discord.py's message cache…), which took 80–90 ms in the
benchmark's state, inside whichever command allocated the last object. Here the
automatic full collection is made rare (``OLD_THRESHOLD`` young collections instead
of 10, a safety net for a bot that is never idle) and a task runs it instead when no
command or transaction has run for ``IDLE_SECONDS``, as the WAL checkpoint does.
The youngest generation is collected as before: its pauses are short. The middle
one is treated like the old one: a collection of it walks every object that survived
a young collection since the last one (the caches a command fills), 1–3 ms in the
benchmark, once in about 100 commands, which was most of their p99. The interpreter
now starts one only after ``MIDDLE_THRESHOLD`` young collections; the task runs it
whenever the bot is idle (it is short enough not to wait ``MIN_INTERVAL_SECONDS``).

The youngest generation is collected after the reply too (``collect_young_soon``):
CPython collects it when 700 more containers were made than freed, inside whichever
command made the last one, and on this 2-core machine one such collection took
250–500 µs (it walks every reference of every young container), in about 1 command in
8: most of a light command's p99. Once a command has left ``YOUNG_AFTER_REPLY`` young
containers, the command tree (``bot.client.TableTree``) schedules a young collection as
follow-up work (``bot.delivery.followups``), after the reply; a command then starts with a
nearly empty young generation, and one collected inside a command is rare.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

OLD_THRESHOLD = 1000  # CPython's default is 10
MIDDLE_THRESHOLD = 1000  # CPython's default is 10
IDLE_SECONDS = 0.5
PERIOD_SECONDS = 1.0
MIN_INTERVAL_SECONDS = 30.0  # between two idle collections
# Young containers left after a command that make a young collection follow its reply.
# Well under CPython's 700, so the next command rarely reaches 700 itself; not much
# lower, as each collection has its fixed cost too.
YOUNG_AFTER_REPLY = 250
YOUNG_KEY = "young collection"  # the follow-up key (``bot.delivery.followups``)


class IdleCollector:
    """Runs the full collections the interpreter no longer starts itself (``start``)."""

    def __init__(self, idle_for: Callable[[], float]) -> None:
        self._idle_for = idle_for  # seconds since the bot last did anything
        self._task: asyncio.Task[None] | None = None
        self._last = time.monotonic()

    def start(self) -> None:
        if self._task is not None:
            return
        young, _, _ = gc.get_threshold()
        gc.set_threshold(young, MIDDLE_THRESHOLD, OLD_THRESHOLD)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="idle-gc")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PERIOD_SECONDS)
            if not self.collect_if_idle():
                self.collect_middle_if_idle()

    def collect_young_soon(
        self, schedule: Callable[[str, Callable[[], Awaitable[object]]], None]
    ) -> bool:
        """After a command: schedule a young collection as follow-up work (``schedule``
        is ``FollowUps.schedule``) if the young generation has filled past
        ``YOUNG_AFTER_REPLY``; only once ``start`` ran (a started bot)."""
        if self._task is None or gc.get_count()[0] < YOUNG_AFTER_REPLY:
            return False
        schedule(YOUNG_KEY, _collect_young)
        return True

    def collect_middle_if_idle(self) -> bool:
        """Collect the young and middle generations if the bot is idle and a young
        collection has run since (what the interpreter no longer does every 10)."""
        if self._idle_for() < IDLE_SECONDS or gc.get_count()[1] == 0:
            return False
        gc.collect(1)
        return True

    def collect_if_idle(self, *, now: float | None = None) -> bool:
        """Collect everything if the bot is idle, the old generation has grown since the
        last full collection and the last idle one is ``MIN_INTERVAL_SECONDS`` old."""
        now = time.monotonic() if now is None else now
        if self._idle_for() < IDLE_SECONDS or now - self._last < MIN_INTERVAL_SECONDS:
            return False
        if gc.get_count()[2] == 0:  # no young collection since the last full one
            return False
        self._last = now
        started = time.perf_counter()
        found = gc.collect()
        log.debug("idle full collection: %d unreachable, %.1f ms", found, _ms(started))
        return True

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


async def _collect_young() -> None:
    gc.collect(0)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
