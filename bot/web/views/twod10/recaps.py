"""What the recap pages need of the 2d10 system (``bot.web.views.recaps``): its facts and
its player characters (the 2d10 system has no points)."""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite

from bot.rules.twod10.recap_facts import facts_of
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.web.views.recaps import RecapSource


async def players_of(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    """The table's player characters: sheet id → name."""
    sheets = await TwoD10CharacterRepository(conn).list(guild_id)
    return {s.id: s.name for s in sheets if s.kind is TwoD10Kind.PC}


RECAPS = RecapSource(ruleset="2d10", facts_of=facts_of, players_of=players_of)
