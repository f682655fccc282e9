"""Fights that ended (table ``fights``), for a recap's fight count and rounds fought.

Written by each ruleset's encounter repository as its tracker row is deleted; a fight
still running is counted once it ends.
"""

from __future__ import annotations

import aiosqlite

from bot.storage.sql import fetch_one


async def fights_between(
    conn: aiosqlite.Connection, guild_id: int, since: str, until: str | None
) -> tuple[int, int]:
    """(fights, rounds) of the server's fights that ended from ``since`` to ``until``
    (None: until now)."""
    sql = "SELECT COUNT(*) AS n, COALESCE(SUM(rounds), 0) AS r FROM fights WHERE guild_id = ?"
    params: list[object] = [guild_id]
    sql += " AND ended_at >= ?"
    params.append(since)
    if until is not None:
        sql += " AND ended_at <= ?"
        params.append(until)
    row = await fetch_one(conn, sql, tuple(params))
    return (int(row["n"]), int(row["r"])) if row else (0, 0)
