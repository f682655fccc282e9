"""Finding the 2d10 character a command is about, and who may act for it.

A player acts for their own characters; the GM acts for any. With no name
given, a command uses the member's active 2d10 character.
"""

from __future__ import annotations

import aiosqlite
import discord

from bot.errors import UserError
from bot.interactions.user_text import MAX_NAME
from bot.render.text import safe
from bot.rulesets import Ruleset
from bot.storage.campaigns import Campaign, CampaignRepository, CampaignSettings
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from bot.tables.character_access import NoActiveCharacter, UnknownCharacter
from bot.tables.permissions import is_gm


async def campaign_for_reading(conn: aiosqlite.Connection, guild: discord.Guild) -> Campaign:
    """The guild's campaign in a read (which never writes): defaults when it has none."""
    campaign = await CampaignRepository(conn).get(guild.id)
    if campaign is None:
        campaign = Campaign(
            guild_id=guild.id, ruleset=Ruleset.TWOD10, gm_role_id=None, gm_channel_id=None,
            settings=CampaignSettings(),
        )  # fmt: skip
    return campaign


async def find_sheet(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, name: str | None
) -> TwoD10Sheet:
    """A character by name, or the user's active one (anyone may look)."""
    repo = TwoD10CharacterRepository(conn)
    if name is None or not name.strip():
        sheet = await repo.active(guild_id, user_id)
        if sheet is None:
            raise NoActiveCharacter()
        return sheet
    sheet = await repo.find(guild_id, name[:MAX_NAME])
    if sheet is None:
        raise UnknownCharacter(name)
    return sheet


def may_act_for(member: discord.abc.User, campaign: Campaign, sheet: TwoD10Sheet) -> bool:
    return sheet.owner_id == member.id or is_gm(member, campaign)


async def resolve_sheet(
    conn: aiosqlite.Connection,
    campaign: Campaign,
    member: discord.abc.User,
    name: str | None,
    action: str,
) -> TwoD10Sheet:
    """The named (or active) character, checked that ``member`` may ``action``."""
    sheet = await find_sheet(conn, campaign.guild_id, member.id, name)
    if not may_act_for(member, campaign, sheet):
        raise UserError(
            f"{safe(sheet.name)} isn't yours, so you can't {action}: only its owner or the GM can."
        )
    return sheet


def shows_state(member: discord.abc.User, campaign: Campaign, sheet: TwoD10Sheet) -> bool:
    """Whether ``member`` may read this character's HP and conditions."""
    if sheet.kind is TwoD10Kind.PC or sheet.owner_id == member.id or is_gm(member, campaign):
        return True
    return campaign.settings.show_npc_hp
