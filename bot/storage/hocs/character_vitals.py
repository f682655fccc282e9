"""Atomic changes to a character's hit points and conditions, for any feature that hurts,
heals or afflicts characters (the initiative tracker, combat).

Hit points change in one SQL statement relative to the stored value, so two writers
never lose each other's damage. Conditions are JSON, so they change by
compare-and-set on the row's ``version``: read, apply a pure change, write only if
nobody wrote in between (retrying a few times if someone did).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import aiosqlite

from bot.rules.hocs.conditions import Condition, ConditionKind, Conditions
from bot.storage.dialect import ROW_LOCK
from bot.storage.sql import fetch_one

CAS_ATTEMPTS = 5


class VitalsConflict(Exception):
    """The character kept changing under a compare-and-set (a storage-level failure)."""


@dataclass(frozen=True, kw_only=True)
class Vitals:
    character_id: int
    hp: int
    temp_hp: int
    nonlethal: int
    conditions: Conditions
    version: int


@dataclass(frozen=True, kw_only=True)
class HpChange:
    """Before and after one ``adjust_hp``; ``temp_absorbed`` is what temporary HP took."""

    hp_before: int
    hp: int
    temp_before: int
    temp_hp: int

    @property
    def temp_absorbed(self) -> int:
        return self.temp_before - self.temp_hp

    @property
    def hp_lost(self) -> int:
        return max(0, self.hp_before - self.hp)


class CharacterVitalsRepository:
    """Hit points and conditions of characters. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, character_id: int) -> Vitals | None:
        row = await fetch_one(
            self._conn,
            # Locked in a write transaction (PostgreSQL): adjust_hp reports the HP before
            # its change from this read, so no other process may change the row between.
            "SELECT id, hp, temp_hp, nonlethal, conditions, version FROM characters"
            f" WHERE id = ?{ROW_LOCK}",
            (character_id,),
        )
        if row is None:
            return None
        return Vitals(
            character_id=row[0],
            hp=row[1],
            temp_hp=row[2],
            nonlethal=row[3],
            conditions=Conditions.from_dict(json.loads(row[4])),
            version=row[5],
        )

    async def adjust_hp(
        self,
        character_id: int,
        delta: int,
        *,
        maximum: int | None = None,
        temporary_first: bool = True,
    ) -> HpChange | None:
        """Add ``delta`` hit points (negative: lose them); None if there is no such character.

        A loss comes off temporary hit points first unless ``temporary_first`` is False.
        A gain stops at ``maximum`` when one is given (never lowering HP already above it):
        pass the wounded maximum, ``Character.effective.max_hp``.
        Hit points may go negative: the threshold rules decide what that means.
        """
        before = await self.get(character_id)
        if before is None:
            return None
        if delta < 0 and temporary_first:
            sql = (
                "UPDATE characters SET hp = hp - MAX(:loss - temp_hp, 0),"
                " temp_hp = MAX(temp_hp - :loss, 0),"
            )
        elif delta < 0:
            sql = "UPDATE characters SET hp = hp - :loss,"
        elif maximum is not None:
            sql = "UPDATE characters SET hp = MAX(hp, MIN(hp + :gain, :maximum)),"
        else:
            sql = "UPDATE characters SET hp = hp + :gain,"
        sql += (
            " version = version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = :id RETURNING hp, temp_hp"
        )
        params = {"loss": -delta, "gain": delta, "maximum": maximum, "id": character_id}
        row = await fetch_one(self._conn, sql, params)
        if row is None:
            return None
        return HpChange(hp_before=before.hp, hp=row[0], temp_before=before.temp_hp, temp_hp=row[1])

    async def set_conditions(
        self, character_id: int, conditions: Conditions, *, expected_version: int | None = None
    ) -> bool:
        """Replace the conditions; with ``expected_version``, only if the row is still there.

        Returns False (nothing written) when the character is gone or has moved on.
        """
        sql = (
            "UPDATE characters SET conditions = ?, version = version + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?"
        )
        params: list[object] = [json.dumps(conditions.to_dict()), character_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount == 1

    async def update_conditions(
        self, character_id: int, change: Callable[[Conditions], Conditions]
    ) -> Conditions | None:
        """Apply a pure change to the stored conditions atomically; the result.

        None when the character doesn't exist. Raises VitalsConflict if another writer
        changed the row on every attempt (only possible outside a write transaction).
        """
        for _ in range(CAS_ATTEMPTS):
            current = await self.get(character_id)
            if current is None:
                return None
            updated = change(current.conditions)
            if updated == current.conditions:
                return updated
            if await self.set_conditions(character_id, updated, expected_version=current.version):
                return updated
        raise VitalsConflict(f"character {character_id} kept changing; giving up")

    async def add_condition(
        self, character_id: int, condition: Condition, value: int = 1
    ) -> Conditions | None:
        """Gain a condition (fatigued stacks, bleeding keeps the higher value)."""
        return await self.update_conditions(character_id, lambda c: c.add(condition, value))

    async def remove_condition(
        self, character_id: int, condition: Condition, instances: int | None = None
    ) -> Conditions | None:
        """Lose a condition; for a stacking one, ``instances`` removes only that many."""

        def change(conditions: Conditions) -> Conditions:
            if instances is None or condition.kind is not ConditionKind.STACKS:
                return conditions.remove(condition)
            left = conditions.value(condition) - instances
            conditions = conditions.remove(condition)
            return conditions.add(condition, left) if left > 0 else conditions

        return await self.update_conditions(character_id, change)
