"""The 2d10 campaign's day count and each character's rations. Never commits.

A day's food is spent exactly once: the eat is one UPDATE conditional on the row's
revision and on the character not having eaten on that day (``last_day``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from bot.rules.twod10.rations import RationState
from bot.rules.twod10.survival_codec import rations_from_dict, rations_to_dict
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_all, fetch_one


@dataclass(frozen=True, kw_only=True)
class RationRow:
    character_id: int
    state: RationState
    last_day: int | None
    revision: int


def _row(row: aiosqlite.Row) -> RationRow:
    return RationRow(
        character_id=row[0], state=rations_from_dict(json.loads(row[1])), last_day=row[2],
        revision=row[3],
    )  # fmt: skip


def _json(state: RationState) -> str:
    return json.dumps(rations_to_dict(state))


EMPTY = RationState(quarters=0)


class TwoD10CalendarRepository:
    """The campaign's day: 1 until the GM first advances it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def today(self, guild_id: int) -> int:
        row = await fetch_one(
            self._conn, "SELECT day FROM twod10_calendar WHERE guild_id = ?", (guild_id,)
        )
        return row[0] if row else 1

    async def advance(self, guild_id: int, days: int) -> int:
        """Move the day on by ``days``; the new day."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_calendar (guild_id, day) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET day = twod10_calendar.day + ?"
            " RETURNING day",
            (guild_id, 1 + days, days),
        )
        assert row is not None
        return row[0]


class TwoD10RationRepository:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int, character_id: int) -> RationRow | None:
        row = await fetch_one(
            self._conn,
            "SELECT character_id, state, last_day, revision FROM twod10_rations"
            " WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _row(row) if row else None

    async def list(self, guild_id: int) -> dict[int, RationRow]:
        rows = await fetch_all(
            self._conn,
            "SELECT character_id, state, last_day, revision FROM twod10_rations WHERE guild_id = ?",
            (guild_id,),
        )
        return {r[0]: _row(r) for r in rows}

    async def save(
        self, guild_id: int, character_id: int, state: RationState, *, expected: RationRow | None
    ) -> bool:
        """Store ``state`` if the row is as read (``expected``; None: no row yet).
        False when another command changed it first (nothing written)."""
        if expected is None:
            row = await fetch_one(
                self._conn,
                "INSERT INTO twod10_rations (character_id, guild_id, state, quarters)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (character_id) DO NOTHING"
                " RETURNING character_id",
                (character_id, guild_id, _json(state), state.quarters),
            )
        else:
            row = await fetch_one(
                self._conn,
                "UPDATE twod10_rations SET state = ?, quarters = ?, revision = revision + 1"
                " WHERE guild_id = ? AND character_id = ? AND revision = ?"
                " RETURNING character_id",
                (_json(state), state.quarters, guild_id, character_id, expected.revision),
            )
        if row is None:
            return False
        characters_changed(self._conn, guild_id, character_id)  # rations weigh: its feet
        return True

    async def eat(self, guild_id: int, row: RationRow, state: RationState, *, day: int) -> bool:
        """Record the day's meal: only if unchanged since read and not yet eaten on
        ``day``. False when it was (nothing written, nothing spent)."""
        done = await fetch_one(
            self._conn,
            "UPDATE twod10_rations SET state = ?, quarters = ?, last_day = ?,"
            " revision = revision + 1 WHERE guild_id = ? AND character_id = ?"
            " AND revision = ? AND (last_day IS NULL OR last_day < ?) RETURNING character_id",
            (_json(state), state.quarters, day, guild_id, row.character_id, row.revision, day),
        )
        if done is None:
            return False
        characters_changed(self._conn, guild_id, row.character_id)  # eaten: lighter
        return True
