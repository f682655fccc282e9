"""A HOCS table's page: the campaign, every character with what the viewer may see of it,
and the running encounters.

Player characters first, then allies, then antagonists, each by name (everyone may see
that a character exists and its name, as ``/character list`` shows them all). For each:
hit points and conditions (or a hidden NPC's status word, ``visibility``), hero points
(player characters only, as the sheet shows them), fortune points (their sources, shown
on every sheet), determination and recovery, and wounds (hidden with an NPC's state).
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.web.views.common import (
    CampaignInfo,
    EncounterSummary,
    Vitals,
    campaign_info,
    encounter_channels,
    load_campaign,
)
from bot.web.views.hocs.visibility import character_vitals, seated_switches, sees_character
from bot.web.views.viewer import Viewer

KIND_ORDER = {CharacterKind.PC: 0, CharacterKind.ALLY: 1, CharacterKind.ANTAGONIST: 2}


@dataclass(frozen=True, kw_only=True)
class WoundRow:
    description: str
    recovery_days: int
    injury: bool


@dataclass(frozen=True, kw_only=True)
class HocsCharacterRow:
    id: int
    name: str
    kind: str  # "pc", "ally", "antagonist"
    kind_title: str
    owner_id: int
    tier: int
    vitals: Vitals
    hero_points: int | None  # player characters only
    fortune: tuple[str, ...]  # the sources of its fortune points
    determination: int | None  # None (with the maxima) when hidden
    determination_max: int | None
    recovery: int | None
    recovery_max: int | None
    wounds: tuple[WoundRow, ...]  # empty when hidden


@dataclass(frozen=True, kw_only=True)
class HocsTable:
    campaign: CampaignInfo
    characters: tuple[HocsCharacterRow, ...]
    encounters: tuple[EncounterSummary, ...]


def wound_rows(character: Character) -> tuple[WoundRow, ...]:
    return tuple(
        WoundRow(description=w.description, recovery_days=w.recovery_days, injury=w.is_injury)
        for w in character.wounds
    )


def character_row(character: Character, *, shown: bool) -> HocsCharacterRow:
    values, state = character.effective, character.state
    return HocsCharacterRow(
        id=character.id,
        name=character.name,
        kind=character.kind.value,
        kind_title=character.kind.title,
        owner_id=character.owner_id,
        tier=character.sheet.tier,
        vitals=character_vitals(character, shown=shown),
        hero_points=state.hero_points if character.kind is CharacterKind.PC else None,
        fortune=character.fortune_sources,
        determination=state.determination if shown else None,
        determination_max=values.determination_max if shown else None,
        recovery=state.recovery if shown else None,
        recovery_max=values.recovery_max if shown else None,
        wounds=wound_rows(character) if shown else (),
    )


async def encounter_summaries(
    conn: aiosqlite.Connection, viewer: Viewer
) -> tuple[EncounterSummary, ...]:
    repo = EncounterRepository(conn)
    found = []
    for channel_id in await encounter_channels(conn, "encounters", viewer):
        record = await repo.get_by_channel(channel_id)
        if record is None:  # ended between the two reads (a read is one snapshot, but PG)
            continue
        enc = record.state
        found.append(
            EncounterSummary(
                channel_id=channel_id, round=enc.round, started=enc.started,
                phase=f"round {enc.round}" if enc.started else "not started",
                acting=tuple(p.name for p in enc.current_participants),
                combatants=len(enc.participants),
            )
        )  # fmt: skip
    return tuple(found)


async def table(conn: aiosqlite.Connection, viewer: Viewer, *, guild_name: str = "") -> HocsTable:
    """The table page for ``viewer`` (four statements, and three per running encounter)."""
    campaign = await load_campaign(conn, viewer.guild_id)
    characters = await CharacterRepository(conn).list(viewer.guild_id)
    seated = await seated_switches(conn, viewer.guild_id)
    characters.sort(key=lambda c: KIND_ORDER[c.kind])  # stable: by name within a kind
    rows = tuple(
        character_row(c, shown=sees_character(viewer, c, campaign, seated)) for c in characters
    )
    return HocsTable(
        campaign=campaign_info(campaign, guild_name),
        characters=rows,
        encounters=await encounter_summaries(conn, viewer),
    )
