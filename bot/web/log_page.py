"""The roll log, ``/t/{token}/log?character=&kind=&session=&page=``: the server's logged
rolls, newest first, 50 a page, with a small GET form for its filters (no script).

What each row shows is the view models' (``bot.web.views.registry.roll_log``: a secret
roll is described to the GM only, ruling web-secret-rolls; the page number is clamped
to 1..200, ruling web-roll-paging).

Ruling ``web-log-query``: ``character``, ``session`` and ``page`` are whole numbers and
``kind`` a word of at most 40 characters, each optional (empty is "any"). A value that
is none of these (``page=two``, ``character=-1``) is answered with a plain 400 line
saying what to fix rather than silently dropped, so a mistyped filter never looks like
"no rolls match"; a session the server doesn't have is "not found", as its recap is.
A character id the server doesn't have matches no row (an empty page, the form still
there to change it).
"""

from __future__ import annotations

from urllib.parse import urlencode

from aiohttp import web

from bot.web.access import TokenPages, Viewer
from bot.web.keys import DB
from bot.web.page_inputs import query_int
from bot.web.rendering import render_page
from bot.web.table_page import page_viewer
from bot.web.tokens import View
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.rolls import MAX_KIND, RollFilters

VIEWS = frozenset({View.TABLE, View.GM})
BAD_QUERY = (
    "The roll log's filters are: character, session and page as whole numbers, kind as"
    f" a word of at most {MAX_KIND} characters; pick them in the page's form.\n"
)


def read_query(query: web.Request | object) -> tuple[RollFilters, int]:
    """The filters and page of a request's query; ValueError for a bad value."""
    get = query.get  # type: ignore[attr-defined]
    character = query_int(get("character"), low=1)
    session = query_int(get("session"), low=1)
    page = query_int(get("page"), low=0) or 1
    kind = (get("kind") or "").strip()
    if len(kind) > MAX_KIND:
        raise ValueError(kind)
    filters = RollFilters(character_id=character, kind=kind or None, session=session)
    return filters, page


def page_query(filters: RollFilters, page: int) -> str:
    """The query string of one page of the log with ``filters`` (paging links)."""
    pairs = [
        (key, value)
        for key, value in (
            ("character", filters.character_id),
            ("kind", filters.kind),
            ("session", filters.session),
        )
        if value is not None
    ]
    if page != 1:
        pairs.append(("page", page))
    return urlencode(pairs)


async def log_page(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    try:
        filters, page = read_query(request.query)
    except ValueError:
        return web.Response(status=400, text=BAD_QUERY)
    async with request.app[DB].read() as conn:
        try:
            data = await registry.roll_log(conn, page_viewer(viewer), filters=filters, page=page)
        except PageNotFound:
            raise web.HTTPNotFound() from None
    here = viewer.link("log")

    def address(number: int) -> str:
        query = page_query(data.filters, number)
        return f"{here}?{query}" if query else here

    kinds = sorted({row.kind for row in data.rows if row.kind})
    context = {
        "page": data,
        "kinds": kinds,
        "previous": address(data.page - 1) if data.page > 1 else None,
        "next": address(data.page + 1) if data.has_more else None,
        "here": here,
        "max_kind": MAX_KIND,
        "filtered": filters != RollFilters(),
    }
    return render_page(request, viewer, "log.html", context)


def register(pages: TokenPages) -> None:
    pages.add("log", log_page, views=VIEWS, name="log-page", nav="Roll log")
