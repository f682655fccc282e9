"""A 2d10 character's encumbrance loaded beside its sheet, and the penalties it puts
on the rolls it affects (ruling encumbrance-rolls): a task or attack with finesse,
Athletics or Stealth, and the finesse defense a roll is made against."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import aiosqlite

from bot.render.text import safe
from bot.rules.dice_source import Dice
from bot.rules.twod10.attack_inputs import TargetStats, target_stats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.encumbrance import (
    ITEM_DAMAGE_DIE,
    ITEM_DAMAGE_OVER,
    Encumbrance,
    carried,
    equipped_items,
    roll_item_damage,
)
from bot.storage.twod10.characters import TwoD10Kind, TwoD10Sheet
from bot.storage.twod10.items import TwoD10ItemRepository


async def load_encumbrance(conn: aiosqlite.Connection, sheet: TwoD10Sheet) -> Encumbrance:
    """The sheet's gear, its items, rations, medical supplies and quivers (one statement)."""
    w = await TwoD10ItemRepository(conn).weights(sheet.guild_id, sheet.id)
    return carried(sheet.character, worn=w.worn, backpack=w.backpack, rations=w.rations,
                   supplies=w.supplies, quivers=w.quivers)  # fmt: skip


async def defense_penalty(
    conn: aiosqlite.Connection, sheet: TwoD10Sheet, attribute: Attribute
) -> int:
    """Points an encumbered character's finesse defense loses (0 for other defenses)."""
    if attribute is not Attribute.FINESSE:
        return 0
    return (await load_encumbrance(conn, sheet)).ep


async def encumbrance_points(
    conn: aiosqlite.Connection, sheets: list[TwoD10Sheet]
) -> dict[int, int]:
    """Each sheet's EP by character id (an attack's attacker, target and bystanders)."""
    points: dict[int, int] = {}
    for sheet in sheets:
        if sheet.id not in points:
            points[sheet.id] = (await load_encumbrance(conn, sheet)).ep
    return points


def burdened_target(sheet: TwoD10Sheet, attribute: Attribute, loads: dict[int, int]) -> TargetStats:
    """The target's stats with its finesse defense lowered by its EP (ruling
    encumbrance-rolls); other defenses are untouched."""
    stats = target_stats(sheet.character, attribute)
    if attribute is not Attribute.FINESSE or not loads.get(sheet.id):
        return stats
    return replace(stats, defense=stats.defense - loads[sheet.id])


@dataclass(frozen=True)
class ItemDamage:
    """The GM's d20 over 20 damage (ruling item-damage): its face, the item it numbers
    (None past the list) and how many items the list held."""

    face: int
    item: str | None
    listed: int

    @property
    def note(self) -> str:
        rolled = f"Over {ITEM_DAMAGE_OVER} damage: d20 **{self.face}**"
        if self.item is None:
            return f"{rolled} numbers no item on the list."
        return f"{rolled}, {safe(self.item)} is damaged."

    def logged(self) -> dict[str, Any]:
        """The die in the attack's roll-log row (``combat_apply.attack_record``)."""
        return {"face": self.face, "sides": ITEM_DAMAGE_DIE, "item": self.item,
                "listed": self.listed}  # fmt: skip


async def item_damage(
    conn: aiosqlite.Connection, sheet: TwoD10Sheet, damage: int, dice: Dice
) -> ItemDamage | None:
    """Over 20 damage taken by a player character: the GM's d20 numbers the damaged item
    on its inventory list, readily accessible first (ruling item-damage)."""
    if damage <= ITEM_DAMAGE_OVER or sheet.kind is not TwoD10Kind.PC:
        return None
    items = TwoD10ItemRepository(conn)
    rows = await items.list(sheet.guild_id, sheet.id)
    quivers = (await items.weights(sheet.guild_id, sheet.id)).quivers
    listed = (*equipped_items(sheet.character, quivers), *(r.item for r in rows))
    rolled = roll_item_damage(damage, listed, dice=dice)
    if rolled is None:
        return None
    face, item = rolled
    return ItemDamage(face=face, item=item.name if item else None, listed=len(listed))
