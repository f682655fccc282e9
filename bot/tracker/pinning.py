"""Keeping the initiative tracker pinned, and telling the GM when it can't be.

A pin fails for two reasons a table can act on: Discord had a hiccup (a 503, which
discord.py does not retry: retried here, and tried again on the tracker's next change)
or the bot lacks the permission (then the channel is told once per encounter which
permission to give, since a log line never reaches the GM).
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any

import discord

from bot.delivery.discord_retry import retry_server_errors
from bot.delivery.replies import NO_PINGS

log = logging.getLogger(__name__)

MISSING_PIN_PERMISSION = (
    "I can't pin the initiative tracker in this channel: GM, give my role the"
    " **Pin Messages** permission (or **Manage Messages**) here, and the next change pins it."
)


class PinResult(Enum):
    PINNED = "pinned"
    NO_PERMISSION = "no permission"
    FAILED = "failed"  # Discord errors, or the channel's pins are full


def may_pin(channel: Any) -> bool | None:
    """Whether the bot's cached permissions allow pinning here (None: no guild to ask)."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None or not hasattr(channel, "permissions_for"):
        return None
    permissions = channel.permissions_for(guild.me)
    return bool(permissions.manage_messages or permissions.pin_messages)


async def pin(channel: Any, message: discord.Message) -> PinResult:
    """Pin ``message``, retrying Discord's server errors."""
    if may_pin(channel) is False:
        return PinResult.NO_PERMISSION
    try:
        await retry_server_errors(
            lambda: message.pin(reason="Initiative tracker"), "pinning the tracker"
        )
    except discord.Forbidden:
        return PinResult.NO_PERMISSION
    except discord.HTTPException as error:  # still 5xx, or the channel's pins are full
        log.warning("could not pin the tracker in channel %s: %s", message.channel.id, error)
        return PinResult.FAILED
    return PinResult.PINNED


class TrackerPins:
    """Pins each tracker, and warns each encounter's channel once about a missing permission."""

    def __init__(self) -> None:
        self._warned: set[int] = set()  # encounter ids (per process: a restart may warn again)

    async def ensure_pinned(
        self, channel: Any, message: discord.Message, encounter_id: int
    ) -> None:
        """Pin the tracker unless Discord already shows it pinned."""
        if message.pinned:
            return
        result = await pin(channel, message)
        if result is PinResult.NO_PERMISSION and encounter_id not in self._warned:
            self._warned.add(encounter_id)
            log.info("no permission to pin the tracker in channel %s", message.channel.id)
            try:
                await channel.send(MISSING_PIN_PERMISSION, allowed_mentions=NO_PINGS)
            except discord.HTTPException as error:
                log.warning("could not warn channel %s about pins: %s", message.channel.id, error)
