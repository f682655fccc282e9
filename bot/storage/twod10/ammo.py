"""Ammo points and lantern oil of 2d10 characters. Never commits.

Spending is one conditional UPDATE (``points >= 1``, ``units >= 1``) inside the
command's transaction, so a point or a unit is spent exactly once however many
commands race; a scavenge saves under the row's revision.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.rules.twod10.ammo import MAX_SPENT, AmmoState
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_one

MAX_OIL = 99


@dataclass(frozen=True, kw_only=True)
class AmmoRow:
    character_id: int
    state: AmmoState
    revision: int


_COLUMNS = "character_id, quivers, points, spent, revision"


def _row(row: aiosqlite.Row) -> AmmoRow:
    return AmmoRow(
        character_id=row["character_id"],
        state=AmmoState(points=row["points"], quivers=row["quivers"], spent=row["spent"]),
        revision=row["revision"],
    )


class TwoD10AmmoRepository:
    """All SQL about 2d10 ammo points and oil."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int, character_id: int) -> AmmoRow | None:
        """The character's ammo, or None while it isn't tracked (never set)."""
        row = await fetch_one(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_ammo WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _row(row) if row else None

    async def set(self, guild_id: int, character_id: int, state: AmmoState) -> AmmoRow:
        """Store ``state`` (creating the row), bumping its revision."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_ammo (character_id, guild_id, quivers, points, spent)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (character_id) DO UPDATE SET"
            " quivers = excluded.quivers, points = excluded.points, spent = excluded.spent,"
            f" revision = revision + 1 RETURNING {_COLUMNS}",
            (character_id, guild_id, state.quivers, state.points, state.spent),
        )
        assert row is not None
        characters_changed(self._conn, guild_id, character_id)  # quivers weigh: its feet
        return _row(row)

    async def save(self, guild_id: int, before: AmmoRow, state: AmmoState) -> AmmoRow | None:
        """Store ``state`` if the row is unchanged since ``before``; None if it changed."""
        row = await fetch_one(
            self._conn,
            "UPDATE twod10_ammo SET quivers = ?, points = ?, spent = ?, revision = revision + 1"
            f" WHERE guild_id = ? AND character_id = ? AND revision = ? RETURNING {_COLUMNS}",
            (state.quivers, state.points, state.spent, guild_id, before.character_id,
             before.revision),
        )  # fmt: skip
        if row is None:
            return None
        if state.quivers != before.state.quivers:  # (points weigh nothing of their own)
            characters_changed(self._conn, guild_id, before.character_id)
        return _row(row)

    async def spend_point(self, guild_id: int, character_id: int) -> AmmoRow | None:
        """Take one ammo point (remembered as spent, for scavenging); None if none was left."""
        row = await fetch_one(
            self._conn,
            "UPDATE twod10_ammo SET points = points - 1, spent = min(spent + 1, ?),"
            " revision = revision + 1 WHERE guild_id = ? AND character_id = ? AND points >= 1"
            f" RETURNING {_COLUMNS}",
            (MAX_SPENT, guild_id, character_id),
        )
        return _row(row) if row else None

    async def oil(self, guild_id: int, character_id: int) -> int:
        row = await fetch_one(
            self._conn,
            "SELECT units FROM twod10_oil WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return row[0] if row else 0

    async def set_oil(self, guild_id: int, character_id: int, units: int) -> int:
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_oil (character_id, guild_id, units) VALUES (?, ?, ?)"
            " ON CONFLICT (character_id) DO UPDATE SET units = excluded.units RETURNING units",
            (character_id, guild_id, units),
        )
        assert row is not None
        return int(row[0])

    async def spend_oil(self, guild_id: int, character_id: int) -> int | None:
        """Take one unit of oil: the units left, or None (there was none)."""
        row = await fetch_one(
            self._conn,
            "UPDATE twod10_oil SET units = units - 1"
            " WHERE guild_id = ? AND character_id = ? AND units >= 1 RETURNING units",
            (guild_id, character_id),
        )
        return row[0] if row else None
