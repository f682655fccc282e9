"""A page module as later pages will be (bot.web.server.PAGE_MODULES): registered in
tests to show that a plugged-in page gets the checks and headers of every page."""

from __future__ import annotations

from aiohttp import web

from bot.web.access import TokenPages, Viewer
from bot.web.tokens import View


async def gm_notes(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return web.Response(text=f"notes of guild {viewer.guild_id} for {viewer.user_id}")


async def broken(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    raise RuntimeError(f"failed at {request.path}")  # (the path holds the token)


async def sheet(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return web.Response(text=f"sheet {int(request.match_info['number'])}")


def register(pages: TokenPages) -> None:
    pages.add("notes", gm_notes, views={View.GM}, name="notes", nav="Notes")
    pages.add("broken", broken, views=set(View), name="broken")
    pages.add("sheet/{number:\\d+}", sheet, views={View.TABLE, View.GM}, name="sheet")
