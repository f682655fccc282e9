"""Diseases 2d10 characters carry. One row per (character, disease name); each write is
conditional on the row's revision so a roll's outcome applies exactly once. Never
commits."""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from bot.rules.generic.names import normalise_name
from bot.rules.twod10.disease import Infection
from bot.rules.twod10.survival_codec import infection_from_dict, infection_to_dict
from bot.storage.sql import fetch_all, fetch_one

MAX_INFECTIONS = 10  # per character


@dataclass(frozen=True, kw_only=True)
class InfectionRow:
    id: int
    character_id: int
    character_name: str
    owner_id: int
    infection: Infection
    due_day: int
    treated_day: int | None
    revision: int


_SELECT = (
    "SELECT i.id, i.character_id, c.name, c.owner_id, i.state, i.due_day, i.treated_day,"
    " i.revision"
    " FROM twod10_infections i JOIN twod10_characters c ON c.id = i.character_id"
    " WHERE i.guild_id = ?"
)


def _row(row: aiosqlite.Row) -> InfectionRow:
    return InfectionRow(
        id=row[0], character_id=row[1], character_name=row[2], owner_id=row[3],
        infection=infection_from_dict(json.loads(row[4])), due_day=row[5], treated_day=row[6],
        revision=row[7],
    )  # fmt: skip


def _json(infection: Infection) -> str:
    return json.dumps(infection_to_dict(infection))


class TwoD10InfectionRepository:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def list(
        self, guild_id: int, *, character_id: int | None = None, owner_id: int | None = None
    ) -> list[InfectionRow]:
        """Infections in the guild, optionally of one character or one owner's characters."""
        rows = await fetch_all(
            self._conn,
            _SELECT + " AND (? IS NULL OR i.character_id = ?) AND (? IS NULL OR c.owner_id = ?)"
            " ORDER BY c.name_key, i.name_key",
            (guild_id, character_id, character_id, owner_id, owner_id),
        )
        return [_row(r) for r in rows]

    async def find(self, guild_id: int, character_id: int, name: str) -> InfectionRow | None:
        row = await fetch_one(
            self._conn,
            _SELECT + " AND i.character_id = ? AND i.name_key = ?",
            (guild_id, character_id, normalise_name(name)),
        )
        return _row(row) if row else None

    async def add(
        self, guild_id: int, character_id: int, infection: Infection, *, due_day: int
    ) -> int | None:
        """Store a new infection; None when the character already has this disease or
        carries MAX_INFECTIONS."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_infections (guild_id, character_id, name_key, state, due_day)"
            " SELECT ?, ?, ?, ?, ?"
            " WHERE (SELECT COUNT(*) FROM twod10_infections WHERE character_id = ?) < ?"
            " ON CONFLICT (character_id, name_key) DO NOTHING RETURNING id",
            (guild_id, character_id, normalise_name(infection.disease.name), _json(infection),
             due_day, character_id, MAX_INFECTIONS),
        )  # fmt: skip
        return row[0] if row else None

    async def update(
        self, guild_id: int, row: InfectionRow, infection: Infection, *, due_day: int
    ) -> bool:
        """Save the infection if unchanged since read; False if it changed or went."""
        done = await fetch_one(
            self._conn,
            "UPDATE twod10_infections SET state = ?, due_day = ?, revision = revision + 1"
            " WHERE guild_id = ? AND id = ? AND revision = ? RETURNING id",
            (_json(infection), due_day, guild_id, row.id, row.revision),
        )
        return done is not None

    async def treat(
        self, guild_id: int, row: InfectionRow, infection: Infection, *, day: int
    ) -> bool:
        """Save a treatment's outcome if unchanged since read and not yet treated on
        ``day``; False otherwise (nothing written)."""
        done = await fetch_one(
            self._conn,
            "UPDATE twod10_infections SET state = ?, treated_day = ?, revision = revision + 1"
            " WHERE guild_id = ? AND id = ? AND revision = ?"
            " AND (treated_day IS NULL OR treated_day < ?) RETURNING id",
            (_json(infection), day, guild_id, row.id, row.revision, day),
        )
        return done is not None

    async def remove(self, guild_id: int, row: InfectionRow) -> bool:
        """Delete the infection if unchanged since read (cured once)."""
        done = await fetch_one(
            self._conn,
            "DELETE FROM twod10_infections WHERE guild_id = ? AND id = ? AND revision = ?"
            " RETURNING id",
            (guild_id, row.id, row.revision),
        )
        return done is not None
