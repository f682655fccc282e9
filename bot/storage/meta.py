"""Small facts the bot keeps about itself, such as the last synced command tree."""

from __future__ import annotations

import aiosqlite

from bot.storage.sql import fetch_one


class MetaRepository:
    """Key/value rows in ``bot_meta``. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, key: str) -> str | None:
        row = await fetch_one(self._conn, "SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set(self, key: str, value: str) -> None:
        await self._conn.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
