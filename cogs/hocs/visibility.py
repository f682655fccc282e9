"""Who may read an NPC's hit points and conditions (/character show, /condition list).

Ruling: the GM chooses with the same switch the tracker uses. In a channel whose running
encounter includes the NPC, that encounter's ``show_npc_hp`` decides (``/init begin
show_npc_hp``, which defaults to the campaign setting); anywhere else the campaign's
``show_npc_hp`` decides (``/campaign set show_npc_hp``). When it is off, other players see
the tracker's status word (unhurt, hurt, bloodied, down, unconscious, dying, dead) instead
of hit points, and no conditions, recovery, determination or wounds. The GM and the NPC's
owner always see everything; player characters are never hidden.
"""

from __future__ import annotations

import aiosqlite
import discord

from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.characters import Character, CharacterKind
from bot.storage.hocs.encounters import EncounterRepository
from bot.tables.permissions import is_gm

HIDDEN_RULING = (
    "NPC hit points and conditions follow the tracker's choice: the running encounter's"
    " show_npc_hp in its channel, the campaign's elsewhere. When hidden, other players see"
    " only a status word (unhurt, hurt, bloodied, down…); the GM and the NPC's owner see all."
)


async def shows_state(
    conn: aiosqlite.Connection,
    viewer: discord.abc.User,
    character: Character,
    *,
    channel_id: int | None,
    campaign: Campaign | None = None,
) -> bool:
    """Whether ``viewer`` may read ``character``'s hit points and conditions here."""
    if character.kind is CharacterKind.PC or character.owner_id == viewer.id:
        return True
    if campaign is None:
        campaign = await CampaignRepository(conn).get(character.guild_id)
    if campaign is None:  # no campaign row yet: default settings, no GM role
        member = viewer if isinstance(viewer, discord.Member) else None
        return member is not None and member.guild_permissions.manage_guild
    if is_gm(viewer, campaign):
        return True
    if channel_id is not None:
        record = await EncounterRepository(conn).get_by_channel(channel_id)
        if record is not None and any(
            p.character_id == character.id for p in record.state.participants
        ):
            return record.state.show_npc_hp
    return campaign.settings.show_npc_hp
