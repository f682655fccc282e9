"""The recap pages: the server's sessions, and one session's recap with its luck chart.

The figures are the Discord recap's (``cogs.recap_commands``, which ``bot/`` may not
import): the session's roll-log rows (by its id bounds, or its timestamps when stored
before they were kept) read by the ruleset's ``facts_of`` and summed by
``bot.rules.generic.recap.recap``, the fights that ended while it ran, and (HOCS) the
points gained. A player's and the overlay's recap is the public one (secret rolls
counted, never described: no luck, never a highlight, left out of the chart); the GM's
is the private one with everything, as ``/session recap private:True``.

The chart is ``bot.render.recap_chart.render_luck_chart(list(page.luck))`` (a PNG); the
web core serves it. Without a number the page is the last ended session, else the
running one, as ``/session recap`` picks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import aiosqlite

from bot.rules.generic.recap import LoggedRow, Recap, RollFacts, recap
from bot.storage.fights import fights_between
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import GameSession, SessionRepository
from bot.storage.sql import fetch_all
from bot.web.views.common import PageNotFound
from bot.web.views.viewer import Viewer

MAX_SESSIONS = 500  # the list's bound (a weekly game plays 50 a year)
MAX_ROWS = 1_000_000  # a session's rows are read at most this far (as the Discord recap)

FactsOf = Callable[[LoggedRow, Mapping[int, str]], RollFacts]
PlayersOf = Callable[[aiosqlite.Connection, int], Awaitable[Mapping[int, str]]]
GainsOf = Callable[
    [aiosqlite.Connection, int, str, str | None], Awaitable[list[tuple[int, str, int]]]
]


@dataclass(frozen=True, kw_only=True)
class RecapSource:
    """What a ruleset brings (``hocs/recaps.py``, ``twod10/recaps.py``)."""

    ruleset: str  # "hocs" or "2d10" (the dice words of the figures)
    facts_of: FactsOf
    players_of: PlayersOf  # the player characters: id → name
    gains_of: GainsOf | None = None  # points gained (HOCS); None: the ruleset has none


@dataclass(frozen=True, kw_only=True)
class SessionRow:
    number: int
    adventure: int
    one_shot: bool
    started_at: str
    ended_at: str | None
    running: bool


@dataclass(frozen=True, kw_only=True)
class RecapList:
    sessions: tuple[SessionRow, ...]  # newest first


@dataclass(frozen=True, kw_only=True)
class SessionRecap:
    ruleset: str
    number: int
    title: str  # "Session 3 recap", "Session 4 so far"
    running: bool
    started_at: str
    ended_at: str | None
    public: bool  # False: the GM's private recap, secret rolls included
    recap: Recap
    luck: tuple[tuple[str, tuple[float, ...]], ...]  # (name, percentiles in roll order)


async def recap_list(conn: aiosqlite.Connection, viewer: Viewer) -> RecapList:
    """The server's sessions, newest first (one statement on its (guild, number) key)."""
    rows = await fetch_all(
        conn,
        "SELECT number, adventure, one_shot, started_at, ended_at FROM sessions"
        " WHERE guild_id = ? ORDER BY number DESC LIMIT ?",
        (viewer.guild_id, MAX_SESSIONS),
    )
    return RecapList(
        sessions=tuple(
            SessionRow(
                number=r["number"], adventure=r["adventure"], one_shot=bool(r["one_shot"]),
                started_at=r["started_at"], ended_at=r["ended_at"], running=r["ended_at"] is None,
            )
            for r in rows
        )
    )  # fmt: skip


async def _session(conn: aiosqlite.Connection, guild_id: int, number: int | None) -> GameSession:
    sessions = SessionRepository(conn)
    if number is not None:
        found = await sessions.numbered(guild_id, number)
    else:
        found = await sessions.latest_ended(guild_id) or await sessions.running(guild_id)
    if found is None:
        raise PageNotFound("no such session")
    return found


def luck_series(
    facts: list[RollFacts], names: list[str], *, public: bool
) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Each character's scored luck in the order rolled (the Discord chart's series)."""
    series: dict[str, list[float]] = {name: [] for name in names}
    for f in facts:
        if public and f.secret:
            continue
        for x in f.luck:
            if x.owner in series and x.variance:
                series[x.owner].append(float(x.percentile))
    return tuple((name, tuple(values)) for name, values in series.items() if values)


def _summed(
    rows: list[LoggedRow], facts_of: FactsOf, players: Mapping[int, str], *, public: bool,
    fights: tuple[int, int], gains: list[tuple[str, str, int]],
) -> tuple[Recap, tuple[tuple[str, tuple[float, ...]], ...]]:  # fmt: skip
    facts = [facts_of(row, players) for row in rows]
    result = recap(
        facts, public=public, fights=fights[0], rounds=fights[1],
        players=frozenset(players.values()), gains=gains,
    )  # fmt: skip
    return result, luck_series(facts, [n for n, _ in result.characters], public=public)


async def session_recap(
    conn: aiosqlite.Connection, viewer: Viewer, source: RecapSource, number: int | None = None
) -> SessionRecap:
    """Session ``number``'s recap (the last one without), public unless the viewer is the
    GM. PageNotFound when the server has no such session. The summing runs in a worker
    thread (thousands of rows are CPU work), as the Discord recap's does."""
    session = await _session(conn, viewer.guild_id, number)
    repo = RollLogRepository(conn)
    if session.first_log_id is None:
        rows = await repo.between(
            viewer.guild_id, since=session.started_at, until=session.ended_at, limit=MAX_ROWS
        )
    else:
        rows = await repo.between(
            viewer.guild_id, first_id=session.first_log_id, last_id=session.last_log_id,
            limit=MAX_ROWS,
        )  # fmt: skip
    fights = await fights_between(conn, viewer.guild_id, session.started_at, session.ended_at)
    players = await source.players_of(conn, viewer.guild_id)
    gains: list[tuple[str, str, int]] = []
    if source.gains_of is not None:
        found = await source.gains_of(conn, viewer.guild_id, session.started_at, session.ended_at)
        gains = [(players[c], kind, n) for c, kind, n in found if c in players]
    public = not viewer.is_gm
    result, luck = await asyncio.to_thread(
        _summed, list(rows), source.facts_of, players, public=public, fights=fights, gains=gains
    )
    return SessionRecap(
        ruleset=source.ruleset, number=session.number,
        title=f"Session {session.number} {'so far' if session.running else 'recap'}",
        running=session.running, started_at=session.started_at, ended_at=session.ended_at,
        public=public, recap=result, luck=luck,
    )  # fmt: skip
