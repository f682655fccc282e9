"""Sending answers that never ping anyone by accident."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.text import fit_message

NO_PINGS = discord.AllowedMentions.none()


async def send(ctx: commands.Context[Any], content: str | None = None, **kwargs: Any) -> Any:
    """Reply in a hybrid command; mentions are off unless the caller passes others.

    Content past Discord's 2000 characters is cut (Discord would refuse the whole reply).
    """
    content = fit_message(content)
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if ctx.interaction is None:
        kwargs.pop("ephemeral", None)
        kwargs.setdefault("mention_author", False)
        return await ctx.reply(content, **kwargs)
    return await ctx.send(content, **kwargs)


async def send_ephemeral_to_interaction(interaction: discord.Interaction, content: str) -> None:
    """Answer an interaction privately whether or not it was already answered."""
    content = fit_message(content) or ""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_PINGS)
