"""The ammo a ranged /attack spends, in the attack's own transaction.

Ruling ``ammo-ones``: a 1 on either kept die spends one ammo point, one per attack; an
archer whose ammo is tracked and empty can't shoot; thrown weapons use none. The bot's
ruling ``ammo-untracked``: a character's ammo is tracked from the GM's first
``/ammo set``; until then shots are not refused and a rolled 1 is only noted.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.render.text import safe
from bot.rules.twod10.ammo import after_attack, uses_ammo
from bot.rules.twod10.attack import AttackResult
from bot.rules.twod10.wielding import Wielded
from bot.storage.twod10.ammo import AmmoRow, TwoD10AmmoRepository
from bot.storage.twod10.characters import SheetChanged, TwoD10Sheet

UNTRACKED = (
    "A character's ammo is tracked once the GM sets it with /ammo set; until then shots"
    " aren't refused and a rolled 1 is only noted."
)
# /help attack is near Discord's embed limit: one short line, the rest under /help ammo.
AMMO_RULINGS = ["A rolled 1 spends an ammo point (rulings: /help ammo show)."]


async def check_ammo(
    conn: aiosqlite.Connection, sheet: TwoD10Sheet, wielded: Wielded
) -> AmmoRow | None:
    """The shooter's ammo (None: not a shot, or not tracked); refused when it is empty."""
    if not uses_ammo(wielded):
        return None
    row = await TwoD10AmmoRepository(conn).get(sheet.guild_id, sheet.id)
    if row is not None and row.state.points <= 0:
        raise UserError(
            f"{safe(sheet.name)} has no ammo points left: /ammo scavenge, or the GM restocks"
            " with /ammo set."
        )
    return row


@dataclass(frozen=True, kw_only=True)
class AmmoUse:
    """What a shot did to its ammo: the reply's line and the roll log's record."""

    note: str | None  # shown under the attack (None: nothing to say)
    spent: int  # points spent by this shot (0 or 1)
    left: int | None  # points left after it; None while the ammo isn't tracked

    def logged(self) -> dict[str, int | None]:
        return {"spent": self.spent, "left": self.left}


async def spend_ammo(
    conn: aiosqlite.Connection, sheet: TwoD10Sheet, row: AmmoRow | None, result: AttackResult
) -> AmmoUse | None:
    """Spend the point a rolled 1 costs (one conditional UPDATE); None for an attack that
    uses no ammo (melee, thrown)."""
    if not uses_ammo(result.wielded):
        return None
    left = row.state.points if row is not None else None
    if result.roll is None or 1 not in result.roll.roll.kept:
        return AmmoUse(note=None, spent=0, left=left)
    if row is None:
        note = f"A 1 was rolled: {safe(sheet.name)}'s ammo isn't tracked (the GM: /ammo set)."
        return AmmoUse(note=note, spent=0, left=None)
    spend = after_attack(row.state, result)
    after = await TwoD10AmmoRepository(conn).spend_point(sheet.guild_id, sheet.id)
    if after is None or after.state.points != spend.after.points:
        raise SheetChanged()  # spent meanwhile by another shot: nothing of this one is kept
    state = after.state
    note = f"A 1 was rolled: one ammo point spent ({state.points}/{state.capacity} left)."
    return AmmoUse(note=note, spent=1, left=state.points)
