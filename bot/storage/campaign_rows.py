"""Read a server's campaign-wide rows for its campaign file (the campaign, the roll log,
sessions and fights), inside the caller's read transaction. The rulesets' own rows are
read by ``bot.storage.hocs.campaign_rows`` and ``bot.storage.twod10.campaign_rows``;
``bot.storage.campaign_writes`` writes them all back."""

from __future__ import annotations

from typing import Any

from bot.storage.sql import fetch_all, fetch_one


async def campaign_row(conn: Any, guild_id: int) -> Any | None:
    return await fetch_one(
        conn,
        "SELECT ruleset, gm_role_id, gm_channel_id, settings FROM campaigns WHERE guild_id = ?",
        (guild_id,),
    )


async def log_rows(conn: Any, guild_id: int) -> list[Any]:
    return await fetch_all(
        conn,
        "SELECT id, channel_id, user_id, kind, expression, result, total, secret, created_at,"
        " character_id, opponent_id FROM roll_log WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )


async def session_rows(conn: Any, guild_id: int) -> list[Any]:
    return await fetch_all(
        conn,
        "SELECT number, adventure, one_shot, hero_points_given, started_by, started_at,"
        " ended_at, ended_by, first_log_id, last_log_id FROM sessions WHERE guild_id = ?"
        " ORDER BY number",
        (guild_id,),
    )


async def fight_rows(conn: Any, guild_id: int) -> list[Any]:
    return await fetch_all(
        conn,
        "SELECT ruleset, started_at, ended_at, rounds FROM fights WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
