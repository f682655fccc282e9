"""Character rows: the sheet, its wounds, tracked state, active character, fortune points.

The row's values live in ``character_model`` (re-exported here); this module holds
the SQL. Maxima come from ``Character.effective`` (the sheet with its wounds
applied), so a changed sheet is clamped to its wounded maxima.
Resources that can be spent are real columns so a spend is one conditional
UPDATE (``… WHERE determination > 0``) and can never go below zero or happen twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import aiosqlite

from bot.rules.generic.names import normalise_name
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.effective import effective_values
from bot.storage.dialect import ROW_LOCK
from bot.storage.hocs.character_codec import CharacterDetails, sheet_to_dict
from bot.storage.hocs.character_model import (
    Character,
    CharacterKind,
    CharacterNameTaken,
    CharacterState,
    character_from_row,
    clamp_state,
    fresh_state,
    wounds_from_json,
)
from bot.storage.sql import fetch_all, fetch_one, refusable, run

__all__ = [
    "Character",
    "CharacterKind",
    "CharacterNameTaken",
    "CharacterRepository",
    "CharacterState",
    "clamp_state",
    "fresh_state",
    "wounds_from_json",
]

_SELECT = (
    "SELECT c.*, (SELECT json_group_array(source) FROM"
    " (SELECT source FROM fortune_points f WHERE f.character_id = c.id ORDER BY source) AS s)"
    " AS fortune FROM characters c"
)


class CharacterRepository:
    """All SQL about characters. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _one(self, where: str, params: tuple[object, ...]) -> Character | None:
        row = await fetch_one(self._conn, f"{_SELECT} WHERE {where}", params)
        return character_from_row(row) if row else None

    async def create(
        self,
        *,
        guild_id: int,
        owner_id: int,
        kind: CharacterKind,
        sheet: CharacterSheet,
        details: CharacterDetails,
    ) -> Character:
        """Insert a character at full resources. Raises CharacterNameTaken."""
        state = fresh_state(effective_values(sheet, speed=details.speed))
        try:
            pending = fetch_one(
                self._conn,
                "INSERT INTO characters (guild_id, owner_id, name, name_key, kind, sheet,"
                " hp, recovery, determination) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    owner_id,
                    sheet.name,
                    normalise_name(sheet.name),
                    kind.value,
                    json.dumps(sheet_to_dict(sheet, details)),
                    state.hp,
                    state.recovery,
                    state.determination,
                ),
            )
            row = await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise CharacterNameTaken(sheet.name) from None
            raise
        created = await self.get(int(row[0]))
        assert created is not None
        return created

    async def get(self, character_id: int) -> Character | None:
        return await self._one("c.id = ?", (character_id,))

    async def get_many(self, character_ids: Iterable[int]) -> dict[int, Character]:
        """The characters with these ids that exist, by id (one query for them all)."""
        found = await self.get_many_revised(character_ids)
        return {character_id: character for character_id, (character, _) in found.items()}

    async def get_many_revised(
        self, character_ids: Iterable[int]
    ) -> dict[int, tuple[Character, int]]:
        """Like ``get_many``, each with its row's ``revision``: a counter a trigger
        raises on every write to the row, whoever writes it."""
        ids = list(dict.fromkeys(character_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        rows = await fetch_all(self._conn, f"{_SELECT} WHERE c.id IN ({marks})", ids)
        return {row["id"]: (character_from_row(row), row["revision"]) for row in rows}

    async def find(self, guild_id: int, name: str) -> Character | None:
        """A character of the guild by name, ignoring case and spacing."""
        return await self._one(
            "c.guild_id = ? AND c.name_key = ?", (guild_id, normalise_name(name))
        )

    async def list(self, guild_id: int, *, owner_id: int | None = None) -> list[Character]:
        where, params = "c.guild_id = ?", [guild_id]
        if owner_id is not None:
            where += " AND c.owner_id = ?"
            params.append(owner_id)
        rows = await fetch_all(self._conn, f"{_SELECT} WHERE {where} ORDER BY c.name_key", params)
        return [character_from_row(row) for row in rows]

    async def search_names(
        self, guild_id: int, query: str, *, owner_id: int | None = None, limit: int = 25
    ) -> list[str]:
        """Names containing ``query`` (for autocomplete), the owner's own first."""
        pattern = "%" + normalise_name(query).replace("%", "").replace("_", "") + "%"
        rows = await fetch_all(
            self._conn,
            "SELECT name FROM characters WHERE guild_id = ? AND name_key LIKE ?"
            " ORDER BY (owner_id = ?) DESC, name_key LIMIT ?",
            (guild_id, pattern, owner_id or 0, limit),
        )
        return [row[0] for row in rows]

    async def update_sheet(
        self, character: Character, sheet: CharacterSheet, details: CharacterDetails
    ) -> Character:
        """Save a changed sheet, keeping tracked values within its new (wounded) maxima.

        Raises CharacterNameTaken when a rename collides.
        """
        values = effective_values(sheet, character.wounds, speed=details.speed)
        state = clamp_state(character.state, values)
        try:
            pending = self._conn.execute(
                "UPDATE characters SET name = ?, name_key = ?, sheet = ?, hp = MIN(hp, ?),"
                " recovery = MIN(recovery, ?), determination = MIN(determination, ?),"
                " version = version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE id = ?",
                (
                    sheet.name,
                    normalise_name(sheet.name),
                    json.dumps(sheet_to_dict(sheet, details)),
                    values.max_hp,
                    state.recovery,
                    state.determination,
                    character.id,
                ),
            )
            await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise CharacterNameTaken(sheet.name) from None
            raise
        updated = await self.get(character.id)
        assert updated is not None
        return updated

    async def delete(self, character_id: int) -> bool:
        return await run(self._conn, "DELETE FROM characters WHERE id = ?", (character_id,)) == 1

    async def set_active(self, guild_id: int, user_id: int, character_id: int) -> None:
        await self._conn.execute(
            "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
            (guild_id, user_id, character_id),
        )

    async def get_active(self, guild_id: int, user_id: int) -> Character | None:
        return await self._one(
            "c.id = (SELECT character_id FROM active_characters"
            " WHERE guild_id = ? AND user_id = ?)",
            (guild_id, user_id),
        )

    async def spend_determination(self, character_id: int) -> bool:
        """Spend one determination point; False (nothing written) when none is left."""
        return await self.spend_determination_left(character_id) is not None

    async def spend_determination_left(self, character_id: int) -> int | None:
        """Spend one determination point; the points left, or None (nothing written)
        when none is left."""
        row = await fetch_one(
            self._conn,
            "UPDATE characters SET determination = determination - 1, version = version + 1"
            " WHERE id = ? AND determination > 0 RETURNING determination",
            (character_id,),
        )
        return None if row is None else int(row[0])

    # --- hero points, fortune points, determination, rest and respite -----------------
    # Every spend is one conditional statement: it changes exactly one row or none, so
    # two clicks or two commands at once can never spend the same point twice.

    async def spend_hero_point(self, character_id: int) -> int | None:
        """Spend one hero point; the points left, or None (nothing written) when none is left."""
        row = await fetch_one(
            self._conn,
            "UPDATE characters SET hero_points = hero_points - 1, version = version + 1"
            " WHERE id = ? AND hero_points > 0 RETURNING hero_points",
            (character_id,),
        )
        return int(row[0]) if row else None

    async def hero_point_for_determination(
        self, character_id: int, maximum: int
    ) -> tuple[int, int] | None:
        """Spend a hero point to regain 1 determination point (below ``maximum`` only).

        Returns (hero points left, determination now), or None when nothing was written
        (no hero point, or determination already at its maximum).
        """
        row = await fetch_one(
            self._conn,
            "UPDATE characters SET hero_points = hero_points - 1,"
            " determination = determination + 1, version = version + 1"
            " WHERE id = ? AND hero_points > 0 AND determination < ?"
            " RETURNING hero_points, determination",
            (character_id, maximum),
        )
        return (int(row[0]), int(row[1])) if row else None

    async def set_hero_points_of_pcs(self, guild_id: int, points: int) -> list[tuple[int, str]]:
        """Set every player character's hero points in a guild; their (id, name), by name."""
        rows = await fetch_all(
            self._conn,
            "UPDATE characters SET hero_points = ?, version = version + 1"
            " WHERE guild_id = ? AND kind = 'pc' RETURNING id, name, name_key",
            (points, guild_id),
        )
        return [(int(r[0]), str(r[1])) for r in sorted(rows, key=lambda r: r[2])]

    async def give_hero_points(self, character_id: int, amount: int, maximum: int) -> int | None:
        """Add hero points (never beyond ``maximum``); the new total, or None if no such row."""
        row = await fetch_one(
            self._conn,
            "UPDATE characters SET hero_points = MAX(hero_points, MIN(?, hero_points + ?)),"
            " version = version + 1 WHERE id = ? RETURNING hero_points",
            (maximum, amount, character_id),
        )
        return int(row[0]) if row else None

    async def take_hero_points(self, character_id: int, amount: int) -> tuple[int, int] | None:
        """Remove up to ``amount`` hero points; (taken, left), or None if no such character.

        Call it inside the command's transaction: the read and the write are one unit.
        """
        row = await fetch_one(
            self._conn,
            f"SELECT hero_points FROM characters WHERE id = ?{ROW_LOCK}",
            (character_id,),
        )
        if row is None:
            return None
        taken = min(int(row[0]), amount)
        after = await fetch_one(
            self._conn,
            "UPDATE characters SET hero_points = hero_points - ?, version = version + 1"
            " WHERE id = ? AND hero_points >= ? RETURNING hero_points",
            (taken, character_id, taken),
        )
        return (taken, int(after[0])) if after else None

    async def grant_fortune(self, character_id: int, source: str) -> bool:
        """Give a fortune point from ``source``; False (nothing written) if it already has one."""
        cursor = await self._conn.execute(
            "INSERT INTO fortune_points (character_id, source) VALUES (?, ?)"
            " ON CONFLICT (character_id, source) DO NOTHING",
            (character_id, source),
        )
        return cursor.rowcount == 1

    async def spend_fortune(self, character_id: int, source: str) -> bool:
        """Spend the fortune point from ``source``; False when the character has none from it.

        One DELETE … RETURNING: of two spends at once exactly one gets the row.
        """
        row = await fetch_one(
            self._conn,
            "DELETE FROM fortune_points WHERE character_id = ? AND source = ? RETURNING source",
            (character_id, source),
        )
        return row is not None

    async def regain_determination(self, character_id: int, amount: int, maximum: int) -> int:
        """Regain determination points up to ``maximum`` (never lowering); the new value."""
        row = await fetch_one(
            self._conn,
            "UPDATE characters SET determination = MAX(determination, MIN(?, determination + ?)),"
            " version = version + 1 WHERE id = ? RETURNING determination",
            (maximum, amount, character_id),
        )
        return int(row[0]) if row else 0

    async def write_recovery(
        self,
        character: Character,
        *,
        hp: int,
        nonlethal: int,
        recovery: int,
        determination: int,
        conditions: Conditions,
        recovery_needed: int = 0,
    ) -> bool:
        """Store what a rest or respite computed from ``character`` (read in this transaction).

        Writes only if the row is still at ``character.version`` and still holds at
        least ``recovery_needed`` recovery points; False (nothing written) otherwise.
        """
        cursor = await self._conn.execute(
            "UPDATE characters SET hp = ?, nonlethal = ?, recovery = ?, determination = ?,"
            " conditions = ?, version = version + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND version = ? AND recovery >= ?",
            (
                hp,
                nonlethal,
                recovery,
                determination,
                json.dumps(conditions.to_dict()),
                character.id,
                character.version,
                recovery_needed,
            ),
        )
        return cursor.rowcount == 1
