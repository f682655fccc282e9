"""/cast inside a tracked fight (ruling cast-in-tracker, bot.rules.twod10.initiative.spells):
the caster's combatant casts on the channel's tracker in /cast's own transaction, saved
under the tracker's version as /attack saves it, and an attack the tracker saw land while
a declared spell was being cast gives the roll its disadvantage. ``damaged:`` on a
declared spell interrupts it (ruling spell-interrupted): declared again on the caster's
turn, it is refused here until it goes off at the end of its next turn."""

from __future__ import annotations

import aiosqlite

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.spells import cast_spell
from bot.storage.twod10.characters import TwoD10Sheet
from cogs.twod10 import options
from cogs.twod10.combat_tracker import save as save_tracker
from cogs.twod10.combat_tracker import tracker_here


async def cast_in_fight(
    conn: aiosqlite.Connection,
    guild_id: int,
    channel_id: int,
    sheet: TwoD10Sheet,
    *,
    damaged: bool = False,
) -> bool:
    """Whether the caster was attacked while casting, as the tracker knows it; False
    when the channel has no tracker or the caster isn't seated in it. A changed tracker
    is redrawn after the commit (``combat_tracker.save``)."""
    view = await tracker_here(conn, guild_id, channel_id)
    combatant_id = view.combatant_of(sheet.id) if view is not None else None
    if view is None or combatant_id is None:
        return False
    try:
        enc, attacked = cast_spell(view.record.encounter, combatant_id, damaged=damaged)
    except RulesError as exc:
        raise options.rules(exc) from None
    await save_tracker(conn, view, enc)
    return attacked
