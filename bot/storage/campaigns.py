"""Campaign rows: one per guild, created with defaults on first use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite
from pydantic import BaseModel, ConfigDict

# The enum lives with the ruleset registry; re-exported here for existing imports.
from bot.rulesets import Ruleset

__all__ = ["Campaign", "CampaignRepository", "CampaignSettings", "Ruleset"]


class CampaignSettings(BaseModel):
    """Per-campaign options stored as JSON; later features add fields with defaults."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    show_npc_hp: bool = False  # the initiative tracker shows NPC hit points, not a status word
    one_shot: bool = False  # one hero point per adventure instead of one per session


@dataclass(frozen=True)
class Campaign:
    guild_id: int
    ruleset: Ruleset
    gm_role_id: int | None
    gm_channel_id: int | None
    settings: CampaignSettings


def _from_row(row: aiosqlite.Row) -> Campaign:
    return Campaign(
        guild_id=row["guild_id"],
        ruleset=Ruleset(row["ruleset"]),
        gm_role_id=row["gm_role_id"],
        gm_channel_id=row["gm_channel_id"],
        settings=CampaignSettings.model_validate(json.loads(row["settings"])),
    )


class CampaignRepository:
    """All SQL about campaigns. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get_or_create(self, guild_id: int) -> Campaign:
        """The guild's campaign, inserting one with defaults if it has none yet."""
        await self._conn.execute(
            "INSERT INTO campaigns (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING",
            (guild_id,),
        )
        async with self._conn.execute(
            "SELECT * FROM campaigns WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None  # just inserted or already there
        return _from_row(row)

    async def get(self, guild_id: int) -> Campaign | None:
        async with self._conn.execute(
            "SELECT * FROM campaigns WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _from_row(row) if row else None

    async def update(self, guild_id: int, **changes: Any) -> Campaign:
        """Change the named columns (ruleset, gm_role_id, gm_channel_id, settings).

        Raises KeyError for a column that is not one of those.
        """
        allowed = {"ruleset", "gm_role_id", "gm_channel_id", "settings"}
        unknown = set(changes) - allowed
        if unknown:
            raise KeyError(f"not campaign columns: {sorted(unknown)}")
        await self.get_or_create(guild_id)
        values = {
            key: (
                value.model_dump_json()
                if isinstance(value, CampaignSettings)
                else value.value
                if isinstance(value, Ruleset)
                else value
            )
            for key, value in changes.items()
        }
        if values:
            assignments = ", ".join(f"{column} = :{column}" for column in values)
            await self._conn.execute(
                f"UPDATE campaigns SET {assignments},"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE guild_id = :guild_id",
                {**values, "guild_id": guild_id},
            )
        campaign = await self.get(guild_id)
        assert campaign is not None
        return campaign

    async def has_play_data(self, guild_id: int) -> bool:
        """Whether the campaign has anything a switch could make people think was lost:
        characters, logged rolls or game sessions (rolls of either ruleset are logged)."""
        async with self._conn.execute(
            "SELECT EXISTS (SELECT 1 FROM characters WHERE guild_id = :g)"
            " OR EXISTS (SELECT 1 FROM roll_log WHERE guild_id = :g)"
            " OR EXISTS (SELECT 1 FROM sessions WHERE guild_id = :g)",
            {"g": guild_id},
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def running_encounter_channel(self, guild_id: int) -> int | None:
        """The channel of an encounter running in the guild, if any (either ruleset's)."""
        async with self._conn.execute(
            "SELECT channel_id FROM encounters WHERE guild_id = :g"
            " UNION ALL SELECT channel_id FROM twod10_encounters WHERE guild_id = :g LIMIT 1",
            {"g": guild_id},
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

    async def switch_ruleset(self, guild_id: int, old: Ruleset, new: Ruleset) -> bool:
        """Switch from ``old`` to ``new`` only if the campaign still plays ``old``: a
        confirmation pressed twice (or after another switch) changes nothing."""
        cursor = await self._conn.execute(
            "UPDATE campaigns SET ruleset = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND ruleset = ?",
            (new.value, guild_id, old.value),
        )
        return cursor.rowcount == 1
