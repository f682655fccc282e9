"""A character's sheet, ``/t/{token}/sheet/{character_id}``, as the viewer may see it.

What a viewer may see is the view models' (``bot.web.views.registry.sheet``: a hidden
NPC's sheet is what the public ``/character show`` shows, its numbers left out); this
module only maps the link to the view models' viewer and picks the ruleset's template.
Served to the table's and the GM's links (the overlay link opens the overlay only:
``bot.web.overlay_page``). A character of another server, or none, is "not found".
"""

from __future__ import annotations

from aiohttp import web

from bot.web.access import TokenPages, Viewer
from bot.web.keys import DB
from bot.web.page_inputs import path_id
from bot.web.rendering import render_page
from bot.web.table_page import page_viewer
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.hocs.sheet import HocsSheet

VIEWS = frozenset({View.TABLE, View.GM})


async def sheet_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    character_id = path_id(request, "character_id")
    async with request.app[DB].read() as conn:
        try:
            sheet = await registry.sheet(conn, page_viewer(viewer), character_id)
        except PageNotFound:
            raise web.HTTPNotFound() from None
    template = "sheet_hocs.html" if isinstance(sheet, HocsSheet) else "sheet_2d10.html"
    yours = viewer.view is View.TABLE and sheet.owner_id == viewer.user_id
    return render_page(request, viewer, template, {"sheet": sheet, "yours": yours})


def register(pages: TokenPages) -> None:
    pages.add("sheet/{character_id:\\d+}", sheet_page, views=VIEWS, name="sheet-page")
