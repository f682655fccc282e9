"""Items 2d10 characters carry (besides the sheet's gear), and the weights that make
their encumbrance. Weights are stored in quarters of an item weight. Never commits."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import aiosqlite

from bot.rules.generic.names import normalise_name
from bot.rules.twod10.encumbrance import MAX_ITEMS, Item
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_all, fetch_one

MAX_ROWS = 50  # distinct items per character: more is a typo, not a pack
QUARTERS = 4


@dataclass(frozen=True, kw_only=True)
class ItemRow:
    id: int
    item: Item


@dataclass(frozen=True, kw_only=True)
class CarriedWeights:
    """What a character carries beyond the sheet's gear, for its encumbrance."""

    worn: Fraction
    backpack: Fraction
    ration_quarters: int
    supplies: int
    quivers: int = 0  # the ammo count's pouches or quivers (ruling quiver-weight)

    @property
    def rations(self) -> Fraction:
        return Fraction(self.ration_quarters, QUARTERS)


def _row(row: aiosqlite.Row) -> ItemRow:
    item = Item(name=row[1], weight=Fraction(row[2], QUARTERS), worn=bool(row[3]), count=row[4])
    return ItemRow(id=row[0], item=item)


class TwoD10ItemRepository:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def list(self, guild_id: int, character_id: int) -> list[ItemRow]:
        """Readily accessible items first, then the backpack (the inventory's order)."""
        rows = await fetch_all(
            self._conn,
            "SELECT id, name, weight_quarters, worn, count FROM twod10_items"
            " WHERE guild_id = ? AND character_id = ? ORDER BY worn DESC, id",
            (guild_id, character_id),
        )
        return [_row(r) for r in rows]

    async def add(self, guild_id: int, character_id: int, item: Item) -> ItemRow | None:
        """Add ``item`` (its count to a same-named item in the same place, which keeps its
        weight). None when that would pass MAX_ITEMS of it or MAX_ROWS items."""
        quarters = int(Fraction(item.weight) * QUARTERS)
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_items"
            " (guild_id, character_id, name, name_key, weight_quarters, worn, count)"
            " SELECT ?, ?, ?, ?, ?, ?, ?"
            " WHERE (SELECT COUNT(*) FROM twod10_items WHERE character_id = ?) < ?"
            " OR EXISTS (SELECT 1 FROM twod10_items WHERE character_id = ? AND name_key = ?"
            " AND worn = ?)"
            " ON CONFLICT (character_id, name_key, worn)"
            " DO UPDATE SET count = twod10_items.count + excluded.count"
            " WHERE twod10_items.count + excluded.count <= ?"
            " RETURNING id, name, weight_quarters, worn, count",
            (guild_id, character_id, item.name, normalise_name(item.name), quarters,
             int(item.worn), item.count, character_id, MAX_ROWS, character_id,
             normalise_name(item.name), int(item.worn), MAX_ITEMS),
        )  # fmt: skip
        if row is None:
            return None
        characters_changed(self._conn, guild_id, character_id)  # its load: a tracker's feet
        return _row(row)

    async def find(self, guild_id: int, character_id: int, name: str) -> list[ItemRow]:
        rows = await fetch_all(
            self._conn,
            "SELECT id, name, weight_quarters, worn, count FROM twod10_items"
            " WHERE guild_id = ? AND character_id = ? AND name_key = ? ORDER BY worn DESC, id",
            (guild_id, character_id, normalise_name(name)),
        )
        return [_row(r) for r in rows]

    async def remove(self, guild_id: int, row: ItemRow, count: int) -> int | None:
        """Take ``count`` of the item away (deleting it at 0) in one conditional statement:
        the count left, or None when it no longer has that many (nothing changed)."""
        if count >= row.item.count:
            gone = await fetch_one(
                self._conn,
                "DELETE FROM twod10_items WHERE guild_id = ? AND id = ? AND count = ?"
                " RETURNING 0, character_id",
                (guild_id, row.id, count),
            )
        else:
            gone = await fetch_one(
                self._conn,
                "UPDATE twod10_items SET count = count - ? WHERE guild_id = ? AND id = ?"
                " AND count > ? RETURNING count, character_id",
                (count, guild_id, row.id, count),
            )
        if gone is None:
            return None
        characters_changed(self._conn, guild_id, gone[1])  # its load: a tracker's feet
        return gone[0]

    async def weights(self, guild_id: int, character_id: int) -> CarriedWeights:
        """Worn and backpack item weight, rations, medical supplies and the pouches or
        quivers of the ammo count: one statement."""
        row = await fetch_one(
            self._conn,
            "SELECT"
            " (SELECT COALESCE(SUM(weight_quarters * count), 0) FROM twod10_items"
            "  WHERE guild_id = ? AND character_id = ? AND worn = 1),"
            " (SELECT COALESCE(SUM(weight_quarters * count), 0) FROM twod10_items"
            "  WHERE guild_id = ? AND character_id = ? AND worn = 0),"
            " (SELECT quarters FROM twod10_rations WHERE guild_id = ? AND character_id = ?),"
            " (SELECT supplies FROM twod10_survival WHERE guild_id = ? AND character_id = ?),"
            " (SELECT quivers FROM twod10_ammo WHERE guild_id = ? AND character_id = ?)",
            (guild_id, character_id) * 5,
        )
        assert row is not None
        # int(): PostgreSQL's SUM of integers is a numeric (a Decimal in Python).
        return CarriedWeights(
            worn=Fraction(int(row[0]), QUARTERS), backpack=Fraction(int(row[1]), QUARTERS),
            ration_quarters=int(row[2] or 0), supplies=int(row[3] or 0),
            quivers=int(row[4] or 0),
        )  # fmt: skip
