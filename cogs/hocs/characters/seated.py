"""A deleted HOCS character leaves the encounters it was in (ruling seat-deleted).

The participants' link is ON DELETE SET NULL (migration 0003), so without this a deleted
character stayed in the fight as an unlinked copy: still drawn, still given turns, its
player still pinged. Inside the delete's own transaction, before the row goes,
``leave_now`` takes its participants out through the initiative tracker's own change
(as /init remove does: a turn it held passes on), so the delete and the leaving commit
together or not at all. After the reply, ``tell_soon`` tells each encounter's channel
and redraws its tracker.
"""

from __future__ import annotations

import logging
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.hocs.initiative import changes_embed, turn_announcement
from bot.rules.errors import RulesError
from bot.rules.hocs.initiative import Event, TurnReturned, TurnStarted, remove_participants
from bot.storage.hocs.encounters import EncounterRepository
from cogs.hocs.initiative.service import ChangeContext, Outcome
from cogs.hocs.initiative.views import send_test_prompts, turn_view

log = logging.getLogger(__name__)

# (channel id, the change saved there), for each encounter they left.
Left = list[tuple[int, Outcome]]


class _NobodyLeft(Exception):
    """The character sits in no participant there (removed already)."""


def _leave(character_id: int) -> Any:
    async def run(context: ChangeContext) -> tuple[Any, list[Event]]:
        seated = [p.id for p in context.state.participants if p.character_id == character_id]
        if not seated:
            raise _NobodyLeft()
        return remove_participants(context.state, seated, context.dice)

    return run


async def leave_now(
    conn: aiosqlite.Connection,
    bot: Any,
    guild_id: int,
    member: discord.abc.User,
    character_id: int,
) -> Left:
    """In the delete's transaction, before the row goes (its participants' link is then
    cleared): each encounter seating the character loses it, as /init remove does."""
    service = getattr(bot.get_cog("Initiative"), "service", None)
    if service is None:
        return []
    left: Left = []
    channels = await EncounterRepository(conn).channels_with_characters(guild_id, [character_id])
    for channel_id in channels:
        try:
            outcome, _ = await service.change_in(
                conn, guild_id=guild_id, channel_id=channel_id, member=member,
                operation=_leave(character_id),
            )  # fmt: skip
        except (_NobodyLeft, UserError, RulesError):
            continue  # (refused before anything was written: the delete goes on)
        left.append((channel_id, outcome))
    return left


def tell_soon(bot: Any, guild_id: int, left: Left) -> None:
    """After the delete's reply (``bot.delivery.followups``): each channel hears who left (or whose
    turn it is now), and its tracker is redrawn."""
    service = getattr(bot.get_cog("Initiative"), "service", None)
    followups = getattr(bot, "followups", None)
    if not left or service is None or followups is None:
        return

    async def work() -> None:
        for channel_id, outcome in left:
            try:
                await _tell(bot, service, guild_id, channel_id, outcome)
            except Exception:
                log.exception("could not tell channel %s that a deleted character left", channel_id)

    # One key per saved change: a second delete soon after must not replace this news.
    saved = tuple((outcome.record.id, outcome.record.version) for _, outcome in left)
    followups.schedule(("deleted character", guild_id, saved), work)


async def _tell(bot: Any, service: Any, guild_id: int, channel_id: int, outcome: Outcome) -> None:
    channel = bot.get_channel(channel_id) or bot.get_partial_messageable(
        channel_id, guild_id=guild_id
    )
    state = outcome.state
    try:
        if any(isinstance(e, TurnStarted | TurnReturned) for e in outcome.events):
            # Their turn was running: the next one starts, announced as /init remove does.
            announcement = turn_announcement(state, outcome.events)
            view = turn_view(outcome.record.id, state)
            await channel.send(
                announcement.content, embed=announcement.embed,
                allowed_mentions=announcement.allowed_mentions,
                **({"view": view} if view is not None else {}),
            )  # fmt: skip
        else:
            embed = changes_embed(state, outcome.events, title="Deleted character removed")
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        await send_test_prompts(channel, outcome)
    finally:  # (the change is saved whatever Discord said: the tracker shows it)
        service.refresh_soon(channel)
