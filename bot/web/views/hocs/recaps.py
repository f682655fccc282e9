"""What the recap pages need of HOCS (``bot.web.views.recaps``): its facts, its player
characters, and the points they gained (the database's own ledger)."""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite

from bot.rules.hocs.recap_facts import facts_of
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.point_gains import gains_between
from bot.web.views.recaps import RecapSource


async def players_of(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    """The table's player characters: character id → name."""
    found = await CharacterRepository(conn).list(guild_id)
    return {c.id: c.name for c in found if c.kind is CharacterKind.PC}


RECAPS = RecapSource(
    ruleset="hocs", facts_of=facts_of, players_of=players_of, gains_of=gains_between
)
