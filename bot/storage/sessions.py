"""Game sessions of a campaign (table ``sessions``), in either ruleset: numbers, start and
end, and the roll-log ids each covers (its recap's rolls).

At most one session per campaign runs at a time (a partial unique index), so two
``/session start`` at once cannot both start one. HOCS adds its adventures and hero
points on top (``bot.storage.hocs.sessions``); a 2d10 table's sessions carry none.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.storage.sql import fetch_one, refusable

# The next roll-log id (ids only grow): where a session starting now begins, and, less
# one, where a session ending now ends.
_NEXT_LOG_ID = "(SELECT COALESCE(MAX(id), 0) + 1 FROM roll_log)"


class SessionAlreadyRunning(UserError):
    def __init__(self, number: int) -> None:
        super().__init__(
            f"Session {number} is still running: end it with /session end before starting another."
        )


@dataclass(frozen=True, kw_only=True)
class GameSession:
    id: int
    guild_id: int
    number: int
    adventure: int
    one_shot: bool
    hero_points_given: bool
    started_by: int
    started_at: str
    ended_at: str | None
    ended_by: int | None
    first_log_id: int | None = None  # None: stored before the bounds were kept
    last_log_id: int | None = None  # None while running (or stored before)

    @property
    def running(self) -> bool:
        return self.ended_at is None


def _from_row(row: aiosqlite.Row) -> GameSession:
    return GameSession(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        adventure=row["adventure"],
        one_shot=bool(row["one_shot"]),
        hero_points_given=bool(row["hero_points_given"]),
        started_by=row["started_by"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        ended_by=row["ended_by"],
        first_log_id=row["first_log_id"],
        last_log_id=row["last_log_id"],
    )


class SessionRepository:
    """All SQL about sessions. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def latest(self, guild_id: int) -> GameSession | None:
        """The campaign's newest session (running or not), or None before the first."""
        row = await fetch_one(
            self._conn,
            "SELECT * FROM sessions WHERE guild_id = ? ORDER BY number DESC LIMIT 1",
            (guild_id,),
        )
        return _from_row(row) if row else None

    async def numbered(self, guild_id: int, number: int) -> GameSession | None:
        row = await fetch_one(
            self._conn,
            "SELECT * FROM sessions WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        )
        return _from_row(row) if row else None

    async def latest_ended(self, guild_id: int) -> GameSession | None:
        row = await fetch_one(
            self._conn,
            "SELECT * FROM sessions WHERE guild_id = ? AND ended_at IS NOT NULL"
            " ORDER BY number DESC LIMIT 1",
            (guild_id,),
        )
        return _from_row(row) if row else None

    async def running(self, guild_id: int) -> GameSession | None:
        """The campaign's running session, or None when none is running."""
        row = await fetch_one(
            self._conn,
            "SELECT * FROM sessions WHERE guild_id = ? AND ended_at IS NULL LIMIT 1",
            (guild_id,),
        )
        return _from_row(row) if row else None

    async def start(
        self,
        guild_id: int,
        *,
        started_by: int,
        adventure: int = 1,
        one_shot: bool = False,
        hero_points_given: bool = False,
    ) -> GameSession:
        """Insert the next session. The campaign row must exist.

        Raises SessionAlreadyRunning when one is running (checked by the database too).
        """
        latest = await self.latest(guild_id)
        if latest is not None and latest.running:
            raise SessionAlreadyRunning(latest.number)
        number = 1 if latest is None else latest.number + 1
        try:
            pending = fetch_one(
                self._conn,
                "INSERT INTO sessions (guild_id, number, adventure, one_shot,"
                " hero_points_given, started_by, first_log_id)"
                f" VALUES (?, ?, ?, ?, ?, ?, {_NEXT_LOG_ID}) RETURNING *",
                (guild_id, number, adventure, int(one_shot), int(hero_points_given), started_by),
            )
            row = await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise SessionAlreadyRunning(number - 1) from None
            raise
        return _from_row(row)

    async def end(self, guild_id: int, *, ended_by: int) -> GameSession | None:
        """End the running session; it, or None when none was running."""
        row = await fetch_one(
            self._conn,
            "UPDATE sessions SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ended_by = ?,"
            f" last_log_id = {_NEXT_LOG_ID} - 1"
            " WHERE guild_id = ? AND ended_at IS NULL RETURNING *",
            (ended_by, guild_id),
        )
        return _from_row(row) if row else None
