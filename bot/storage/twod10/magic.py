"""The 2d10 concentration each character holds: one row while it lasts.

Holding replaces any row the character had (ruling one-concentration); ending is a
``DELETE ... RETURNING`` so exactly one command ends (and announces) a given
concentration. All SQL about magic lives here; the repository never commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from bot.rules.twod10.magic import Concentration, Form, Tier
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_all, fetch_one


@dataclass(frozen=True, kw_only=True)
class Held:
    """A concentration on the table: whose, what, and from which casting."""

    character_id: int
    effect: str
    form: Form
    tier: Tier
    roll_id: int | None = None

    @property
    def state(self) -> Concentration:
        return Concentration(effect=self.effect)


_COLUMNS = "character_id, effect, form, tier, roll_id"


def _held(row: aiosqlite.Row) -> Held:
    return Held(
        character_id=row["character_id"],
        effect=row["effect"],
        form=Form(row["form"]),
        tier=Tier(row["tier"]),
        roll_id=row["roll_id"],
    )


class TwoD10MagicRepository:
    """All SQL about 2d10 concentration. Never commits."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int, character_id: int) -> Held | None:
        row = await fetch_one(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_concentration WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _held(row) if row else None

    async def get_many(self, guild_id: int, character_ids: Iterable[int]) -> dict[int, Held]:
        """The concentrations of these characters (one query)."""
        wanted = sorted(set(character_ids))
        if not wanted:
            return {}
        # Plain placeholders (no SQLite JSON table function): standard SQL for any backend.
        marks = ", ".join("?" * len(wanted))
        rows = await fetch_all(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_concentration WHERE guild_id = ?"
            f" AND character_id IN ({marks})",
            (guild_id, *wanted),
        )
        return {row["character_id"]: _held(row) for row in rows}

    async def list(self, guild_id: int) -> list[Held]:
        rows = await fetch_all(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_concentration WHERE guild_id = ? ORDER BY character_id",
            (guild_id,),
        )
        return [_held(row) for row in rows]

    async def hold(self, guild_id: int, held: Held) -> Held:
        """Store ``held`` as the character's one concentration, replacing any other."""
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_concentration (character_id, guild_id, effect, form, tier,"
            " roll_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (character_id) DO UPDATE SET"
            " effect = excluded.effect, form = excluded.form, tier = excluded.tier,"
            f" roll_id = excluded.roll_id RETURNING {_COLUMNS}",
            (held.character_id, guild_id, held.effect, held.form.value, held.tier.value,
             held.roll_id),
        )  # fmt: skip
        assert row is not None
        characters_changed(self._conn, guild_id, held.character_id)  # a tracker shows it
        return _held(row)

    async def end(self, guild_id: int, character_id: int) -> Held | None:
        """End the character's concentration: what ended, or None (nothing held)."""
        row = await fetch_one(
            self._conn,
            "DELETE FROM twod10_concentration WHERE guild_id = ? AND character_id = ?"
            f" RETURNING {_COLUMNS}",
            (guild_id, character_id),
        )
        if row is None:
            return None
        characters_changed(self._conn, guild_id, character_id)  # a tracker showed it
        return _held(row)
