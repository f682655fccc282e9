"""Campaign files waiting for the GM's confirmation (table ``pending_imports``).

Held as the file's text, for ``HOLD_MINUTES``; taking one deletes it in the caller's
transaction, so of two presses of one button only the first finds it. Times are the
database's spelling, compared as text (it sorts as time does)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.storage.sql import fetch_one, run

HOLD_MINUTES = 15


def stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


async def hold(conn: Any, guild_id: int, user_id: int, body: str, now: datetime) -> int:
    """Keep ``body`` for the guild; its id. Expired files of the guild go first."""
    await run(
        conn,
        "INSERT INTO campaigns (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING",
        (guild_id,),
    )
    await run(
        conn,
        "DELETE FROM pending_imports WHERE guild_id = ? AND expires_at <= ?",
        (guild_id, stamp(now)),
    )
    row = await fetch_one(
        conn,
        "INSERT INTO pending_imports (guild_id, user_id, body, expires_at) VALUES (?, ?, ?, ?)"
        " RETURNING id",
        (guild_id, user_id, body, stamp(now + timedelta(minutes=HOLD_MINUTES))),
    )
    return int(row[0])


async def take(conn: Any, guild_id: int, pending_id: int, now: datetime) -> str | None:
    """The held file's text, deleted; None if it was taken already or has expired."""
    row = await fetch_one(
        conn,
        "DELETE FROM pending_imports WHERE id = ? AND guild_id = ? RETURNING body, expires_at",
        (pending_id, guild_id),
    )
    if row is None or str(row[1]) <= stamp(now):
        return None
    return str(row[0])
