"""Bounds that keep one process's web pages cheap, whoever opens them.

``MAX_LIST_ROWS`` caps any list a page shows (a page says how many it left out);
:class:`StreamLimit` counts the open event streams (live updates) of this process and
refuses the one past its maximum with a polite 503 (a browser's ``EventSource`` gives up
on a refused stream, so ``static/live.js`` tries again itself after 5-30 s).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from aiohttp import web

MAX_LIST_ROWS = 200  # characters, combatants, log rows on one page
MAX_STREAMS = 300  # "a few hundred open event streams per process" (issue 28)
STREAMS_FULL = "Too many live pages are open on this bot right now: try again in a minute.\n"
RETRY_AFTER_SECONDS = 30


class StreamLimit:
    """How many event streams are open in this process, at most ``max``.

    Use :meth:`hold` around a stream's life::

        with request.app[STREAMS].hold():
            ...  # write events until the visitor leaves

    Single-threaded (the event loop): no lock needed.
    """

    def __init__(self, max: int = MAX_STREAMS) -> None:
        if max < 0:
            raise ValueError("a stream limit can't be negative")
        self.max = max
        self.open = 0

    def try_open(self) -> bool:
        """Count one more stream if there is room; whether there was."""
        if self.open >= self.max:
            return False
        self.open += 1
        return True

    def release(self) -> None:
        """One stream closed (each :meth:`try_open` that returned True, once)."""
        if self.open <= 0:
            raise RuntimeError("released a stream that was never opened")
        self.open -= 1

    @contextmanager
    def hold(self) -> Iterator[None]:
        """A stream's slot for the block; raises :func:`streams_full` when none is free."""
        if not self.try_open():
            raise streams_full()
        try:
            yield
        finally:
            self.release()


def streams_full() -> web.HTTPServiceUnavailable:
    """The polite refusal past the limit: 503, one line of text, when to retry."""
    return web.HTTPServiceUnavailable(
        text=STREAMS_FULL, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )
