"""Values every ruleset's pages share: the campaign's heading, a character's vitals as a
viewer may see them, a running encounter's one-line summary, and the page errors.

Names are handed on exactly as typed (templates escape them); nothing here is markdown.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.rulesets import RULESETS
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.sql import fetch_all
from bot.web.views.viewer import Viewer

MAX_ENCOUNTERS = 10  # a table page summarises at most this many running encounters


class PageNotFound(LookupError):
    """What the page asks for is not in this viewer's server (an unknown character, no
    encounter in that channel, no such session). The web core answers 404 without
    saying whether it exists elsewhere: every lookup is by the viewer's guild."""


@dataclass(frozen=True, kw_only=True)
class CampaignInfo:
    guild_id: int
    guild_name: str  # from Discord (the core passes it); "" when unknown
    ruleset: str  # "hocs" or "2d10"
    ruleset_title: str
    show_npc_hp: bool


@dataclass(frozen=True, kw_only=True)
class Vitals:
    """Hit points and conditions. ``hidden``: the GM keeps this NPC's numbers from the
    viewer; then ``hp``, ``max_hp`` and ``temp_hp`` are None/0 and ``conditions``
    empty, and only ``status`` (the tracker's public word) is left."""

    hidden: bool
    hp: int | None
    max_hp: int | None
    temp_hp: int = 0
    status: str = ""  # "unhurt", "hurt", "bloodied", "down", "dying", "dead"…; "" none
    conditions: tuple[str, ...] = ()


HIDDEN_VITALS = Vitals(hidden=True, hp=None, max_hp=None)


@dataclass(frozen=True, kw_only=True)
class EncounterSummary:
    """One running encounter, as the table page lists it (its tracker page has the rest)."""

    channel_id: int
    round: int
    started: bool
    phase: str  # a few words: "round 2", "not started", "the Players' turn"
    acting: tuple[str, ...]  # who acts now: combatants' names (HOCS) or a side (2d10)
    combatants: int


async def load_campaign(conn: aiosqlite.Connection, guild_id: int) -> Campaign:
    """The guild's campaign, or the defaults a read uses when it has none (never writes)."""
    return await CampaignRepository(conn).get_or_default(guild_id)


def campaign_info(campaign: Campaign, guild_name: str = "") -> CampaignInfo:
    return CampaignInfo(
        guild_id=campaign.guild_id,
        guild_name=guild_name,
        ruleset=campaign.ruleset.value,
        ruleset_title=RULESETS[campaign.ruleset].title,
        show_npc_hp=campaign.settings.show_npc_hp,
    )


async def encounter_channels(conn: aiosqlite.Connection, table: str, viewer: Viewer) -> list[int]:
    """The channels of the guild's running encounters in ``table`` (a ruleset's encounter
    table, named by the ruleset's module: never user input), on its guild index."""
    rows = await fetch_all(
        conn,
        f"SELECT channel_id FROM {table} WHERE guild_id = ? ORDER BY channel_id LIMIT ?",
        (viewer.guild_id, MAX_ENCOUNTERS),
    )
    return [int(row[0]) for row in rows]
