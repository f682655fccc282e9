"""The members a guild has seen acting as GM, for secret rolls sent by direct message."""

from __future__ import annotations

import aiosqlite


class GmMemberRepository:
    """All SQL about remembered GMs. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def remember(self, guild_id: int, user_id: int) -> None:
        """Record (or refresh the time of) ``user_id`` as a GM of ``guild_id``."""
        await self._conn.execute(
            "INSERT INTO gm_members (guild_id, user_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id, user_id)"
            " DO UPDATE SET seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, user_id),
        )

    async def forget(self, guild_id: int, user_id: int) -> None:
        """Drop ``user_id`` (no longer a GM, or gone from the guild); absent is fine."""
        await self._conn.execute(
            "DELETE FROM gm_members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )

    async def recent(self, guild_id: int, limit: int) -> list[int]:
        """Up to ``limit`` remembered GM ids, most recently seen first."""
        async with self._conn.execute(
            "SELECT user_id FROM gm_members WHERE guild_id = ?"
            " ORDER BY seen_at DESC, user_id LIMIT ?",
            (guild_id, limit),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]
