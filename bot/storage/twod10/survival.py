"""Per-character survival state for the 2d10 system: healing state and medical supplies.

The sheet (``twod10_characters.hp``) is the source of truth for hit points; the
healing state stored here keeps what the sheet can't: the short-rest cap, whether
damage was taken since the last short rest, the daily medicine uses and a
stabilisation's advantage. Spending supplies is one conditional UPDATE so a unit is
spent exactly once. The repository never commits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from bot.rules.twod10.healing import HealingState
from bot.rules.twod10.survival_codec import healing_from_dict, healing_to_dict
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_one

MAX_SUPPLIES = 99


@dataclass(frozen=True, kw_only=True)
class SurvivalRow:
    character_id: int
    healing: HealingState | None
    supplies: int
    revision: int


def _from_row(row: aiosqlite.Row) -> SurvivalRow:
    raw = row["healing"]
    return SurvivalRow(
        character_id=row["character_id"],
        healing=healing_from_dict(json.loads(raw)) if raw is not None else None,
        supplies=row["supplies"],
        revision=row["revision"],
    )


_COLUMNS = "character_id, healing, supplies, revision"


class TwoD10SurvivalRepository:
    """All SQL about 2d10 survival state. Never commits."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int, character_id: int) -> SurvivalRow | None:
        row = await fetch_one(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_survival WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _from_row(row) if row else None

    async def save_healing(
        self, guild_id: int, character_id: int, state: HealingState
    ) -> SurvivalRow:
        """Store the healing state (creating the row), bumping its revision."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_survival (character_id, guild_id, healing) VALUES (?, ?, ?)"
            " ON CONFLICT (character_id) DO UPDATE SET healing = excluded.healing,"
            f" revision = revision + 1 RETURNING {_COLUMNS}",
            (character_id, guild_id, json.dumps(healing_to_dict(state))),
        )
        return _from_row(row)

    async def set_supplies(self, guild_id: int, character_id: int, units: int) -> SurvivalRow:
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_survival (character_id, guild_id, supplies) VALUES (?, ?, ?)"
            " ON CONFLICT (character_id) DO UPDATE SET supplies = excluded.supplies,"
            f" revision = revision + 1 RETURNING {_COLUMNS}",
            (character_id, guild_id, units),
        )
        characters_changed(self._conn, guild_id, character_id)  # supplies weigh: its feet
        return _from_row(row)

    async def spend_supply(self, guild_id: int, character_id: int) -> int | None:
        """Take one unit of medical supplies: the units left, or None (nothing spent)."""
        row = await fetch_one(
            self._conn,
            "UPDATE twod10_survival SET supplies = supplies - 1, revision = revision + 1"
            " WHERE guild_id = ? AND character_id = ? AND supplies >= 1 RETURNING supplies",
            (guild_id, character_id),
        )
        if row is None:
            return None
        characters_changed(self._conn, guild_id, character_id)  # supplies weigh: its feet
        return row[0]
