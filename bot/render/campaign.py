"""Campaign settings as an embed."""

from __future__ import annotations

import discord

from bot.storage.campaigns import Campaign

COLOUR = discord.Colour.dark_teal()


def campaign_embed(campaign: Campaign, guild_name: str) -> discord.Embed:
    embed = discord.Embed(title=f"Campaign of {guild_name}"[:256], colour=COLOUR)
    embed.add_field(name="Ruleset", value=campaign.ruleset.title, inline=False)
    embed.add_field(
        name="GM role",
        value=f"<@&{campaign.gm_role_id}>" if campaign.gm_role_id else "none (Manage Server only)",
    )
    embed.add_field(
        name="Secret rolls go to",
        value=f"<#{campaign.gm_channel_id}>"
        if campaign.gm_channel_id
        else "the GM's direct messages",
    )
    embed.set_footer(text="Members with Manage Server are always GMs. Change with /campaign set.")
    return embed
