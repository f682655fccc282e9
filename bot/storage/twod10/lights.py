"""Torches and lanterns of 2d10 characters. Each write is conditional on the light's
revision so a drop, relight or advance applies exactly once. Never commits."""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from bot.rules.twod10.light import Light
from bot.rules.twod10.survival_codec import light_from_dict, light_to_dict
from bot.storage.sql import fetch_all, fetch_one

MAX_LIGHTS = 20  # per character: more is a typo, not a torch bundle


@dataclass(frozen=True, kw_only=True)
class LightRow:
    id: int
    character_id: int
    character_name: str
    light: Light
    revision: int


_SELECT = (
    "SELECT l.id, l.character_id, c.name, l.state, l.revision FROM twod10_lights l"
    " JOIN twod10_characters c ON c.id = l.character_id WHERE l.guild_id = ?"
)


def _row(row: aiosqlite.Row) -> LightRow:
    return LightRow(
        id=row[0], character_id=row[1], character_name=row[2],
        light=light_from_dict(json.loads(row[3])), revision=row[4],
    )  # fmt: skip


def _json(light: Light) -> str:
    return json.dumps(light_to_dict(light))


class TwoD10LightRepository:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def add(self, guild_id: int, character_id: int, light: Light) -> int | None:
        """Store a new light; None when the character already carries MAX_LIGHTS."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_lights (guild_id, character_id, state) SELECT ?, ?, ?"
            " WHERE (SELECT COUNT(*) FROM twod10_lights WHERE character_id = ?) < ?"
            " RETURNING id",
            (guild_id, character_id, _json(light), character_id, MAX_LIGHTS),
        )
        return row[0] if row else None

    async def list(self, guild_id: int, character_id: int | None = None) -> list[LightRow]:
        rows = await fetch_all(
            self._conn,
            _SELECT + " AND (? IS NULL OR l.character_id = ?) ORDER BY c.name_key, l.id",
            (guild_id, character_id, character_id),
        )
        return [_row(r) for r in rows]

    async def update(self, guild_id: int, row: LightRow, light: Light) -> bool:
        """Save ``light`` if the row is unchanged since read; False if it changed."""
        changed = await fetch_one(
            self._conn,
            "UPDATE twod10_lights SET state = ?, revision = revision + 1"
            " WHERE guild_id = ? AND id = ? AND revision = ? RETURNING id",
            (_json(light), guild_id, row.id, row.revision),
        )
        return changed is not None
