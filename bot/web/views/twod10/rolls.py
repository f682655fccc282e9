"""What the roll log page needs of the 2d10 system (``bot.web.views.rolls``).

The log's ``character_id`` column references HOCS characters and stays NULL for 2d10
rows: a 2d10 row names its sheet in its result, ``character_id`` (a task, a cast, a
dying roll…) or ``attacker_id`` (an attack), as ``bot.rules.twod10.recap_facts`` reads
them. The character filter matches those keys in the stored JSON text, which is always
written compact (``bot.storage.json_text.encode``: ``"character_id":5,``), with LIKE:
portable SQL on both backends where SQLite's ``json_extract`` is not; it scans the
server's rows (on the guild index, newest first) rather than an index of its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import aiosqlite

from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.web.views.rolls import RollSource

ROLLER_KEYS = ("character_id", "attacker_id")


async def names(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    return {s.id: s.name for s in await TwoD10CharacterRepository(conn).list(guild_id)}


def roller(row: Mapping[str, Any]) -> int | None:
    try:
        result = json.loads(row["result"])
    except (TypeError, ValueError):
        return None
    if not isinstance(result, dict):
        return None
    for key in ROLLER_KEYS:
        value = result.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def character_filter(character_id: int) -> tuple[str, tuple[object, ...]]:
    patterns = tuple(
        f'%"{key}":{int(character_id)}{end}%' for key in ROLLER_KEYS for end in (",", "}")
    )
    return "(" + " OR ".join("result LIKE ?" for _ in patterns) + ")", patterns


ROLLS = RollSource(names=names, reads_result=True, roller=roller, character_filter=character_filter)
