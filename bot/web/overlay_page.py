"""The stream overlay: ``/t/{token}/overlay`` (the server's fight) and
``/t/{token}/overlay/{channel_id}`` (one channel's), also the overlay link's home page.

The running encounter's order, the current turn highlighted, and each combatant's
public hit points or status word and conditions, in large type on a transparent
background for an OBS browser source, without the pages' navigation. Its content is
the view models' overlay (``bot.web.views.registry.overlay``, ruling
web-overlay-public: a player's sight, whoever opened it), so no hidden NPC state is in
the page. Only the overlay link opens these pages, and only they may be framed (ruling
web_framing, ``bot.web.security.allow_framing``).

Ruling ``web-overlay-pick``: the bare overlay shows the server's one running encounter;
with several, the one saved most recently (the ruleset's encounter row's
``updated_at``, the newest row on a tie), as that is the fight the table is playing
now; with none, a short "No fight is running." page (200, so a browser source keeps
showing it and the live updates replace it when a fight begins). A channel's overlay
of a channel with no encounter in the server is "not found".
"""

from __future__ import annotations

from typing import Any

import aiosqlite
from aiohttp import web

from bot.rulesets import Ruleset
from bot.storage.sql import fetch_one
from bot.web.access import TokenPages, Viewer
from bot.web.keys import DB
from bot.web.limits import MAX_LIST_ROWS
from bot.web.page_inputs import path_id
from bot.web.rendering import render_page
from bot.web.security import allow_framing
from bot.web.table_page import page_viewer
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.common import PageNotFound, load_campaign

VIEWS = frozenset({View.OVERLAY})
# Each ruleset's encounter table (module constants, never user input).
ENCOUNTER_TABLES = {Ruleset.HOCS: "encounters", Ruleset.TWOD10: "twod10_encounters"}


async def latest_channel(conn: aiosqlite.Connection, guild_id: int) -> int | None:
    """The channel of the server's most recently saved running encounter, or None
    (ruling web-overlay-pick; one statement on the guild index, a handful of rows)."""
    table = ENCOUNTER_TABLES[(await load_campaign(conn, guild_id)).ruleset]
    row = await fetch_one(
        conn,
        f"SELECT channel_id FROM {table} WHERE guild_id = ?"
        " ORDER BY updated_at DESC, id DESC LIMIT 1",
        (guild_id,),
    )
    return int(row[0]) if row is not None else None


def _render(request: web.Request, viewer: Viewer, overlay: Any) -> web.StreamResponse:
    entries = overlay.entries[:MAX_LIST_ROWS] if overlay is not None else ()
    left_out = len(overlay.entries) - len(entries) if overlay is not None else 0
    context = {"overlay": overlay, "entries": entries, "left_out": left_out}
    return allow_framing(render_page(request, viewer, "overlay.html", context))


async def overlay_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    """The server's fight (the overlay link's home and ``/overlay``)."""
    async with request.app[DB].read() as conn:
        channel_id = await latest_channel(conn, viewer.guild_id)
        overlay = None
        if channel_id is not None:
            try:
                overlay = await registry.overlay(conn, page_viewer(viewer), channel_id)
            except PageNotFound:  # (a row the view model doesn't take: none to show)
                overlay = None
    return _render(request, viewer, overlay)


async def channel_overlay_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    channel_id = path_id(request, "channel_id")
    async with request.app[DB].read() as conn:
        try:
            overlay = await registry.overlay(conn, page_viewer(viewer), channel_id)
        except PageNotFound:
            raise web.HTTPNotFound() from None
    return _render(request, viewer, overlay)


def register(pages: TokenPages) -> None:
    pages.home(View.OVERLAY, overlay_page, nav="Overlay")
    pages.add("overlay", overlay_page, views=VIEWS, name="overlay-page")
    pages.add(
        "overlay/{channel_id:\\d+}", channel_overlay_page, views=VIEWS, name="overlay-channel"
    )
