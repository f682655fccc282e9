"""Finding the HOCS character a command is about, and who may act for it.

A player acts for their own characters; the GM acts for any. With no name
given, a command uses the member's active character.
"""

from __future__ import annotations

import aiosqlite
import discord

from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import (
    MAX_NAME,
    NoActiveCharacter,
    NotYourCharacter,
    UnknownCharacter,
)
from bot.tables.permissions import is_gm


def may_act_for(member: discord.abc.User, campaign: Campaign, character: Character) -> bool:
    return character.owner_id == member.id or is_gm(member, campaign)


async def resolve_character(
    conn: aiosqlite.Connection,
    *,
    campaign: Campaign,
    member: discord.abc.User,
    name: str | None,
    action: str,
) -> Character:
    """The named character (or the member's active one), checked that they may act for it.

    Raises NoActiveCharacter, UnknownCharacter or NotYourCharacter (user errors).
    """
    repo = CharacterRepository(conn)
    if name is None or not name.strip():
        character = await repo.get_active(campaign.guild_id, member.id)
        if character is None:
            raise NoActiveCharacter()
    else:
        character = await repo.find(campaign.guild_id, name[:MAX_NAME])
        if character is None:
            raise UnknownCharacter(name)
    if not may_act_for(member, campaign, character):
        raise NotYourCharacter(character.name, action)
    return character
