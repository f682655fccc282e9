"""Small facts the bot keeps about itself, such as the last synced command tree."""

from __future__ import annotations

import aiosqlite

from bot.storage.sql import fetch_one, run

# A lease row's value: its expiry in epoch milliseconds, zero-padded so that text order
# is time order on every backend, then a space and the holder.
_EXPIRY_DIGITS = 15


def _millis(seconds: float) -> str:
    return f"{int(seconds * 1000):0{_EXPIRY_DIGITS}d}"


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

    async def claim(self, key: str, holder: str, *, now: float, seconds: float) -> bool:
        """Take the lease ``key`` for ``holder`` until ``now + seconds`` (epoch seconds)
        unless another holder's lease is still running; return whether it was taken.

        One conditional upsert, so of two processes racing for it exactly one wins. A
        holder that dies keeps it only until it expires.
        """
        row = await fetch_one(
            self._conn,
            "INSERT INTO bot_meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            # (the digits alone: equal-length digit strings sort alike in every collation)
            f" WHERE substr(bot_meta.value, 1, {_EXPIRY_DIGITS}) < ? RETURNING key",
            (key, f"{_millis(now + seconds)} {holder}", _millis(now)),
        )
        return row is not None

    async def release(self, key: str, holder: str) -> None:
        """Give the lease ``key`` back, if ``holder`` still holds it."""
        await run(
            self._conn,
            f"DELETE FROM bot_meta WHERE key = ? AND substr(value, {_EXPIRY_DIGITS + 2}) = ?",
            (key, holder),
        )
