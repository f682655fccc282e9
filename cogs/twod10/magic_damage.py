"""Damage breaks concentration: the one hook the 2d10 damage paths call.

Ruling concentration-damage (bot.rules.twod10.magic): an attack's damage is damage
in combat; a GM's /hp loss counts only while the character sits in a tracked
encounter. The concentration row is deleted with RETURNING, in the damaging
command's own transaction, so it ends exactly once.
"""

from __future__ import annotations

import aiosqlite

from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.encounters import TwoD10EncounterRepository
from bot.storage.twod10.magic import TwoD10MagicRepository


async def damage_ends_concentration(
    conn: aiosqlite.Connection, before: TwoD10Sheet, after: TwoD10Sheet, *, attack: bool
) -> str | None:
    """End the damaged character's concentration; the effect that ended, or None."""
    if after.hp >= before.hp:
        return None
    if not attack:
        seated = await TwoD10EncounterRepository(conn).channels_with_sheets(
            after.guild_id, [after.id]
        )
        if not seated:
            return None
    held = await TwoD10MagicRepository(conn).end(after.guild_id, after.id)
    return held.effect if held is not None else None
