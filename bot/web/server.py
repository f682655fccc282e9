"""The bot's own web server: an aiohttp application in the bot's event loop.

Started by ``TableBot.setup_hook`` when WEB_PORT is set and stopped by
``TableBot.close``, like the bot's other background parts. One server per process:
every process reads the same settings, so an operator who runs shard processes
(SHARD_IDS) gives each its own WEB_PORT (docs/operations.md); a page reads the
database, so any process serves any server's pages.

Pages plug in like cogs: each module in :data:`PAGE_MODULES` has
``register(pages: bot.web.access.TokenPages) -> None`` and may add routes of its own
to ``pages.app`` (an event stream, say) before the server starts.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from bot.web import live
from bot.web.access import TokenPages, wall_clock
from bot.web.errors import WebServerUnavailable
from bot.web.keys import BOT, CLOCK, DB, STREAMS
from bot.web.limits import MAX_STREAMS, StreamLimit
from bot.web.rendering import setup_templates
from bot.web.security import RedactingAccessLogger, guard_aiohttp_logs, security_headers

log = logging.getLogger(__name__)

PAGE_MODULES: tuple[str, ...] = (
    "bot.web.table_page",
    "bot.web.sheet_page",
    "bot.web.tracker_page",
    "bot.web.log_page",
    "bot.web.recaps_page",
    "bot.web.overlay_page",
)
# A page request is a GET with no body; anything bigger is no visitor of ours.
MAX_REQUEST_BYTES = 16 * 1024


def runner_options() -> dict[str, Any]:
    """How every runner of the application is made (tests' ``TestServer`` too): our
    access logger, since aiohttp's default would write every link's token."""
    guard_aiohttp_logs()
    return {
        "access_log_class": RedactingAccessLogger,
        "access_log": logging.getLogger("bot.web.requests"),
        "handle_signals": False,  # the bot's own loop and signals: not aiohttp's
    }


def build_app(
    db: Any,
    *,
    bot: Any = None,
    clock: Callable[[], float] = wall_clock,
    max_streams: int = MAX_STREAMS,
    page_modules: Iterable[str] = PAGE_MODULES,
) -> web.Application:
    """The application serving ``db``'s servers (``bot`` for guild names, may be None)."""
    app = web.Application(middlewares=[security_headers], client_max_size=MAX_REQUEST_BYTES)
    app[DB] = db
    app[BOT] = bot
    app[CLOCK] = clock
    app[STREAMS] = StreamLimit(max_streams)
    setup_templates(app)
    pages = TokenPages(app)
    for name in page_modules:
        importlib.import_module(name).register(pages)
    live.setup(app, pages)  # the event stream and the pages' version stamps
    pages.close()  # (last: every other address under /t/ answers after the token check)
    return app


class WebServer:
    """One listening socket for ``app`` on ``host``:``port`` (port 0: any free one,
    then :attr:`port` says which)."""

    def __init__(self, app: web.Application, *, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self._wanted_port = port
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    @property
    def running(self) -> bool:
        return self._runner is not None

    async def start(self) -> None:
        """Listen; raises WebServerUnavailable when the address is taken or not this
        machine's."""
        runner = web.AppRunner(
            self.app,
            **runner_options(),
            shutdown_timeout=1.0,  # (open event streams are cut, not waited for)
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._wanted_port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            reason = exc.strerror or exc.__class__.__name__
            raise WebServerUnavailable(
                f"the web pages can't listen on {self.host} port {self._wanted_port}"
                f" ({reason}): set WEB_HOST and WEB_PORT to a free address"
            ) from None
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        addresses = runner.addresses  # (host, port, …) of each listening socket
        self.port = int(addresses[0][1]) if addresses else self._wanted_port
        log.info("web pages served on %s port %s", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening and close open connections (idempotent)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
            log.info("web server stopped")


def server_for(bot: Any) -> WebServer | None:
    """The bot's web server per its settings, not yet started; None without WEB_PORT."""
    settings = bot.settings
    if settings.web_port is None:
        return None
    app = build_app(bot.db, bot=bot)
    return WebServer(app, host=settings.web_host, port=settings.web_port)
