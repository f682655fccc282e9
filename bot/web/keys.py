"""The web application's shared state, as typed ``web.AppKey`` entries.

``request.app[DB]`` is the bot's database, ``[CLOCK]`` the time in Unix seconds (tests
pass their own), ``[STREAMS]`` the open event-stream counter of this process, ``[BOT]``
the bot itself (None in tests that serve pages without one), ``[PAGES]`` the
registry of token pages (``bot.web.access.TokenPages``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.web.limits import StreamLimit

DB: web.AppKey[Any] = web.AppKey("tablebot.db", object)  # Database | PgDatabase
CLOCK: web.AppKey[Callable[[], float]] = web.AppKey("tablebot.clock", object)
STREAMS: web.AppKey[StreamLimit] = web.AppKey("tablebot.streams", object)
BOT: web.AppKey[Any] = web.AppKey("tablebot.bot", object)
# bot.web.access.TokenPages (not imported: access reads these keys, a cycle otherwise)
PAGES: web.AppKey[Any] = web.AppKey("tablebot.pages", object)
