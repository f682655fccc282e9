"""Delivering a secret roll to the GM: the GM channel, or direct messages.

Ruling: with a GM channel set (``/campaign set gm_channel``) the roll is posted
there; otherwise it is sent by direct message to the members of the GM role the
bot can see, and to the server owner when it can see none. The roller always
sees it in an ephemeral reply.
"""

from __future__ import annotations

import logging

import discord

from bot.replies import NO_PINGS
from bot.storage.campaigns import Campaign

log = logging.getLogger(__name__)

MAX_GM_DMS = 10


async def deliver_to_gm(
    guild: discord.Guild, campaign: Campaign, content: str, *, embed: discord.Embed | None = None
) -> str:
    """Send ``content`` where the GM sees it; return a phrase saying where it went."""
    if campaign.gm_channel_id is not None:
        channel = guild.get_channel(campaign.gm_channel_id)
        if isinstance(channel, discord.abc.Messageable):
            try:
                await channel.send(content, embed=embed, allowed_mentions=NO_PINGS)
                return f"shown to the GM in <#{campaign.gm_channel_id}>"
            except discord.HTTPException:
                log.warning("cannot post a secret roll in GM channel %s", campaign.gm_channel_id)
    recipients: list[discord.abc.User] = []
    role = guild.get_role(campaign.gm_role_id) if campaign.gm_role_id else None
    if role is not None:
        recipients = [m for m in role.members if not m.bot][:MAX_GM_DMS]
    if not recipients and guild.owner_id is not None:
        owner = guild.owner or guild.get_member(guild.owner_id)
        if owner is not None:
            recipients = [owner]
    sent = 0
    for user in recipients:
        try:
            await user.send(content, embed=embed, allowed_mentions=NO_PINGS)
            sent += 1
        except discord.HTTPException:
            log.info("a GM does not accept direct messages from the bot")
    if sent:
        return "sent to the GM by direct message"
    return (
        "not delivered to the GM (no GM channel, and no GM accepts direct messages):"
        " ask the GM to set one with /campaign set gm_channel"
    )
