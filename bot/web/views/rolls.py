"""The roll log page: the server's logged rolls, newest first, filtered and paged.

Each row is shown as logged: its kind, its expression and its total, whose character it
was for (each ruleset says where a row names its character: ``RollSource``).

Rulings:

* ``web-secret-rolls``: a secret roll is never described to anyone but the GM, the
  roller included (the page may be on a screen the table shares; the roller saw it
  ephemerally in Discord): it is listed as "a secret roll" (``described`` False) with no
  kind, character, expression or total; with a character or kind filter set, a
  non-GM's page leaves secret rolls out, so a filter can't tell whose or what they were.
* ``web-roll-paging``: 50 rows a page; a page below 1 is page 1 and one beyond
  ``MAX_PAGE`` is ``MAX_PAGE`` (the page used is in the result: a link can't make the
  database skip more than 10,000 rows); a page past the end is empty, ``has_more`` False.
  A session's filter reads its rows by their id bounds (or, stored before the bounds
  were kept, its timestamps), like its recap.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.sessions import SessionRepository
from bot.storage.sql import fetch_all
from bot.web.views.common import PageNotFound
from bot.web.views.viewer import Viewer

PAGE_SIZE = 50
MAX_PAGE = 200
MAX_KIND = 40  # roll kinds are short words ("check", "2d10-attack"): longer finds nothing
SECRET_TEXT = "a secret roll"


@dataclass(frozen=True, kw_only=True)
class RollSource:
    """What a ruleset tells the roll log (``hocs/rolls.py``, ``twod10/rolls.py``)."""

    names: Callable[[aiosqlite.Connection, int], Awaitable[Mapping[int, str]]]  # id → name
    reads_result: bool  # whether ``roller`` needs the row's result JSON
    roller: Callable[[Mapping[str, Any]], int | None]  # a row (as read) → character id
    character_filter: Callable[[int], tuple[str, tuple[object, ...]]]  # SQL and params


@dataclass(frozen=True, kw_only=True)
class RollFilters:
    character_id: int | None = None
    kind: str | None = None
    session: int | None = None  # a session number


@dataclass(frozen=True, kw_only=True)
class RollRow:
    id: int
    created_at: str
    user_id: int
    secret: bool
    described: bool  # False: a secret roll shown to a non-GM (no kind, dice or total)
    text: str  # SECRET_TEXT when not described, else ""
    kind: str
    character: str  # the character's name, "" for none (or not described)
    expression: str
    total: int | None


@dataclass(frozen=True, kw_only=True)
class RollLogPage:
    rows: tuple[RollRow, ...]
    page: int  # the page shown (after clamping)
    page_size: int
    has_more: bool
    filters: RollFilters
    characters: tuple[tuple[int, str], ...]  # the filter's choices: (id, name), by name


def clamp_page(page: int) -> int:
    """Ruling web-roll-paging: 1 to MAX_PAGE."""
    return min(max(int(page), 1), MAX_PAGE)


async def _span(conn: aiosqlite.Connection, guild_id: int, number: int) -> tuple[str, list[Any]]:
    session = await SessionRepository(conn).numbered(guild_id, number)
    if session is None:
        raise PageNotFound("no such session")
    if session.first_log_id is None:  # stored before migration 0019: by its timestamps
        sql, params = " AND created_at >= ?", [session.started_at]
        if session.ended_at is not None:
            sql += " AND created_at <= ?"
            params.append(session.ended_at)
        return sql, params
    sql, params = " AND id >= ?", [session.first_log_id]
    if session.last_log_id is not None:
        sql += " AND id <= ?"
        params.append(session.last_log_id)
    return sql, params


async def roll_log(
    conn: aiosqlite.Connection,
    viewer: Viewer,
    source: RollSource,
    *,
    filters: RollFilters | None = None,
    page: int = 1,
) -> RollLogPage:
    """One page of the viewer's server's roll log (three statements, four with a session)."""
    page = clamp_page(page)
    filters = filters or RollFilters()
    columns = "id, created_at, user_id, kind, expression, total, secret, character_id"
    if source.reads_result:
        columns += ", result"
    sql = f"SELECT {columns} FROM roll_log WHERE guild_id = ?"
    params: list[Any] = [viewer.guild_id]
    if filters.session is not None:
        more, values = await _span(conn, viewer.guild_id, filters.session)
        sql += more
        params += values
    if filters.character_id is not None:
        more, values = source.character_filter(filters.character_id)
        sql += f" AND {more}"
        params += values
    if filters.kind is not None:
        sql += " AND kind = ?"
        params.append(filters.kind[:MAX_KIND])
    if not viewer.is_gm and (filters.character_id is not None or filters.kind is not None):
        sql += " AND secret = 0"  # ruling web-secret-rolls: a filter can't single them out
    sql += " ORDER BY id DESC LIMIT ? OFFSET ?"
    params += [PAGE_SIZE + 1, (page - 1) * PAGE_SIZE]
    found = await fetch_all(conn, sql, params)
    names = await source.names(conn, viewer.guild_id)
    rows = tuple(_row(r, viewer, source, names) for r in found[:PAGE_SIZE])
    return RollLogPage(
        rows=rows, page=page, page_size=PAGE_SIZE, has_more=len(found) > PAGE_SIZE,
        filters=filters,
        characters=tuple(sorted(names.items(), key=lambda item: (item[1].casefold(), item[0]))),
    )  # fmt: skip


def _row(row: Any, viewer: Viewer, source: RollSource, names: Mapping[int, str]) -> RollRow:
    secret = bool(row["secret"])
    if secret and not viewer.is_gm:
        return RollRow(
            id=row["id"], created_at=row["created_at"], user_id=row["user_id"], secret=True,
            described=False, text=SECRET_TEXT, kind="", character="", expression="", total=None,
        )  # fmt: skip
    character_id = source.roller(row)
    return RollRow(
        id=row["id"], created_at=row["created_at"], user_id=row["user_id"], secret=secret,
        described=True, text="", kind=row["kind"],
        character=names.get(character_id, "") if character_id is not None else "",
        expression=row["expression"], total=row["total"],
    )  # fmt: skip
