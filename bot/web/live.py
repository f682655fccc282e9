"""Live updates: the event stream ``/t/{token}/events`` and what feeds it.

A page the bot serves loads ``static/live.js``, which opens an ``EventSource`` on the
address in ``<body data-events>``; when the stream says ``changed``, the script fetches
the same page again and swaps its ``<main>`` (no reload; without JavaScript the page
is simply static). The stream (:func:`events`):

- needs a valid link like every page (registered through ``TokenPages``), holds one of
  the process's ``StreamLimit`` slots (a polite 503 past the maximum), and checks its
  token again every ``recheck_seconds``: after ``/web revoke`` it says ``gone`` and
  ends, and the script reloads the page, which is then the 403 page;
- says ``changed`` with the server's new stamp when ``bot.web.live_watcher`` sees the
  server's version move (within ``POLL_SECONDS``, from any process: see there), a
  comment line every ``heartbeat_seconds`` so proxies keep it open and a visitor who
  left is noticed, and ``retry:`` so the browser reconnects by itself after a restart;
- ends cleanly when the server stops (the watcher's stop wakes every stream).

No page misses a change made between its read and its stream's start: every page
carries the stamp of a version read *before* its own read (``data-version``, put in
by :func:`stamp_pages`), the stream compares it, and so does a reconnecting browser's
``Last-Event-ID`` (the stamp of the last event it saw). A stale stamp costs one extra
refresh at worst, never a missed change.

What a stream tells a player or an overlay: only *that* the server's pages changed,
never what; a change to hidden NPC state refreshes their page too, which then shows
nothing new (the same as watching the channel's tracker message being edited).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import aiohttp_jinja2
from aiohttp import web

from bot.web import tokens
from bot.web.access import TokenPages, Viewer, check_token
from bot.web.keys import BOT, DB, STREAMS
from bot.web.live_watcher import VersionWatcher
from bot.web.security import Handler, headers_for
from bot.web.tokens import Refusal, View

log = logging.getLogger(__name__)

EVENTS_PATH = "events"
RETRY_MS = 2000  # how soon a browser reconnects after the stream ended (a restart)


@dataclass
class LiveSettings:
    heartbeat_seconds: float = 15.0
    recheck_seconds: float = 30.0  # a revoked link's open streams end within this
    # How often a quiet stream looks whether its visitor is still connected: aiohttp
    # doesn't tell a handler that its client left, and a stream gone unnoticed would
    # hold its StreamLimit slot until its next write (a heartbeat, 15 s later).
    liveness_seconds: float = 1.0


WATCHER: web.AppKey[VersionWatcher] = web.AppKey("tablebot.live.watcher", VersionWatcher)
SETTINGS: web.AppKey[LiveSettings] = web.AppKey("tablebot.live.settings", LiveSettings)


def setup(app: web.Application, pages: TokenPages) -> None:
    """The watcher, the stream's route and the pages' stamps for ``app``
    (``bot.web.server.build_app`` calls this before ``pages.close()``)."""
    app[WATCHER] = VersionWatcher(app[DB])
    app[SETTINGS] = LiveSettings()
    app.middlewares.append(stamp_pages)
    pages.add(EVENTS_PATH, events, views=frozenset(View), name="events")
    app.on_startup.append(_start)
    app.on_shutdown.append(_stop)


async def _start(app: web.Application) -> None:
    watcher = app[WATCHER]
    watcher.start()
    if getattr(app[DB], "backend", "sqlite") == "postgresql":
        from bot.web.live_pg import PgChanges  # (psycopg: only with a PostgreSQL URL)

        app[_PG] = changes = PgChanges(app[DB], watcher)
        changes.start()
    bot = app[BOT]
    if bot is not None and hasattr(bot, "add_listener"):
        app[_LISTENER] = listener = _changed_listener(app)
        bot.add_listener(listener, "on_characters_changed")


async def _stop(app: web.Application) -> None:
    listener = app.get(_LISTENER)
    if listener is not None:
        app[BOT].remove_listener(listener, "on_characters_changed")
    changes = app.get(_PG)
    if changes is not None:
        await changes.stop()
    await app[WATCHER].stop()  # (every open stream ends now: the runner waits for none)


_PG: web.AppKey[object] = web.AppKey("tablebot.live.pg", object)
_LISTENER: web.AppKey[object] = web.AppKey("tablebot.live.listener", object)


def _changed_listener(app: web.Application):  # type: ignore[no-untyped-def]
    """This process's own notice that characters were written (``bot.delivery.events``):
    read that server's version at once instead of within a period, and on PostgreSQL
    tell the other processes too; after the command's reply (``bot.delivery.followups``),
    so no command waits for a page's read."""

    async def tell(guild_id: int) -> None:
        app[WATCHER].nudge(guild_id)
        changes = app.get(_PG)
        if changes is not None:
            changes.tell(guild_id)  # type: ignore[attr-defined]

    async def on_characters_changed(guild_id: int, character_ids: tuple[int, ...]) -> None:
        followups = getattr(app[BOT], "followups", None)
        if followups is None:
            await tell(guild_id)
        else:
            followups.schedule(("web live", guild_id), lambda: tell(guild_id))

    return on_characters_changed


@web.middleware
async def stamp_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Before a token page's handler reads anything: the server's stamp, for
    ``base.html``'s ``data-version`` (see the module docstring). Shown only by a page
    that passed its token check; an address that is no token reads nothing."""
    token = request.match_info.get("token")
    if token is not None and request.match_info.route.name != "events":
        claims = tokens.read(token)
        if claims is not None:
            stamp = await request.app[WATCHER].stamp_now(claims.guild_id)
            context = request.setdefault(aiohttp_jinja2.REQUEST_CONTEXT_KEY, {})
            context["live_stamp"] = stamp
    return await handler(request)


def _event(name: str, stamp: str) -> bytes:
    return f"id: {stamp}\nevent: {name}\ndata: {stamp}\n\n".encode()


async def events(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    """The page's event stream (see the module docstring)."""
    app = request.app
    watcher, settings = app[WATCHER], app[SETTINGS]
    since = request.headers.get("Last-Event-ID") or request.query.get("since", "")
    with app[STREAMS].hold():  # (raises the 503 before anything is sent)
        response = web.StreamResponse(
            headers={
                **headers_for(request),
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        await response.prepare(request)
        try:
            async with watcher.watch(viewer.guild_id) as seen:
                await response.write(f"retry: {RETRY_MS}\n".encode() + _event("ready", seen))
                if since and since != seen:
                    await response.write(_event("changed", seen))
                await _stream(request, response, viewer, seen, settings)
        except ConnectionResetError:  # the visitor left: nothing to finish
            pass
    return response


async def _stream(
    request: web.Request,
    response: web.StreamResponse,
    viewer: Viewer,
    seen: str,
    settings: LiveSettings,
) -> None:
    watcher = request.app[WATCHER]
    clock = asyncio.get_running_loop().time
    beat_at = clock() + settings.heartbeat_seconds
    check_at = clock() + settings.recheck_seconds
    while not watcher.closing:
        timeout = max(0.0, min(beat_at, check_at, clock() + settings.liveness_seconds) - clock())
        stamp = await watcher.wait_change(viewer.guild_id, seen, timeout)
        transport = request.transport
        if watcher.closing or transport is None or transport.is_closing():
            return  # (the server stops, or the visitor left)
        now = clock()
        if stamp != seen:
            seen = stamp
            await response.write(_event("changed", seen))
            beat_at = now + settings.heartbeat_seconds
        if now >= check_at:
            checked = await check_token(request.app, viewer.token)
            if isinstance(checked, Refusal) or checked.view is not viewer.view:
                await response.write(b"event: gone\ndata: \n\n")
                return
            check_at = now + settings.recheck_seconds
        if now >= beat_at:
            await response.write(b": still here\n\n")
            beat_at = now + settings.heartbeat_seconds
