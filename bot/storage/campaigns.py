"""Campaign rows: one per guild, created with defaults on first use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite
from pydantic import BaseModel, ConfigDict

# The enum lives with the ruleset registry; re-exported here for existing imports.
from bot.rulesets import Ruleset
from bot.storage.sql import fetch_one, run

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


# The parsed campaign of each guild, with the exact row it was parsed from. A read
# that fetches the row (PostgreSQL always; SQLite when its connection's cache, in
# bot.storage.campaign_cache, has no current value) reuses the parsed value only when
# every column is equal, so whoever changed the row the next read parses the new
# values: never stale by construction.
_PARSED: dict[int, tuple[tuple[Any, ...], Campaign]] = {}
CAMPAIGN_CACHE_SIZE = 4096


def _from_row(row: aiosqlite.Row) -> Campaign:
    values = tuple(row)
    guild_id = row["guild_id"]
    cached = _PARSED.get(guild_id)
    if cached is not None and cached[0] == values:
        return cached[1]
    campaign = Campaign(
        guild_id=guild_id,
        ruleset=Ruleset(row["ruleset"]),
        gm_role_id=row["gm_role_id"],
        gm_channel_id=row["gm_channel_id"],
        settings=CampaignSettings.model_validate(json.loads(row["settings"])),
    )
    if len(_PARSED) >= CAMPAIGN_CACHE_SIZE:
        _PARSED.pop(next(iter(_PARSED)))  # the oldest entry: a bound, not an LRU
    _PARSED[guild_id] = (values, campaign)
    return campaign


class CampaignRepository:
    """All SQL about campaigns. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def get_or_create(self, guild_id: int) -> Campaign:
        """The guild's campaign, inserting one with defaults if it has none yet.

        One statement when the row exists (every command after the guild's first), or
        none when this connection has it cached (``bot.storage.campaign_cache``).
        """
        cache, cached = self._cached(guild_id)
        if cached is not None:
            return cached
        row = await fetch_one(self._conn, "SELECT * FROM campaigns WHERE guild_id = ?", (guild_id,))
        if row is None:
            row = await fetch_one(
                self._conn,
                "INSERT INTO campaigns (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING"
                " RETURNING *",
                (guild_id,),
            )
        if row is None:  # another connection inserted it between the two statements
            row = await fetch_one(
                self._conn, "SELECT * FROM campaigns WHERE guild_id = ?", (guild_id,)
            )
        assert row is not None
        return self._keep(cache, _from_row(row))

    async def get(self, guild_id: int) -> Campaign | None:
        cache, cached = self._cached(guild_id)
        if cached is not None:
            return cached
        row = await fetch_one(self._conn, "SELECT * FROM campaigns WHERE guild_id = ?", (guild_id,))
        return self._keep(cache, _from_row(row)) if row else None

    async def get_or_default(self, guild_id: int) -> Campaign:
        """The guild's campaign, or the defaults a server without one has (never writes:
        for reads and checks that must not create a row)."""
        found = await self.get(guild_id)
        if found is not None:
            return found
        return Campaign(
            guild_id=guild_id, ruleset=Ruleset.HOCS, gm_role_id=None, gm_channel_id=None,
            settings=CampaignSettings(),
        )  # fmt: skip

    def _cached(self, guild_id: int) -> tuple[Any, Campaign | None]:
        """This connection's campaign cache (None on one without: PostgreSQL, a plain
        aiosqlite connection) and the guild's campaign from it if still current."""
        cache = getattr(self._conn, "campaign_cache", None)
        if cache is None or not getattr(self._conn, "inline", False):
            return None, None
        return cache, cache.get(self._conn, guild_id)

    def _keep(self, cache: Any, campaign: Campaign) -> Campaign:
        # Read on the loop's thread too (inline): the version checked still covers it.
        if cache is not None and self._conn.inline:  # type: ignore[attr-defined]
            cache.put(campaign.guild_id, campaign)
        return campaign

    async def update(self, guild_id: int, **changes: Any) -> Campaign:
        """Change the named columns (ruleset, gm_role_id, gm_channel_id, settings).

        Raises KeyError for a column that is not one of those.
        """
        allowed = {"ruleset", "gm_role_id", "gm_channel_id", "settings"}
        unknown = set(changes) - allowed
        if unknown:
            raise KeyError(f"not campaign columns: {sorted(unknown)}")
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
        if not values:
            return await self.get_or_create(guild_id)
        columns = ", ".join(values)
        marks = ", ".join(f":{column}" for column in values)
        assignments = ", ".join(f"{column} = excluded.{column}" for column in values)
        row = await fetch_one(
            self._conn,
            f"INSERT INTO campaigns (guild_id, {columns}) VALUES (:guild_id, {marks})"
            f" ON CONFLICT (guild_id) DO UPDATE SET {assignments},"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') RETURNING *",
            {**values, "guild_id": guild_id},
        )
        assert row is not None  # inserted or updated
        return _from_row(row)

    async def has_play_data(self, guild_id: int) -> bool:
        """Whether the campaign has anything a switch could make people think was lost:
        characters, logged rolls or game sessions (rolls of either ruleset are logged)."""
        row = await fetch_one(
            self._conn,
            "SELECT EXISTS (SELECT 1 FROM characters WHERE guild_id = :g)"
            " OR EXISTS (SELECT 1 FROM roll_log WHERE guild_id = :g)"
            " OR EXISTS (SELECT 1 FROM sessions WHERE guild_id = :g)",
            {"g": guild_id},
        )
        return bool(row and row[0])

    async def running_encounter_channel(self, guild_id: int) -> int | None:
        """The channel of an encounter running in the guild, if any (either ruleset's)."""
        row = await fetch_one(
            self._conn,
            "SELECT channel_id FROM encounters WHERE guild_id = :g"
            " UNION ALL SELECT channel_id FROM twod10_encounters WHERE guild_id = :g LIMIT 1",
            {"g": guild_id},
        )
        return None if row is None else int(row[0])

    async def switch_ruleset(self, guild_id: int, old: Ruleset, new: Ruleset) -> bool:
        """Switch from ``old`` to ``new`` only if the campaign still plays ``old``: a
        confirmation pressed twice (or after another switch) changes nothing."""
        changed = await run(
            self._conn,
            "UPDATE campaigns SET ruleset = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND ruleset = ?",
            (new.value, guild_id, old.value),
        )
        return changed == 1
