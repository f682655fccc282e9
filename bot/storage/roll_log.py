"""The roll log: every roll the bot makes, with its full result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite


@dataclass(frozen=True)
class LoggedRoll:
    id: int
    guild_id: int | None
    channel_id: int | None
    user_id: int
    kind: str
    expression: str
    result: dict[str, Any]
    total: int | None
    secret: bool
    created_at: str


class RollLogRepository:
    """All SQL about the roll log. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def add(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        kind: str,
        expression: str,
        result: dict[str, Any],
        total: int | None,
        secret: bool,
    ) -> int:
        """Record one roll and return its id. The guild's campaign must exist."""
        async with self._conn.execute(
            "INSERT INTO roll_log"
            " (guild_id, channel_id, user_id, kind, expression, result, total, secret)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                user_id,
                kind,
                expression,
                json.dumps(result, separators=(",", ":")),
                total,
                int(secret),
            ),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def recent(self, guild_id: int | None, *, limit: int = 20) -> list[LoggedRoll]:
        """The newest rolls of a guild (or of direct messages when ``guild_id`` is None)."""
        async with self._conn.execute(
            "SELECT * FROM roll_log WHERE guild_id IS ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            LoggedRoll(
                id=row["id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                user_id=row["user_id"],
                kind=row["kind"],
                expression=row["expression"],
                result=json.loads(row["result"]),
                total=row["total"],
                secret=bool(row["secret"]),
                created_at=row["created_at"],
            )
            for row in rows
        ]
