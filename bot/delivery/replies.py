"""Sending answers that never ping anyone by accident, and that reach the table even
when Discord no longer takes the interaction's answer."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord.ext import commands

from bot.interactions.user_text import fit_message

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class _UserId:
    """A user for ``AllowedMentions``: discord.py sends ``.id`` as given, and Discord's API
    types a snowflake as a string."""

    __slots__ = ("id",)

    def __init__(self, user_id: int) -> None:
        self.id = str(user_id)


def only_pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions allowed for exactly these users (a turn's owners), nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[_UserId(i) for i in user_ids]
    )


# Discord's codes for an answer that came too late: the interaction's 3-second window
# has passed (Unknown Interaction), or its 15-minute follow-up token (Unknown Webhook).
EXPIRED_CODES = frozenset({10062, 10015})


def is_expired_interaction(error: BaseException) -> bool:
    return isinstance(error, discord.NotFound) and error.code in EXPIRED_CODES


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
    try:
        return await ctx.send(content, **kwargs)
    except discord.NotFound as error:
        if not is_expired_interaction(error):
            raise
        return await _post_instead(ctx, content, kwargs)


async def _post_instead(ctx: commands.Context[Any], content: str | None, kwargs: Any) -> Any:
    """The change is already saved but its interaction expired (the bot was slower than
    Discord's 3 seconds): a public answer is posted in the channel so the table still
    sees what changed. A private one has nowhere else to go; the roller can ask again."""
    if kwargs.pop("ephemeral", False):
        log.info("an ephemeral answer in channel %s came too late to show", ctx.channel.id)
        return None
    log.info("interaction expired in channel %s: answer posted in the channel", ctx.channel.id)
    kwargs = {k: v for k, v in kwargs.items() if k in _CHANNEL_SEND_KEYS}
    intro = "-# Posted here: Discord no longer took this command's answer (it came too late)."
    body = f"{intro}\n{content}" if content else intro
    return await ctx.channel.send(fit_message(body), **kwargs)


_CHANNEL_SEND_KEYS = frozenset({"embed", "embeds", "view", "allowed_mentions", "file", "files"})


async def send_ephemeral_to_interaction(interaction: discord.Interaction, content: str) -> None:
    """Answer an interaction privately whether or not it was already answered."""
    content = fit_message(content) or ""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_PINGS)


async def edit_pressed_message(interaction: discord.Interaction, **fields: Any) -> None:
    """A button press's answer: its message edited to show what the press did.

    Ruling: a press whose interaction expired (the bot answered after Discord's 3
    seconds) has already applied its change, exactly once; rather than show it to nobody,
    the message is edited through the channel, so the presser and the table see it. A
    private (ephemeral) message can't be edited that way: its presser presses or asks
    again and sees the change then.
    """
    try:
        await interaction.response.edit_message(**fields)
    except discord.NotFound as error:
        message = interaction.message
        if not is_expired_interaction(error) or message is None:
            raise
        if message.flags.ephemeral:
            log.info("a press on a private message came too late to show in channel %s",
                     interaction.channel_id)  # fmt: skip
            return
        log.info("a press in channel %s came too late: its message edited in the channel",
                 interaction.channel_id)  # fmt: skip
        await message.edit(**fields)


async def tell_presser(interaction: discord.Interaction, content: str) -> None:
    """A button press's private answer: what the press did, for the presser alone.

    Ruling (``edit_pressed_message``'s, for a press answered privately): a press whose
    interaction expired has already applied its change, exactly once, and its private
    answer can no longer be sent; it is posted in the channel instead, naming the presser
    without pinging them, so the presser and the table see what the press did.
    """
    content = fit_message(content) or "Done."
    try:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_PINGS)
    except discord.NotFound as error:
        if not is_expired_interaction(error) or not await post_for_presser(interaction, content):
            raise


async def post_for_presser(interaction: discord.Interaction, content: str) -> bool:
    """Post a late press's private answer (what it did, or why it did nothing) in its
    channel, naming the presser without a ping; False when there is no channel."""
    channel = interaction.channel
    if channel is None:
        return False
    log.info("a press in channel %s came too late: its answer posted in the channel",
             interaction.channel_id)  # fmt: skip
    intro = (
        f"-# For <@{interaction.user.id}>: Discord no longer took this button's answer"
        " (it came too late)."
    )
    await channel.send(fit_message(f"{intro}\n{content}"), allowed_mentions=NO_PINGS)  # type: ignore[union-attr]
    return True
