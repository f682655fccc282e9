"""The one place the web views name both rulesets: each ruleset's pages, picked by the
campaign's ruleset, and the change check over both.

The web core calls these; each reads through the given connection (one ``db.read()``
per page keeps a page one consistent snapshot) and returns a frozen dataclass.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.rulesets import Ruleset
from bot.storage.sql import fetch_one
from bot.web.views import recaps, rolls
from bot.web.views.common import load_campaign
from bot.web.views.hocs import recaps as hocs_recaps
from bot.web.views.hocs import rolls as hocs_rolls
from bot.web.views.hocs import sheet as hocs_sheet
from bot.web.views.hocs import table as hocs_table
from bot.web.views.hocs import tracker as hocs_tracker
from bot.web.views.hocs import version as hocs_version
from bot.web.views.twod10 import recaps as twod10_recaps
from bot.web.views.twod10 import rolls as twod10_rolls
from bot.web.views.twod10 import sheet as twod10_sheet
from bot.web.views.twod10 import table as twod10_table
from bot.web.views.twod10 import tracker as twod10_tracker
from bot.web.views.twod10 import version as twod10_version
from bot.web.views.version import version_sql
from bot.web.views.viewer import Viewer

Conn = aiosqlite.Connection


@dataclass(frozen=True, kw_only=True)
class RulesetPages:
    table: Callable[..., Awaitable[Any]]  # (conn, viewer, *, guild_name="")
    sheet: Callable[[Conn, Viewer, int], Awaitable[Any]]  # (conn, viewer, character_id)
    tracker: Callable[[Conn, Viewer, int], Awaitable[Any]]  # (conn, viewer, channel_id)
    overlay: Callable[[Conn, Viewer, int], Awaitable[Any]]  # (conn, viewer, channel_id)
    rolls: rolls.RollSource
    recaps: recaps.RecapSource


PAGES: dict[Ruleset, RulesetPages] = {
    Ruleset.HOCS: RulesetPages(
        table=hocs_table.table, sheet=hocs_sheet.character_sheet, tracker=hocs_tracker.tracker,
        overlay=hocs_tracker.overlay, rolls=hocs_rolls.ROLLS, recaps=hocs_recaps.RECAPS,
    ),
    Ruleset.TWOD10: RulesetPages(
        table=twod10_table.table, sheet=twod10_sheet.character_sheet,
        tracker=twod10_tracker.tracker, overlay=twod10_tracker.overlay,
        rolls=twod10_rolls.ROLLS, recaps=twod10_recaps.RECAPS,
    ),
}  # fmt: skip

_VERSION_SQL, _VERSION_PARAMS = version_sql(
    hocs_version.VERSION_PARTS, twod10_version.VERSION_PARTS
)


async def pages_for(conn: Conn, guild_id: int) -> RulesetPages:
    """The pages of the ruleset the server plays (HOCS for a server with no campaign)."""
    return PAGES[(await load_campaign(conn, guild_id)).ruleset]


async def table(conn: Conn, viewer: Viewer, *, guild_name: str = "") -> Any:
    return await (await pages_for(conn, viewer.guild_id)).table(conn, viewer, guild_name=guild_name)


async def sheet(conn: Conn, viewer: Viewer, character_id: int) -> Any:
    return await (await pages_for(conn, viewer.guild_id)).sheet(conn, viewer, character_id)


async def tracker(conn: Conn, viewer: Viewer, channel_id: int) -> Any:
    return await (await pages_for(conn, viewer.guild_id)).tracker(conn, viewer, channel_id)


async def overlay(conn: Conn, viewer: Viewer, channel_id: int) -> Any:
    return await (await pages_for(conn, viewer.guild_id)).overlay(conn, viewer, channel_id)


async def roll_log(
    conn: Conn, viewer: Viewer, *, filters: rolls.RollFilters | None = None, page: int = 1
) -> rolls.RollLogPage:
    source = (await pages_for(conn, viewer.guild_id)).rolls
    return await rolls.roll_log(
        conn, viewer, source, filters=filters or rolls.RollFilters(), page=page
    )


async def recap_list(conn: Conn, viewer: Viewer) -> recaps.RecapList:
    return await recaps.recap_list(conn, viewer)


async def session_recap(
    conn: Conn, viewer: Viewer, number: int | None = None
) -> recaps.SessionRecap:
    source = (await pages_for(conn, viewer.guild_id)).recaps
    return await recaps.session_recap(conn, viewer, source, number)


async def version(conn: Conn, guild_id: int) -> tuple[Any, ...]:
    """A value that changes whenever anything a page of the server shows changes: one
    statement of scalar subqueries on guild indexes (``bot.web.views.version``)."""
    row = await fetch_one(conn, _VERSION_SQL, (guild_id,) * _VERSION_PARAMS)
    return tuple(row) if row is not None else ()
