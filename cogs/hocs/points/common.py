"""What the points commands share: the guild, the campaign, the character acted for."""

from __future__ import annotations

from typing import Any

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.choices import name_choices
from bot.interactions.guild_context import guild_of
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import MAX_NAME, UnknownCharacter
from bot.tables.permissions import require_gm
from cogs.hocs.access import resolve_character

Ctx = commands.Context[Any]
Name = commands.Range[str, 1, MAX_NAME]
CHARACTER_HELP = "Which character (default: your active one)"


async def campaign_for(conn: aiosqlite.Connection, ctx: Ctx) -> Campaign:
    return await CampaignRepository(conn).get_or_create(guild_of(ctx).id)


async def acting_for(
    conn: aiosqlite.Connection, ctx: Ctx, campaign: Campaign, name: str | None, action: str
) -> Character:
    """The named (or active) character, if the author is its owner or the GM."""
    return await resolve_character(
        conn, campaign=campaign, member=ctx.author, name=name, action=action
    )


async def named(conn: aiosqlite.Connection, guild_id: int, name: str) -> Character:
    """A character by name (for the GM's commands); UnknownCharacter if there is none."""
    character = await CharacterRepository(conn).find(guild_id, name[:64])
    if character is None:
        raise UnknownCharacter(name)
    return character


async def gm_target(conn: aiosqlite.Connection, ctx: Ctx, name: str, action: str) -> Character:
    """The named character for a GM-only command: NotGM unless the author is the GM."""
    require_gm(ctx.author, await campaign_for(conn, ctx), action)
    return await named(conn, guild_of(ctx).id, name)


async def character_choices(
    bot: Any, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    async with bot.db.read() as conn:
        names = await CharacterRepository(conn).search_names(
            interaction.guild_id, current[:64], owner_id=interaction.user.id
        )
    return name_choices(names)
