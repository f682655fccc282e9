"""The session recaps: ``/t/{token}/recaps`` (the server's sessions), ``/recaps/{number}``
(one session's recap) and ``/recaps/{number}/chart.png`` (its luck chart).

The figures are the Discord recap's, in its words (``bot.render.recap.figures_lines``,
from ``bot.web.views.registry.session_recap``): the head (rolls, fights, rounds, NPCs'
rolls, the luckiest and unluckiest roll), each player character's figures and the
party's. A player's recap is the public one, the GM's the private one with secret rolls
(the view models decide, from the link). Served to the table's and the GM's links.

The chart is ``bot.render.recap_chart.render_luck_chart`` of the recap's luck series,
drawn in a worker thread (Pillow's work would hold the event loop for milliseconds) and
kept per (server, session, role) for ``CHART_SECONDS`` (ruling ``web-chart-cache``): a
page and its image are fetched together and a table opens the same recap at once, so
one drawing serves them all; a running session's chart is at most that much behind.
At most ``CHART_ENTRIES`` charts are kept per process, the oldest dropped first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.render.recap import figures_lines
from bot.render.recap_chart import render_luck_chart
from bot.render.text import plural
from bot.rules.generic.recap import Highlight
from bot.web.access import TokenPages, Viewer
from bot.web.keys import CLOCK, DB
from bot.web.limits import MAX_LIST_ROWS
from bot.web.page_inputs import path_id
from bot.web.rendering import render_page
from bot.web.table_page import page_viewer
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.recaps import SessionRecap

VIEWS = frozenset({View.TABLE, View.GM})
CHART_SECONDS = 60.0
CHART_ENTRIES = 64  # a few MB of PNGs at most


def highlight_line(word: str, chosen: Highlight | None) -> str | None:
    """The Discord recap's luckiest/unluckiest line as plain text (no markdown, no jump
    link: the page isn't Discord)."""
    if chosen is None:
        return None
    facts, luck = chosen.facts, chosen.luck
    what = facts.label or facts.kind
    if luck.part:
        what += f" ({luck.part})"
    if luck.owner:
        what = f"{luck.owner}: {what}"
    return f"{word}: {what}, {round(float(luck.percentile) * 100)} %"


@dataclass(frozen=True)
class RecapPage:
    recap: SessionRecap
    head: tuple[str, ...]  # the summary lines
    characters: tuple[tuple[str, tuple[str, ...]], ...]  # (name, figure lines), bounded
    party: tuple[str, ...]
    left_out: int


def recap_page_of(data: SessionRecap, limit: int) -> RecapPage:
    """The page's lines from the recap view model (pure)."""
    result, ruleset = data.recap, data.ruleset
    head = [
        f"{plural(result.rolls, 'roll')} in all; {plural(result.fights, 'fight')},"
        f" {plural(result.rounds, 'round')} fought."
    ]
    if result.other_rolls:
        head.append(f"{plural(result.other_rolls, 'roll')} for NPCs or nobody in particular.")
    for word, chosen in (("Luckiest", result.luckiest), ("Unluckiest", result.unluckiest)):
        line = highlight_line(word, chosen)
        if line:
            head.append(line)
    characters = tuple(
        (name, tuple(figures_lines(figures, ruleset=ruleset)))
        for name, figures in result.characters[:limit]
    )
    return RecapPage(
        recap=data, head=tuple(head), characters=characters,
        party=tuple(figures_lines(result.party, ruleset=ruleset)),
        left_out=max(0, len(result.characters) - limit),
    )  # fmt: skip


async def recap_list_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    async with request.app[DB].read() as conn:
        found = await registry.recap_list(conn, page_viewer(viewer))
    sessions = found.sessions[:MAX_LIST_ROWS]
    context = {"sessions": sessions, "left_out": len(found.sessions) - len(sessions)}
    return render_page(request, viewer, "recaps.html", context)


async def _recap(request: web.Request, viewer: Viewer, number: int) -> SessionRecap:
    async with request.app[DB].read() as conn:
        try:
            return await registry.session_recap(conn, page_viewer(viewer), number)
        except PageNotFound:
            raise web.HTTPNotFound() from None


async def recap_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    data = await _recap(request, viewer, path_id(request, "number"))
    chart = viewer.link(f"recaps/{data.number}/chart.png")
    return render_page(
        request, viewer, "recap.html", {"page": recap_page_of(data, MAX_LIST_ROWS), "chart": chart}
    )


class ChartCache:
    """PNG bytes per key for ``seconds`` after they were drawn, at most ``entries``."""

    def __init__(self, *, seconds: float = CHART_SECONDS, entries: int = CHART_ENTRIES) -> None:
        self.seconds = seconds
        self.entries = entries
        self._kept: OrderedDict[Any, tuple[float, bytes]] = OrderedDict()

    def get(self, key: Any, now: float) -> bytes | None:
        found = self._kept.get(key)
        if found is None:
            return None
        if now - found[0] >= self.seconds:
            del self._kept[key]
            return None
        return found[1]

    def put(self, key: Any, now: float, png: bytes) -> None:
        self._kept[key] = (now, png)
        self._kept.move_to_end(key)
        while len(self._kept) > self.entries:
            self._kept.popitem(last=False)


def chart_route(cache: ChartCache) -> Any:
    async def chart_png(request: web.Request, viewer: Viewer) -> web.StreamResponse:
        number = path_id(request, "number")
        key = (viewer.guild_id, number, page_viewer(viewer).role)
        now = request.app[CLOCK]()
        png = cache.get(key, now)
        if png is None:
            data = await _recap(request, viewer, number)
            png = await asyncio.to_thread(render_luck_chart, list(data.luck))
            cache.put(key, now, png)
        return web.Response(body=png, content_type="image/png")

    return chart_png


def register(pages: TokenPages) -> None:
    pages.add("recaps", recap_list_page, views=VIEWS, name="recaps-page", nav="Recaps")
    pages.add("recaps/{number:\\d+}", recap_page, views=VIEWS, name="recap-page")
    # One cache per application (each build_app), so tests' servers never share one.
    pages.add(
        "recaps/{number:\\d+}/chart.png", chart_route(ChartCache()), views=VIEWS,
        name="recap-chart",
    )  # fmt: skip
