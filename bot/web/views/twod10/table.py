"""A 2d10 table's page: the campaign, every character with what the viewer may see of
it, and the running encounters.

Player characters first, then allies, then antagonists, each by name (``/character
list`` shows every name to everyone). Hit points and conditions follow ``visibility``;
the 2d10 system has no points and no wounds.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.render.twod10.initiative import phase_text
from bot.rules.twod10.initiative.model import Phase
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from bot.storage.twod10.encounters import TwoD10EncounterRepository
from bot.web.views.common import (
    CampaignInfo,
    EncounterSummary,
    Vitals,
    campaign_info,
    encounter_channels,
    load_campaign,
)
from bot.web.views.twod10.visibility import sees_sheet, sheet_vitals
from bot.web.views.viewer import Viewer

KIND_ORDER = {TwoD10Kind.PC: 0, TwoD10Kind.ALLY: 1, TwoD10Kind.ANTAGONIST: 2}


@dataclass(frozen=True, kw_only=True)
class TwoD10CharacterRow:
    id: int
    name: str
    kind: str  # "pc", "ally", "antagonist"
    kind_title: str
    owner_id: int
    background: str
    vitals: Vitals


@dataclass(frozen=True, kw_only=True)
class TwoD10Table:
    campaign: CampaignInfo
    characters: tuple[TwoD10CharacterRow, ...]
    encounters: tuple[EncounterSummary, ...]


def character_row(sheet: TwoD10Sheet, *, shown: bool) -> TwoD10CharacterRow:
    return TwoD10CharacterRow(
        id=sheet.id, name=sheet.name, kind=sheet.kind.value, kind_title=sheet.kind.title,
        owner_id=sheet.owner_id, background=sheet.character.background,
        vitals=sheet_vitals(sheet, shown=shown),
    )  # fmt: skip


async def encounter_summaries(
    conn: aiosqlite.Connection, viewer: Viewer
) -> tuple[EncounterSummary, ...]:
    repo = TwoD10EncounterRepository(conn)
    found = []
    for channel_id in await encounter_channels(conn, "twod10_encounters", viewer):
        record = await repo.get_by_channel(channel_id)
        if record is None:
            continue
        enc = record.encounter
        started = enc.phase is not Phase.NOT_STARTED
        acting = (enc.acting.label,) if enc.acting is not None and started else ()
        found.append(
            EncounterSummary(
                channel_id=channel_id, round=enc.round, started=started,
                phase=phase_text(enc), acting=acting, combatants=len(enc.combatants),
            )
        )  # fmt: skip
    return tuple(found)


async def table(conn: aiosqlite.Connection, viewer: Viewer, *, guild_name: str = "") -> TwoD10Table:
    """The table page for ``viewer`` (three statements, and one per running encounter)."""
    campaign = await load_campaign(conn, viewer.guild_id)
    sheets = await TwoD10CharacterRepository(conn).list(viewer.guild_id)
    sheets.sort(key=lambda s: KIND_ORDER[s.kind])  # stable: by name within a kind
    return TwoD10Table(
        campaign=campaign_info(campaign, guild_name),
        characters=tuple(character_row(s, shown=sees_sheet(viewer, s, campaign)) for s in sheets),
        encounters=await encounter_summaries(conn, viewer),
    )
