"""Finding the character a command is about, and who may act for it.

A player acts for their own characters; the GM acts for any. With no name
given, a command uses the member's active character.
"""

from __future__ import annotations

import aiosqlite
import discord

from bot.errors import UserError
from bot.permissions import is_gm
from bot.storage.campaigns import Campaign
from bot.storage.characters import Character, CharacterRepository
from bot.text import without_direction_controls

MAX_NAME = 64


class NoActiveCharacter(UserError):
    def __init__(self) -> None:
        super().__init__(
            "You have no active character here: create one with /character create"
            " or pick one with /character select."
        )


class UnknownCharacter(UserError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"There is no character called {safe_name(name)} here:"
            " check /character list for the names."
        )


def safe_name(name: str) -> str:
    """A user-typed name made inert for a message: no markdown, no pings."""
    name = without_direction_controls(name[:MAX_NAME])
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


class NotYourCharacter(UserError):
    def __init__(self, character: Character, action: str) -> None:
        super().__init__(
            f"{safe_name(character.name)} isn't yours, so you can't {action}:"
            " only its owner or the GM can."
        )


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
        raise NotYourCharacter(character, action)
    return character
