"""Loading and saving a 2d10 character's healing state beside its sheet.

The sheet's HP is the source of truth. Ruling rest-hp-source: the bot can't see
every HP change made elsewhere, so each survival command compares the stored
state's HP with the sheet's: a lower sheet HP means damage was taken since (the
short rest opens again); a character with no stored state yet counts as damaged
when below its maximum. Writes go through the sheet's revision so a command
whose sheet changed meanwhile applies nothing (exactly once).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import aiosqlite

from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.healing import HealingState, resize
from bot.storage.twod10.characters import (
    TwoD10CharacterRepository,
    TwoD10Condition,
    TwoD10Sheet,
)
from bot.storage.twod10.survival import TwoD10SurvivalRepository


def toughness_of(sheet: TwoD10Sheet) -> int:
    return sheet.character.attribute(Attribute.TOUGHNESS)


def reconcile(stored: HealingState | None, sheet: TwoD10Sheet) -> HealingState:
    """The healing state matching the sheet now (ruling rest-hp-source)."""
    unconscious = sheet.has(TwoD10Condition.UNCONSCIOUS)
    if stored is None:
        return HealingState(
            hp=sheet.hp, max_hp=sheet.max_hp, damaged_since_rest=sheet.hp < sheet.max_hp,
            unconscious=unconscious,
        )  # fmt: skip
    state = resize(stored, sheet.max_hp)
    damaged = state.damaged_since_rest or sheet.hp < state.hp
    return replace(state, hp=sheet.hp, damaged_since_rest=damaged, unconscious=unconscious)


@dataclass(frozen=True, kw_only=True)
class Loaded:
    sheet: TwoD10Sheet
    state: HealingState


async def load(conn: aiosqlite.Connection, sheet: TwoD10Sheet) -> Loaded:
    row = await TwoD10SurvivalRepository(conn).get(sheet.guild_id, sheet.id)
    return Loaded(sheet=sheet, state=reconcile(row.healing if row else None, sheet))


async def save(conn: aiosqlite.Connection, sheet: TwoD10Sheet, after: HealingState) -> TwoD10Sheet:
    """Write HP, the unconscious/dead conditions and the healing state.

    The HP write is conditional on the sheet's revision even when HP is unchanged, so
    two commands that read the same sheet can't both apply (SheetChanged refuses one).
    """
    repo = TwoD10CharacterRepository(conn)
    new = await repo.set_hp(sheet.guild_id, sheet.id, after.hp, expected_revision=sheet.revision)
    conditions = set(new.conditions)
    conditions.discard(TwoD10Condition.UNCONSCIOUS)
    conditions.discard(TwoD10Condition.DEAD)
    if after.dead(toughness_of(sheet)):
        conditions.add(TwoD10Condition.DEAD)
    elif after.unconscious:
        conditions.add(TwoD10Condition.UNCONSCIOUS)
    if conditions != set(new.conditions):
        new = await repo.set_conditions(
            sheet.guild_id, sheet.id, conditions, expected_revision=new.revision
        )
    await TwoD10SurvivalRepository(conn).save_healing(sheet.guild_id, sheet.id, after)
    return new
