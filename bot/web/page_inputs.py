"""What a page reads from its address: ids in the path, numbers in the query.

Ids in a path are matched as digits by the route (``{character_id:\\d+}``), so a word
there is the "not found" of an unknown address; a digit string too long for the
database's 64-bit ids is not found either (no query is made with it, so PostgreSQL
never sees an out-of-range number). Whatever a viewer's server has not, the answer is
the same 404, as ``bot.web.views.common.PageNotFound`` asks.
"""

from __future__ import annotations

from aiohttp import web

MAX_ID = 2**63 - 1  # the databases' INTEGER / BIGINT


def path_id(request: web.Request, name: str) -> int:
    """The path's ``name`` as an id; 404 when it can't be one of ours."""
    text = request.match_info.get(name, "")
    if not text.isdigit() or len(text) > 19 or int(text) > MAX_ID:
        raise web.HTTPNotFound()
    return int(text)


def query_int(value: str | None, *, low: int = 0) -> int | None:
    """A query value as a whole number: None for empty; raises ValueError for anything
    that isn't digits (or is out of ``low`` to MAX_ID)."""
    text = (value or "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        raise ValueError(value)
    number = int(text)
    if number < low or number > MAX_ID:
        raise ValueError(value)
    return number
