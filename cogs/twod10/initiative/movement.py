"""Each seated combatant's movement from its sheet's load (ruling movement-encumbrance):
the tracker keeps it on the combatant, so /init act movement, a dash and the tracker's
line all use the feet the character really has."""

from __future__ import annotations

from dataclasses import replace

import aiosqlite

from bot.rules.twod10.initiative.model import with_movements
from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.encounters import Tracker
from cogs.twod10.encumbrance_state import load_encumbrance


async def follow_movement(
    conn: aiosqlite.Connection, tracker: Tracker, sheets: dict[int, TwoD10Sheet]
) -> Tracker:
    """``tracker`` with every combatant linked to a sheet moving what its load allows
    (one statement per linked sheet); combatants without a sheet keep 30 feet."""
    feet: dict[int, int] = {}
    for cid, seat in tracker.seats:
        sheet = sheets.get(seat.sheet_id) if seat.sheet_id is not None else None
        if sheet is not None:
            feet[cid] = (await load_encumbrance(conn, sheet)).movement
    enc = with_movements(tracker.encounter, feet)
    return tracker if enc is tracker.encounter else replace(tracker, encounter=enc)
