"""The 2d10 tracker shows who concentrates on what (a field under the sides).

Kept out of the tracker's own modules: the tracker calls ``add_concentration`` on the
embed it built, and this reads the concentrations of the sheets seated there.
"""

from __future__ import annotations

import discord

from bot.render.twod10.magic import add_concentration_field
from bot.storage.database import Database
from bot.storage.twod10.encounters import TrackerRecord
from bot.storage.twod10.magic import TwoD10MagicRepository


async def add_concentration(db: Database, record: TrackerRecord, embed: discord.Embed) -> None:
    """Add the seated sheets' concentrations to ``embed`` (one read, one query)."""
    tracker = record.tracker
    seated = [(cid, seat.sheet_id) for cid, seat in tracker.seats if seat.sheet_id is not None]
    if not seated:
        return
    async with db.read() as conn:
        held = await TwoD10MagicRepository(conn).get_many(record.guild_id, [s for _, s in seated])
    rows = [
        (tracker.encounter.combatant(cid).name, held[sheet_id].effect)
        for cid, sheet_id in seated
        if sheet_id in held
    ]
    add_concentration_field(embed, rows)
