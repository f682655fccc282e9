"""A channel's running encounter, ``/t/{token}/tracker/{channel_id}``: the pinned
tracker's content for a second screen (the GM's) or a player's phone.

The content is the view models' (``bot.web.views.registry.tracker``: the order, the
current turn, each combatant's hit points or status word as the viewer may see them);
this module bounds the lists and picks the ruleset's template. Served to the table's
and the GM's links; a channel with no encounter in the viewer's server is "not found".

Bounds: at most ``MAX_LIST_ROWS`` combatants are shown (slots, then the waiting; or
each side's), and the page says how many it left out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web

from bot.web.access import TokenPages, Viewer
from bot.web.keys import DB
from bot.web.limits import MAX_LIST_ROWS
from bot.web.page_inputs import path_id
from bot.web.rendering import render_page
from bot.web.table_page import channel_names, page_viewer
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.hocs.tracker import HocsTracker

VIEWS = frozenset({View.TABLE, View.GM})


@dataclass(frozen=True)
class TrackerPage:
    tracker: Any  # the ruleset's tracker view model, its lists bounded
    left_out: int  # combatants past the bound


def bounded(tracker: Any, limit: int) -> TrackerPage:
    """``tracker`` with at most ``limit`` combatants in its lists (pure)."""
    if isinstance(tracker, HocsTracker):
        total = sum(len(s.members) for s in tracker.slots) + len(tracker.waiting)
        slots, room = [], limit
        for slot in tracker.slots:
            if room <= 0:
                break
            slots.append(replace(slot, members=slot.members[:room]))
            room -= len(slot.members[:room])
        waiting = tracker.waiting[: max(room, 0)]
        shown = sum(len(s.members) for s in slots) + len(waiting)
        kept = replace(tracker, slots=tuple(slots), waiting=waiting)
        return TrackerPage(tracker=kept, left_out=total - shown)
    total = sum(len(s.combatants) for s in tracker.sides)
    sides, room = [], limit
    for side in tracker.sides:
        sides.append(replace(side, combatants=side.combatants[: max(room, 0)]))
        room -= len(sides[-1].combatants)
    shown = sum(len(s.combatants) for s in sides)
    return TrackerPage(tracker=replace(tracker, sides=tuple(sides)), left_out=total - shown)


async def tracker_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    channel_id = path_id(request, "channel_id")
    async with request.app[DB].read() as conn:
        try:
            tracker = await registry.tracker(conn, page_viewer(viewer), channel_id)
        except PageNotFound:
            raise web.HTTPNotFound() from None
    template = "tracker_hocs.html" if isinstance(tracker, HocsTracker) else "tracker_2d10.html"
    channel = channel_names(request.app, viewer.guild_id, [channel_id]).get(channel_id, "")
    return render_page(
        request, viewer, template, {"page": bounded(tracker, MAX_LIST_ROWS), "channel": channel}
    )


def register(pages: TokenPages) -> None:
    pages.add("tracker/{channel_id:\\d+}", tracker_page, views=VIEWS, name="tracker-page")
