"""Delivering a secret roll to the GM: the GM channel, or direct messages.

Production runs without the privileged members intent, so the member cache is empty:
``role.members`` finds nobody and ``guild.owner`` is None. The GMs are therefore the
ones remembered from their own commands (``bot.tables.permissions.GmMemory``), each checked
over REST before a direct message, and the server owner is fetched over REST too.
"""

from __future__ import annotations

import logging

import discord

from bot.delivery.discord_retry import retry_server_errors
from bot.delivery.replies import NO_PINGS
from bot.storage.campaigns import Campaign
from bot.tables.permissions import GmMemory, is_gm

log = logging.getLogger(__name__)

MAX_GM_DMS = 10

# The one statement of who receives a secret roll: /help (roll, campaign set) and the
# README say the same.
SECRET_ROLL_RULING = (
    "Secret rolls: only you (ephemeral) and the GM see them — in the GM channel if one is"
    " set; otherwise, or if posting there fails, by direct message to the GMs the bot has"
    " seen use a command (members with Manage Server or the GM role, up to 10), or to the"
    " server owner when it has seen none."
)


async def deliver_to_gm(
    guild: discord.Guild, campaign: Campaign, content: str, *, embed: discord.Embed | None = None
) -> str:
    """Send ``content`` where the GM sees it; return a phrase saying where it went."""
    channel_failed = False
    if campaign.gm_channel_id is not None:
        channel = guild.get_channel(campaign.gm_channel_id)
        if isinstance(channel, discord.abc.Messageable):
            target = channel
            try:
                # A 503 is retried: a duplicate post is better than a lost secret roll.
                await retry_server_errors(
                    lambda: target.send(content, embed=embed, allowed_mentions=NO_PINGS),
                    "posting a secret roll",
                )
                return f"shown to the GM in <#{campaign.gm_channel_id}>"
            except discord.HTTPException as error:
                log.warning(
                    "cannot post a secret roll in GM channel %s: %s", campaign.gm_channel_id, error
                )
        channel_failed = True
    sent = 0
    for user in await gm_recipients(guild, campaign):
        try:
            await _send_dm(user, content, embed)
            sent += 1
        except discord.HTTPException:
            log.info("GM %s does not accept direct messages from the bot", user.id)
    if sent:
        return "sent to the GM by direct message"
    if channel_failed:
        return (
            f"not delivered to the GM: I couldn't post in <#{campaign.gm_channel_id}> and no GM"
            " accepts direct messages from me, so tell the GM your result yourself"
        )
    return (
        "not delivered to the GM (no GM channel, and no GM accepts direct messages):"
        " ask the GM to set one with /campaign set gm_channel"
    )


async def gm_recipients(guild: discord.Guild, campaign: Campaign) -> list[discord.abc.User]:
    """The GMs to message: the remembered ones still GM, else the server owner."""
    memory = _gm_memory(guild)
    remembered = await memory.recent(guild.id, MAX_GM_DMS) if memory is not None else []
    recipients: list[discord.abc.User] = []
    gone: list[int] = []
    for user_id in remembered:
        member, left = await _member(guild, user_id)
        if member is not None and not member.bot and is_gm(member, campaign):
            recipients.append(member)
        elif member is not None or left:
            gone.append(user_id)  # no longer GM, or no longer in the server
    if gone and memory is not None:
        await memory.forget(guild.id, gone)
    if not recipients and guild.owner_id is not None:
        owner, _ = await _member(guild, guild.owner_id)
        if owner is not None:
            recipients.append(owner)
    return recipients


async def _member(guild: discord.Guild, user_id: int) -> tuple[discord.Member | None, bool]:
    """The member (cache, else REST) and whether Discord says they left the server.

    A REST error other than "unknown member" gives (None, False): try again next time.
    """
    member = guild.get_member(user_id)
    if member is not None:
        return member, False
    try:
        return await retry_server_errors(
            lambda: guild.fetch_member(user_id), "fetching a GM"
        ), False
    except discord.NotFound:
        return None, True
    except discord.HTTPException as error:
        log.warning("could not fetch GM %s of guild %s: %s", user_id, guild.id, error)
        return None, False


def _gm_memory(guild: discord.Guild) -> GmMemory | None:
    """The bot's GM memory, reached through the guild's connection state (the callers,
    in every ruleset's cogs, pass only the guild and the campaign)."""
    client = guild._state._get_client()
    return getattr(client, "gm_memory", None)


async def _send_dm(user: discord.abc.User, content: str, embed: discord.Embed | None) -> None:
    await retry_server_errors(
        lambda: user.send(content, embed=embed, allowed_mentions=NO_PINGS),
        "sending a secret roll by direct message",
    )
