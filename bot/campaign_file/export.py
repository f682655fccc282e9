"""Export one server's campaign, both rulesets, as a ``CampaignFile``.

Everything is read inside ONE read transaction (``db.read()``: a deferred transaction
on SQLite's WAL, REPEATABLE READ on PostgreSQL), so the file is one consistent moment
of the campaign even while the bot keeps playing; nothing is written.
"""

from __future__ import annotations

import asyncio
import bisect
import json
from datetime import UTC, datetime
from typing import Any

from bot.campaign_file.format import CampaignFile
from bot.errors import UserError
from bot.storage import campaign_rows
from bot.storage.campaigns import CampaignSettings
from bot.storage.hocs.campaign_rows import hocs_part
from bot.storage.twod10.campaign_rows import twod10_part


class CampaignNotFound(UserError):
    def __init__(self, guild_id: int) -> None:
        super().__init__(f"Server {guild_id} has no campaign in this database.")


def now_stamp() -> str:
    """The database's timestamp spelling for this instant."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


async def export_campaign(
    db: Any, guild_id: int, *, log: bool = True, exported_at: str | None = None
) -> CampaignFile:
    """The guild's whole campaign; ``log=False`` leaves the roll log (and the positions
    pointing into it) out. Raises CampaignNotFound if the guild has no campaign row, and
    pydantic's ValidationError if a stored row breaks the file's rules (a damaged row)."""
    async with db.read() as conn:
        campaign = await campaign_rows.campaign_row(conn, guild_id)
        if campaign is None:
            raise CampaignNotFound(guild_id)
        log_rows = await campaign_rows.log_rows(conn, guild_id) if log else None
        ids = [row["id"] for row in log_rows] if log_rows is not None else None
        position = _positions(ids)
        hocs, hocs_refs = await hocs_part(conn, guild_id)
        twod10, _ = await twod10_part(conn, guild_id, position)
        sessions = _sessions(await campaign_rows.session_rows(conn, guild_id), ids)
        fights = await campaign_rows.fight_rows(conn, guild_id)
    data = {
        "ruleset": campaign["ruleset"],
        "exported_at": exported_at or now_stamp(),
        "campaign": {
            "gm_role_id": campaign["gm_role_id"],
            "gm_channel_id": campaign["gm_channel_id"],
            "settings": _settings(campaign["settings"]),
        },
        "hocs": hocs,
        "twod10": twod10,
        "sessions": sessions,
        "fights": [
            {"ruleset": f[0], "started_at": f[1], "ended_at": f[2], "rounds": f[3]} for f in fights
        ],
        "log": None if log_rows is None else [_entry(r, hocs_refs) for r in log_rows],
    }
    # Validating a long log is CPU work: off the event loop, so the bot keeps answering.
    return await asyncio.to_thread(CampaignFile.model_validate, data)


def _settings(text: str) -> dict[str, Any]:
    # The stored settings ignore keys of removed features; the file keeps what is known.
    return CampaignSettings.model_validate(json.loads(text)).model_dump()


def _positions(ids: list[int] | None) -> Any:
    index = {log_id: n for n, log_id in enumerate(ids or ())}

    def position(log_id: int | None) -> int | None:
        return None if log_id is None else index.get(log_id)

    return position


def _sessions(rows: list[Any], ids: list[int] | None) -> list[dict[str, Any]]:
    found = []
    for s in rows:
        first, last = s["first_log_id"], s["last_log_id"]
        # A session's rolls are the log ids first..last; in the file, the slice of the
        # guild's rows between the two positions (ids of other guilds interleave).
        start = bisect.bisect_left(ids, first) if ids is not None and first is not None else None
        end = bisect.bisect_right(ids, last) if ids is not None and last is not None else None
        found.append(
            {
                "number": s["number"],
                "adventure": s["adventure"],
                "one_shot": bool(s["one_shot"]),
                "hero_points_given": bool(s["hero_points_given"]),
                "started_by": s["started_by"],
                "started_at": s["started_at"],
                "ended_at": s["ended_at"],
                "ended_by": s["ended_by"],
                "log_start": start,
                "log_end": end,
            }
        )
    return found


def _entry(row: Any, refs: dict[int, str]) -> dict[str, Any]:
    def ref(character_id: int | None) -> str | None:
        return None if character_id is None else refs.get(character_id)

    return {
        "channel_id": row["channel_id"],
        "user_id": row["user_id"],
        "kind": row["kind"],
        "expression": row["expression"],
        "result": json.loads(row["result"]),
        "total": row["total"],
        "secret": bool(row["secret"]),
        "created_at": row["created_at"],
        "character": ref(row["character_id"]),
        "opponent": ref(row["opponent_id"]),
    }
