"""One more try for the Discord errors discord.py does not retry itself.

discord.py retries 429s and 500/502/504/524 on its own, but a 503 (Service Unavailable)
reaches the caller at once. For an idempotent request (a pin, an edit) or one whose loss
is worse than a rare duplicate (a secret roll for the GM), one 503 must not be the end.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 3
FIRST_PAUSE = 0.25  # seconds; doubled after each failure (0.25, 0.5)


async def retry_server_errors(
    call: Callable[[], Awaitable[T]], what: str, *, attempts: int = ATTEMPTS
) -> T:
    """Run ``call``; on a Discord 5xx, wait and try again, ``attempts`` times in all.

    Raises the last DiscordServerError, or any other error at once.
    """
    pause = FIRST_PAUSE
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except discord.DiscordServerError as error:
            if attempt == attempts:
                raise
            log.info("Discord answered %s to %s: trying again", error.status, what)
            await asyncio.sleep(pause)
            pause *= 2
    raise AssertionError("unreachable: the loop returns or raises")
