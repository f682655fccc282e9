"""The guild a command runs in and its campaign, for every ruleset's commands."""

from __future__ import annotations

from typing import Any

import aiosqlite
import discord
from discord.ext import commands

from bot.errors import GuildOnly
from bot.storage.campaigns import Campaign, CampaignRepository


def guild_of(ctx: commands.Context[Any]) -> discord.Guild:
    """The command's guild; ``GuildOnly`` (one sentence) in a direct message."""
    if ctx.guild is None:
        raise GuildOnly()
    return ctx.guild


async def campaign_of(conn: aiosqlite.Connection, guild: discord.Guild) -> Campaign:
    """The guild's campaign, created with defaults if missing (in a write transaction)."""
    return await CampaignRepository(conn).get_or_create(guild.id)
