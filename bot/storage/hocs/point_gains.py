"""Points HOCS characters gained (table ``point_gains``, written by the database's own
triggers in the change's transaction: migration 0020), for a recap's span."""

from __future__ import annotations

import aiosqlite

from bot.storage.sql import fetch_all


async def gains_between(
    conn: aiosqlite.Connection, guild_id: int, since: str, until: str | None
) -> list[tuple[int, str, int]]:
    """(character id, kind, points) gained in the server from ``since`` to ``until``
    (None: until now), summed per character and kind."""
    sql = (
        "SELECT character_id, kind, SUM(amount) AS n FROM point_gains"
        " WHERE guild_id = ? AND created_at >= ?"
    )
    params: list[object] = [guild_id, since]
    if until is not None:
        sql += " AND created_at <= ?"
        params.append(until)
    rows = await fetch_all(
        conn, sql + " GROUP BY character_id, kind ORDER BY character_id, kind", tuple(params)
    )
    return [(int(r["character_id"]), str(r["kind"]), int(r["n"])) for r in rows]
