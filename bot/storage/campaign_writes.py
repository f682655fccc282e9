"""Write a campaign file's server-wide rows (the campaign, the roll log, sessions and
fights), and empty a server's campaign before an import replaces it. Inside the
caller's transaction; never commits. The rulesets' own rows are written by
``bot.storage.hocs.campaign_writes`` and ``bot.storage.twod10.campaign_writes``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.sql import fetch_all, fetch_one, run, run_many

# What makes a campaign worth a confirmation before it is replaced. The campaign row
# itself (made by any command) and its settings don't: an import replaces those freely.
_DATA_TABLES = (
    "characters",
    "twod10_characters",
    "sessions",
    "roll_log",
    "encounters",
    "twod10_encounters",
    "fights",
)

# Emptied before an import writes, children first where no cascade reaches them. The
# characters' own tables (fortune points, survival, items…) go with them by cascade.
# Kept: the campaign row (rewritten), the web links' secret, the GMs seen, held imports.
_EMPTIED = (
    "damage_choices",
    "encounters",
    "twod10_encounters",
    "active_characters",
    "twod10_active_characters",
    "roll_log",
    "point_gains",
    "sessions",
    "fights",
    "twod10_calendar",
    "characters",
    "twod10_characters",
)


async def has_data(conn: Any, guild_id: int) -> bool:
    """Whether the server's campaign has characters, sessions, rolls or fights."""
    checks = " OR ".join(
        f"EXISTS (SELECT 1 FROM {table} WHERE guild_id = ?)" for table in _DATA_TABLES
    )
    row = await fetch_one(conn, f"SELECT {checks}", (guild_id,) * len(_DATA_TABLES))
    return bool(row[0])


async def empty_campaign(conn: Any, guild_id: int) -> None:
    """Delete every row of the server's campaign that an import writes anew."""
    for table in _EMPTIED:
        await run(conn, f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))


async def current_ruleset(conn: Any, guild_id: int) -> str | None:
    row = await fetch_one(conn, "SELECT ruleset FROM campaigns WHERE guild_id = ?", (guild_id,))
    return None if row is None else str(row[0])


async def write_campaign(
    conn: Any,
    guild_id: int,
    *,
    ruleset: str,
    gm_role_id: int | None,
    gm_channel_id: int | None,
    settings: dict[str, Any],
) -> None:
    await run(
        conn,
        "INSERT INTO campaigns (guild_id, ruleset, gm_role_id, gm_channel_id, settings)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
        " ruleset = excluded.ruleset, gm_role_id = excluded.gm_role_id,"
        " gm_channel_id = excluded.gm_channel_id, settings = excluded.settings,"
        " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        (guild_id, ruleset, gm_role_id, gm_channel_id, json.dumps(settings, sort_keys=True)),
    )


async def write_log(conn: Any, guild_id: int, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert the log's rows in order; their new ids, position by position.

    Each row is written with ``message_id = -(position + 1)`` and read back by it (no
    Discord id is negative), so rows another process logs for this server meanwhile
    can't shift the positions; the marks are then cleared (the file has no message ids).
    """
    await run_many(
        conn,
        "INSERT INTO roll_log (guild_id, channel_id, user_id, kind, expression, result,"
        " total, secret, created_at, character_id, opponent_id, message_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                guild_id,
                r["channel_id"],
                r["user_id"],
                r["kind"],
                r["expression"],
                json.dumps(r["result"], ensure_ascii=False, separators=(",", ":")),
                r["total"],
                int(r["secret"]),
                r["created_at"],
                r["character_id"],
                r["opponent_id"],
                -(n + 1),
            )
            for n, r in enumerate(rows)
        ),
    )
    if not rows:
        return []
    marked = await fetch_all(
        conn,
        "SELECT id, message_id FROM roll_log WHERE guild_id = ? AND message_id < 0",
        (guild_id,),
    )
    ids = [0] * len(rows)
    for row in marked:
        ids[-int(row[1]) - 1] = int(row[0])
    await run(
        conn,
        "UPDATE roll_log SET message_id = NULL WHERE guild_id = ? AND message_id < 0",
        (guild_id,),
    )
    return ids


async def next_log_id(conn: Any) -> int:
    """An id no roll-log row has yet: where a session that started after the file's
    last roll begins."""
    row = await fetch_one(conn, "SELECT COALESCE(MAX(id), 0) + 1 FROM roll_log")
    return int(row[0])


async def write_sessions(conn: Any, guild_id: int, sessions: Sequence[dict[str, Any]]) -> None:
    await run_many(
        conn,
        "INSERT INTO sessions (guild_id, number, adventure, one_shot, hero_points_given,"
        " started_by, started_at, ended_at, ended_by, first_log_id, last_log_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                guild_id,
                s["number"],
                s["adventure"],
                int(s["one_shot"]),
                int(s["hero_points_given"]),
                s["started_by"],
                s["started_at"],
                s["ended_at"],
                s["ended_by"],
                s["first_log_id"],
                s["last_log_id"],
            )
            for s in sessions
        ),
    )


async def write_fights(conn: Any, guild_id: int, fights: Sequence[dict[str, Any]]) -> None:
    await run_many(
        conn,
        "INSERT INTO fights (guild_id, ruleset, started_at, ended_at, rounds)"
        " VALUES (?, ?, ?, ?, ?)",
        ((guild_id, f["ruleset"], f["started_at"], f["ended_at"], f["rounds"]) for f in fights),
    )
