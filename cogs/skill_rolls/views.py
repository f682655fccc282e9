"""Sending a /pool, /check or /clash reply, with the post-roll buttons under skill rolls.

The buttons themselves live in ``cogs.points.views``: they spend the roller's
determination, hero or fortune points on the roll and edit this same reply.
"""

from __future__ import annotations

import logging

import aiosqlite
import discord
from discord.ext import commands

from bot.client import TableBot
from bot.render.skill_roll import escape
from bot.replies import send
from bot.secret_rolls import deliver_to_gm
from bot.storage.campaigns import Campaign
from bot.storage.characters import CharacterRepository
from bot.storage.roll_log import RollLogRepository
from cogs.points.spending import StoredRoll, available_spends
from cogs.points.views import spend_view

log = logging.getLogger(__name__)


async def buttons_for(conn: aiosqlite.Connection, roll_id: int) -> discord.ui.View | None:
    """The buttons a fresh roll gets: what its character has and could change it (or None)."""
    logged = await RollLogRepository(conn).get(roll_id)
    if logged is None or logged.character_id is None:
        return None
    character = await CharacterRepository(conn).get(logged.character_id)
    stored = StoredRoll.load(logged)
    return spend_view(roll_id, stored.revision, available_spends(stored, character))


async def reply(
    bot: TableBot,
    ctx: commands.Context[TableBot],
    roll_id: int,
    embed: discord.Embed,
    *,
    campaign: Campaign | None,
    secret: bool,
    view: discord.ui.View | None = None,
) -> None:
    """Send the embed (secretly: to the roller and the GM) and remember the message."""
    extra = {"view": view} if view is not None else {}
    if secret:
        assert ctx.guild is not None and campaign is not None
        await ctx.defer(ephemeral=True)
        who = escape(ctx.author.display_name)
        where = await deliver_to_gm(ctx.guild, campaign, f"Secret roll by {who}", embed=embed)
        message = await send(ctx, f"-# Secret: {where}.", embed=embed, ephemeral=True, **extra)
    else:
        message = await send(ctx, embed=embed, **extra)
    if message is not None:
        async with bot.db.transaction() as conn:
            await RollLogRepository(conn).set_message(roll_id, message.id)
    log.debug("skill roll %s by %s", roll_id, ctx.author.id)
