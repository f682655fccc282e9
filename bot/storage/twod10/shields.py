"""Blocks made with a 2d10 character's shield (a shield breaks after its table's count)."""

from __future__ import annotations

import aiosqlite

from bot.errors import UserError
from bot.storage.sql import fetch_one, run


class ShieldBroken(UserError):
    def __init__(self, name: str, shield: str) -> None:
        super().__init__(
            f"{name}'s {shield.lower()} is broken and can't block: attack without block."
        )


class ShieldBlockRepository:
    """All SQL about shield blocks. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def used(self, character_id: int, shield: str) -> int:
        """Blocks already made with this shield (0 when it is another shield than stored)."""
        row = await fetch_one(
            self._conn,
            "SELECT used FROM twod10_shield_blocks WHERE character_id = ? AND shield = ?",
            (character_id, shield),
        )
        return int(row[0]) if row else 0

    async def spend(self, character_id: int, shield: str, blocks: int) -> int:
        """Spend one block of a shield that has ``blocks``; return the blocks now used.

        One conditional upsert: a shield of another name starts from 0; nothing is written
        when the shield is already broken. Raises LookupError when no block is left
        (the caller turns it into a refusal).
        """
        row = await fetch_one(
            self._conn,
            "INSERT INTO twod10_shield_blocks (character_id, shield, used) VALUES (?, ?, 1)"
            " ON CONFLICT (character_id) DO UPDATE SET"
            " used = CASE WHEN shield = excluded.shield THEN used + 1 ELSE 1 END,"
            " shield = excluded.shield"
            " WHERE shield <> excluded.shield OR used < ?"
            " RETURNING used",
            (character_id, shield, blocks),
        )
        if row is None:
            raise LookupError(shield)
        return int(row[0])

    async def repair(self, character_id: int) -> bool:
        """Forget the blocks made (a mended or new shield); False if none were stored."""
        changed = await run(
            self._conn, "DELETE FROM twod10_shield_blocks WHERE character_id = ?", (character_id,)
        )
        return changed == 1
