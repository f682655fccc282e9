"""The /init act choices that read the acting combatant's sheet: standing up from prone
(which clears the sheet's prone), loading a crossbow and picking up a disarmed weapon
(the sheet says which it carries).

Each runs inside ``SideTrackerService.change``'s transaction (``ChangeContext.conn``): the
sheet's write and the tracker's save commit together, or neither does.
"""

from __future__ import annotations

from dataclasses import replace

from bot.errors import UserError
from bot.interactions.user_text import echo
from bot.rules.twod10.initiative.disarm import pick_up as pick_up_weapon
from bot.rules.twod10.initiative.loading import load_crossbow
from bot.rules.twod10.initiative.model import Combatant
from bot.rules.twod10.initiative.turns import StoodUp, stand_up
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Condition, TwoD10Sheet
from bot.storage.twod10.encounters import Tracker
from cogs.twod10.initiative.service import ChangeContext


async def _sheet(ctx: ChangeContext, c: Combatant) -> TwoD10Sheet | None:
    seat = ctx.tracker.seat(c.id)
    if seat is None or seat.sheet_id is None:
        return None
    return await TwoD10CharacterRepository(ctx.conn).get(ctx.record.guild_id, seat.sheet_id)


async def stand(ctx: ChangeContext, c: Combatant) -> tuple[Tracker, list[object]]:
    """Half the round's movement (ruling stand-from-prone), and the sheet's prone cleared;
    a combatant without a sheet has no prone tracked and just spends the feet."""
    sheet = await _sheet(ctx, c)
    if sheet is not None and not sheet.has(TwoD10Condition.PRONE):
        raise UserError(f"{echo(c.name)} isn't prone: only a prone combatant stands up.")
    before = ctx.tracker.encounter
    enc, left = stand_up(before, c.id)
    if sheet is not None:
        standing = [x for x in sheet.conditions if x is not TwoD10Condition.PRONE]
        await TwoD10CharacterRepository(ctx.conn).set_conditions(
            sheet.guild_id, sheet.id, standing, expected_revision=sheet.revision
        )
    feet = enc.state(c.id).feet_moved - before.state(c.id).feet_moved
    return replace(ctx.tracker, encounter=enc), [StoodUp(c.id, feet, left)]


async def load(ctx: ChangeContext, c: Combatant) -> tuple[Tracker, list[object]]:
    """Give up the attack to load the crossbow shot first (ruling crossbow-loading)."""
    sheet = await _sheet(ctx, c)
    carried = None if sheet is None else [w.name for w in sheet.character.weapons]
    enc, loaded = load_crossbow(ctx.tracker.encounter, c.id, carried)
    return replace(ctx.tracker, encounter=enc), [loaded]


async def pick_up(ctx: ChangeContext, c: Combatant) -> tuple[Tracker, list[object]]:
    """The interact action picks up the weapon dropped first (ruling disarm-drops)."""
    sheet = await _sheet(ctx, c)
    carried = None if sheet is None else [w.name for w in sheet.character.weapons]
    enc, picked = pick_up_weapon(ctx.tracker.encounter, c.id, carried)
    return replace(ctx.tracker, encounter=enc), [picked]
