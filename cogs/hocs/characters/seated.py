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

from functools import partial
from typing import Any

import aiosqlite
import discord

from bot.render.hocs.initiative import changes_embed, turn_announcement
from bot.rules.hocs.initiative import Event, TurnReturned, TurnStarted, remove_participants
from bot.storage.hocs.encounters import EncounterRepository
from bot.tracker.leaving import NobodyLeft, leave_each
from bot.tracker.leaving import tell_soon as tell_after_reply
from cogs.hocs.initiative.service import ChangeContext, Outcome
from cogs.hocs.initiative.views import send_test_prompts, turn_view

# (channel id, the change saved there), for each encounter they left.
Left = list[tuple[int, Outcome]]


def _leave(character_id: int) -> Any:
    async def run(context: ChangeContext) -> tuple[Any, list[Event]]:
        seated = [p.id for p in context.state.participants if p.character_id == character_id]
        if not seated:
            raise NobodyLeft()
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

    async def change(channel_id: int) -> Outcome:
        outcome, _ = await service.change_in(
            conn, guild_id=guild_id, channel_id=channel_id, member=member,
            operation=_leave(character_id),
        )  # fmt: skip
        return outcome

    channels = await EncounterRepository(conn).channels_with_characters(guild_id, [character_id])
    return await leave_each(channels, change)


def tell_soon(bot: Any, guild_id: int, left: Left) -> None:
    """After the delete's reply: each channel hears who left (or whose turn it is now),
    and its tracker is redrawn."""
    service = getattr(bot.get_cog("Initiative"), "service", None)
    if service is not None:
        tell_after_reply(bot, guild_id, left, partial(_tell, service), what="character")


async def _tell(service: Any, channel: Any, outcome: Outcome) -> None:
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
