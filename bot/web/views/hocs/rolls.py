"""What the roll log page needs of HOCS (``bot.web.views.rolls``): a HOCS row names its
character in the log's ``character_id`` column (on its index), the roller's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import aiosqlite

from bot.storage.hocs.characters import CharacterRepository
from bot.web.views.rolls import RollSource


async def names(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    """Every character of the server, by id (the filter lists NPCs too: the GM's rolls)."""
    return {c.id: c.name for c in await CharacterRepository(conn).list(guild_id)}


def roller(row: Mapping[str, Any]) -> int | None:
    return row["character_id"]


def character_filter(character_id: int) -> tuple[str, tuple[object, ...]]:
    return "character_id = ?", (character_id,)


ROLLS = RollSource(
    names=names, reads_result=False, roller=roller, character_filter=character_filter
)
