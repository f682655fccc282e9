"""The table page, ``/t/{token}/``: the campaign's characters and running encounters, as
the viewer may see them.

What a viewer may see is the view models' (``bot.web.views.registry.table``, ruling
web-viewer-roles there): a player sees what the table sees in Discord, the GM
everything, the overlay what a stream may show. This module only maps the link's view
to the view models' role, bounds the list and renders.

At most ``MAX_LIST_ROWS`` characters are listed; the page says how many it left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.web.access import TokenPages, Viewer
from bot.web.keys import BOT, DB
from bot.web.limits import MAX_LIST_ROWS
from bot.web.rendering import guild_name, render_page
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.viewer import Role
from bot.web.views.viewer import Viewer as PageViewer

ROLES: dict[View, Role] = {View.TABLE: "player", View.GM: "gm", View.OVERLAY: "overlay"}


def page_viewer(viewer: Viewer) -> PageViewer:
    """The view models' viewer for a checked link."""
    return PageViewer(guild_id=viewer.guild_id, user_id=viewer.user_id, role=ROLES[viewer.view])


@dataclass(frozen=True)
class TablePage:
    table: Any  # the ruleset's table view model (HocsTable, TwoD10Table)
    characters: tuple[Any, ...]  # its characters, at most MAX_LIST_ROWS
    left_out: int  # characters past the bound, not listed


def channel_names(app: web.Application, guild_id: int, ids: list[int]) -> dict[int, str]:
    """Channel id → name for the encounters' channels this process has in its cache."""
    bot = app.get(BOT)
    guild = bot.get_guild(guild_id) if bot is not None else None
    found = {}
    for channel_id in ids:
        channel = guild.get_channel(channel_id) if guild is not None else None
        if channel is not None:
            found[channel_id] = channel.name
    return found


async def table_data(
    conn: Any, viewer: Viewer, *, guild: str = "", limit: int = MAX_LIST_ROWS
) -> TablePage:
    """What the table page shows ``viewer`` (reads only; no campaign row is made)."""
    table = await registry.table(conn, page_viewer(viewer), guild_name=guild)
    characters = tuple(table.characters)
    return TablePage(
        table=table,
        characters=characters[:limit],
        left_out=max(0, len(characters) - limit),
    )


async def table_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    guild = guild_name(request.app, viewer.guild_id)
    async with request.app[DB].read() as conn:
        data = await table_data(conn, viewer, guild=guild, limit=MAX_LIST_ROWS)
    ids = [encounter.channel_id for encounter in data.table.encounters]
    channels = channel_names(request.app, viewer.guild_id, ids)
    return render_page(request, viewer, "table.html", {"page": data, "channels": channels})


def register(pages: TokenPages) -> None:
    pages.home(View.TABLE, table_page, nav="Table")
    pages.home(View.GM, table_page, nav="GM screen")
    # The overlay link's home is the overlay (bot.web.overlay_page), not this table.
