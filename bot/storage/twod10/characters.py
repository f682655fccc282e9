"""2d10 character rows: the sheet, hit points, conditions, and each player's active one.

The sheet is stored as JSON (``bot.rules.twod10.sheet_codec``); its maximum HP and
death threshold are copied into columns on every write so that a change of hit
points is one conditional UPDATE clamped in SQL, and can never apply twice or leave
the range the rules allow. Every write bumps ``revision``; a caller holding an older
revision can ask for the write to happen only if nothing changed meanwhile. Every
change of a sheet is recorded for the trackers showing it (``bot.storage.changes``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import aiosqlite
import discord

from bot.errors import UserError
from bot.rules.generic.names import normalise_name
from bot.rules.twod10.character import Character
from bot.rules.twod10.sheet_codec import character_from_dict, character_to_dict
from bot.storage.changes import characters_changed
from bot.storage.sql import fetch_all, fetch_one, refusable, run


class TwoD10Kind(StrEnum):
    PC = "pc"
    ALLY = "ally"
    ANTAGONIST = "antagonist"

    @property
    def title(self) -> str:
        return {"pc": "Player character", "ally": "Ally", "antagonist": "Antagonist"}[self.value]


class TwoD10Condition(StrEnum):
    """The conditions the bot tracks on a 2d10 sheet (the rest the table narrates)."""

    PRONE = "prone"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"


class TwoD10NameTaken(UserError):
    def __init__(self, name: str) -> None:
        shown = discord.utils.escape_mentions(discord.utils.escape_markdown(name[:64]))
        super().__init__(f"There is already a character called {shown} here: pick another name.")


class SheetChanged(UserError):
    """A conditional write found the character gone or changed since it was read."""

    def __init__(self) -> None:
        super().__init__("That character changed or was deleted meanwhile: run the command again.")


@dataclass(frozen=True, kw_only=True)
class TwoD10Sheet:
    id: int
    guild_id: int
    owner_id: int
    kind: TwoD10Kind
    name: str
    character: Character
    hp: int
    conditions: tuple[TwoD10Condition, ...]
    revision: int

    @property
    def max_hp(self) -> int:
        return self.character.max_hp

    @property
    def death_threshold(self) -> int:
        return self.character.death_threshold

    def has(self, condition: TwoD10Condition) -> bool:
        return condition in self.conditions


def _conditions_json(conditions: Iterable[TwoD10Condition | str]) -> str:
    # Sorted and unique so equal sets compare equal as text too.
    return json.dumps(sorted({TwoD10Condition(c).value for c in conditions}))


def _from_row(row: aiosqlite.Row) -> TwoD10Sheet:
    return TwoD10Sheet(
        id=row["id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        kind=TwoD10Kind(row["kind"]),
        name=row["name"],
        character=character_from_dict(json.loads(row["sheet"])),
        hp=row["hp"],
        conditions=tuple(TwoD10Condition(c) for c in json.loads(row["conditions"])),
        revision=row["revision"],
    )


def _sheet_json(character: Character) -> str:
    return json.dumps(character_to_dict(character), separators=(",", ":"))


_COLUMNS = "id, guild_id, owner_id, kind, name, sheet, hp, conditions, revision"
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"


class TwoD10CharacterRepository:
    """All SQL about 2d10 characters. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _one(self, sql: str, params: tuple[object, ...]) -> TwoD10Sheet | None:
        row = await fetch_one(self._conn, sql, params)
        return _from_row(row) if row else None

    async def create(
        self,
        *,
        guild_id: int,
        owner_id: int,
        kind: TwoD10Kind,
        character: Character,
    ) -> TwoD10Sheet:
        """Insert a character at full hit points. Raises TwoD10NameTaken."""
        try:
            pending = fetch_one(
                self._conn,
                "INSERT INTO twod10_characters (guild_id, owner_id, kind, name, name_key, sheet,"
                f" max_hp, death_hp, hp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                (
                    guild_id,
                    owner_id,
                    TwoD10Kind(kind).value,
                    character.name,
                    normalise_name(character.name),
                    _sheet_json(character),
                    character.max_hp,
                    character.death_threshold,
                    character.max_hp,
                ),
            )
            row = await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise TwoD10NameTaken(character.name) from None
            raise
        return _from_row(row)

    async def get(self, guild_id: int, character_id: int) -> TwoD10Sheet | None:
        return await self._one(
            f"SELECT {_COLUMNS} FROM twod10_characters WHERE guild_id = ? AND id = ?",
            (guild_id, character_id),
        )

    async def get_many(self, guild_id: int, ids: Iterable[int]) -> dict[int, TwoD10Sheet]:
        """The guild's characters among ``ids`` (missing ones left out), in one query."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await fetch_all(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_characters WHERE guild_id = ? AND id IN ({marks})",
            (guild_id, *wanted),
        )
        return {row["id"]: _from_row(row) for row in rows}

    async def find(self, guild_id: int, name: str) -> TwoD10Sheet | None:
        """A character of the guild by name, ignoring case and spacing."""
        return await self._one(
            f"SELECT {_COLUMNS} FROM twod10_characters WHERE guild_id = ? AND name_key = ?",
            (guild_id, normalise_name(name)),
        )

    async def list(self, guild_id: int, owner_id: int | None = None) -> list[TwoD10Sheet]:
        """The guild's characters (or one owner's), by name."""
        rows = await fetch_all(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_characters WHERE guild_id = ?"
            " AND (? IS NULL OR owner_id = ?) ORDER BY name_key",
            (guild_id, owner_id, owner_id),
        )
        return [_from_row(row) for row in rows]

    async def search_names(
        self, guild_id: int, query: str, *, owner_id: int | None = None, limit: int = 25
    ) -> list[str]:
        """Names containing ``query`` (for autocomplete), the owner's own first."""
        pattern = "%" + normalise_name(query).replace("%", "").replace("_", "") + "%"
        rows = await fetch_all(
            self._conn,
            "SELECT name FROM twod10_characters WHERE guild_id = ? AND name_key LIKE ?"
            " ORDER BY (owner_id = ?) DESC, name_key LIMIT ?",
            (guild_id, pattern, owner_id or 0, limit),
        )
        return [row[0] for row in rows]

    async def active(self, guild_id: int, owner_id: int) -> TwoD10Sheet | None:
        """The character this member plays in this guild, if they picked one."""
        return await self._one(
            f"SELECT {_COLUMNS} FROM twod10_characters WHERE id = (SELECT character_id"
            " FROM twod10_active_characters WHERE guild_id = ? AND user_id = ?)",
            (guild_id, owner_id),
        )

    async def set_active(self, guild_id: int, owner_id: int, character_id: int) -> None:
        await run(
            self._conn,
            "INSERT INTO twod10_active_characters (guild_id, user_id, character_id)"
            " VALUES (?, ?, ?) ON CONFLICT (guild_id, user_id)"
            " DO UPDATE SET character_id = excluded.character_id",
            (guild_id, owner_id, character_id),
        )

    async def update_sheet(
        self,
        guild_id: int,
        character_id: int,
        character: Character,
        *,
        kind: TwoD10Kind | None = None,
        expected_revision: int | None = None,
    ) -> TwoD10Sheet:
        """Save a changed sheet (and kind), keeping HP within its new range.

        Raises TwoD10NameTaken when a rename collides, SheetChanged when the row is gone
        or (with ``expected_revision``) was changed since it was read.
        """
        try:
            pending = self._one(
                "UPDATE twod10_characters SET name = ?, name_key = ?, sheet = ?,"
                " kind = COALESCE(?, kind), max_hp = ?, death_hp = ?,"
                " hp = MAX(?, MIN(?, hp)), revision = revision + 1,"
                f" updated_at = {_NOW} WHERE guild_id = ? AND id = ?"
                f" AND (? IS NULL OR revision = ?) RETURNING {_COLUMNS}",
                (
                    character.name,
                    normalise_name(character.name),
                    _sheet_json(character),
                    TwoD10Kind(kind).value if kind is not None else None,
                    character.max_hp,
                    character.death_threshold,
                    character.death_threshold,
                    character.max_hp,
                    guild_id,
                    character_id,
                    expected_revision,
                    expected_revision,
                ),
            )
            sheet = await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise TwoD10NameTaken(character.name) from None
            raise
        if sheet is None:
            raise SheetChanged()
        characters_changed(self._conn, guild_id, character_id)  # a tracker shows it
        return sheet

    async def change_hp(
        self,
        guild_id: int,
        character_id: int,
        delta: int,
        *,
        expected_revision: int | None = None,
    ) -> TwoD10Sheet:
        """Add ``delta`` to HP, clamped between the death threshold and the maximum.

        One conditional statement: it changes one row or none. Raises SheetChanged when
        the row is gone or (with ``expected_revision``) was changed since it was read.
        """
        sheet = await self._one(
            "UPDATE twod10_characters SET hp = MAX(death_hp, MIN(max_hp, hp + ?)),"
            f" revision = revision + 1, updated_at = {_NOW} WHERE guild_id = ? AND id = ?"
            f" AND (? IS NULL OR revision = ?) RETURNING {_COLUMNS}",
            (delta, guild_id, character_id, expected_revision, expected_revision),
        )
        if sheet is None:
            raise SheetChanged()
        characters_changed(self._conn, guild_id, character_id)  # a tracker shows it
        return sheet

    async def set_hp(
        self,
        guild_id: int,
        character_id: int,
        hp: int,
        *,
        expected_revision: int | None = None,
    ) -> TwoD10Sheet:
        """Set HP (the GM's correction), clamped like ``change_hp``."""
        sheet = await self._one(
            "UPDATE twod10_characters SET hp = MAX(death_hp, MIN(max_hp, ?)),"
            f" revision = revision + 1, updated_at = {_NOW} WHERE guild_id = ? AND id = ?"
            f" AND (? IS NULL OR revision = ?) RETURNING {_COLUMNS}",
            (hp, guild_id, character_id, expected_revision, expected_revision),
        )
        if sheet is None:
            raise SheetChanged()
        characters_changed(self._conn, guild_id, character_id)  # a tracker shows it
        return sheet

    async def set_conditions(
        self,
        guild_id: int,
        character_id: int,
        conditions: Iterable[TwoD10Condition | str],
        *,
        expected_revision: int | None = None,
    ) -> TwoD10Sheet:
        """Replace the character's conditions. Raises SheetChanged like ``change_hp``."""
        sheet = await self._one(
            f"UPDATE twod10_characters SET conditions = ?, revision = revision + 1,"
            f" updated_at = {_NOW} WHERE guild_id = ? AND id = ?"
            f" AND (? IS NULL OR revision = ?) RETURNING {_COLUMNS}",
            (
                _conditions_json(conditions),
                guild_id,
                character_id,
                expected_revision,
                expected_revision,
            ),
        )
        if sheet is None:
            raise SheetChanged()
        characters_changed(self._conn, guild_id, character_id)  # a tracker shows it
        return sheet

    async def delete(self, guild_id: int, character_id: int) -> bool:
        """Delete a character (its active-character links go with it); False if absent.

        A tracker seating it is told after the commit: it leaves that encounter
        (cogs.twod10.initiative.deleted) and the tracker is redrawn."""
        deleted = (
            await run(
                self._conn,
                "DELETE FROM twod10_characters WHERE guild_id = ? AND id = ?",
                (guild_id, character_id),
            )
            == 1
        )
        if deleted:
            characters_changed(self._conn, guild_id, character_id)
        return deleted
