"""Game sessions of a campaign (table ``sessions``): numbers, adventures, start and end.

At most one session per campaign runs at a time (a partial unique index), so two
``/session start`` at once cannot both start one.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.rules.hocs.meta_currencies import PreviousSession, SessionPlan
from bot.storage.sql import fetch_one, refusable


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

    @property
    def running(self) -> bool:
        return self.ended_at is None

    def as_previous(self) -> PreviousSession:
        return PreviousSession(
            adventure=self.adventure, one_shot=self.one_shot, running=self.running
        )


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

    async def running(self, guild_id: int) -> GameSession | None:
        """The campaign's running session, or None when none is running."""
        async with self._conn.execute(
            "SELECT * FROM sessions WHERE guild_id = ? AND ended_at IS NULL LIMIT 1",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return _from_row(row) if row else None

    async def start(
        self, guild_id: int, plan: SessionPlan, *, one_shot: bool, started_by: int
    ) -> GameSession:
        """Insert the next session as ``plan`` says. The campaign row must exist.

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
                " hero_points_given, started_by) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    number,
                    plan.adventure,
                    int(one_shot),
                    int(plan.hero_points is not None),
                    started_by,
                ),
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
            "UPDATE sessions SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ended_by = ?"
            " WHERE guild_id = ? AND ended_at IS NULL RETURNING *",
            (ended_by, guild_id),
        )
        return _from_row(row) if row else None
