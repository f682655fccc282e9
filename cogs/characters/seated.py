"""A deleted HOCS character leaves the encounters it was in (ruling seat-deleted).

The participants' link is ON DELETE SET NULL (migration 0003), so without this a deleted
character stayed in the fight as an unlinked copy: still drawn, still given turns, its
player still pinged. ``seats`` reads, inside the delete's transaction, which
participants the character is; after the commit ``leave_soon`` takes them out through
the initiative tracker's own change (as /init remove does: a turn it held passes on),
tells the encounter's channel and redraws its tracker.
"""

from __future__ import annotations

import logging
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.initiative import changes_embed, turn_announcement
from bot.rules.errors import RulesError
from bot.rules.hocs.initiative import Event, TurnReturned, TurnStarted, remove_participants
from bot.storage.encounters import EncounterRepository
from cogs.initiative.service import ChangeContext
from cogs.initiative.views import send_test_prompts, turn_view

log = logging.getLogger(__name__)

# (channel id, encounter id, participant ids), by channel: the encounter id so that a
# fight begun there meanwhile (its participant ids start at 1 again) is never touched.
Seats = list[tuple[int, int, tuple[int, ...]]]


async def seats(conn: aiosqlite.Connection, guild_id: int, character_id: int) -> Seats:
    """Where the character sits in the guild's running encounters (read before deleting)."""
    repo = EncounterRepository(conn)
    found: Seats = []
    for channel_id in await repo.channels_with_characters(guild_id, [character_id]):
        record = await repo.get_by_channel(channel_id)
        if record is None:
            continue
        ids = tuple(p.id for p in record.state.participants if p.character_id == character_id)
        if ids:
            found.append((channel_id, record.id, ids))
    return found


class _NobodyLeft(Exception):
    """The participants were already gone (removed, or the encounter restarted)."""


def _leave(ids: tuple[int, ...]) -> Any:
    async def run(context: ChangeContext) -> tuple[Any, list[Event]]:
        present = [p.id for p in context.state.participants if p.id in ids]
        if not present:
            raise _NobodyLeft()
        return remove_participants(context.state, present, context.dice)

    return run


def leave_soon(bot: Any, guild_id: int, member: discord.abc.User, found: Seats) -> None:
    """After the delete's reply (``bot.followups``): each encounter found loses them."""
    service = getattr(bot.get_cog("Initiative"), "service", None)
    followups = getattr(bot, "followups", None)
    if not found or service is None or followups is None:
        return

    async def work() -> None:
        for channel_id, encounter_id, ids in found:
            try:
                await _leave_one(bot, service, guild_id, member, channel_id, encounter_id, ids)
            except Exception:
                log.exception("could not take a deleted character out of channel %s", channel_id)

    followups.schedule(("deleted character", guild_id, tuple(found)), work)


async def _leave_one(
    bot: Any, service: Any, guild_id: int, member: discord.abc.User, channel_id: int,
    encounter_id: int, ids: tuple[int, ...],
) -> None:  # fmt: skip
    try:
        outcome = await service.change(
            guild_id=guild_id, channel_id=channel_id, member=member, operation=_leave(ids),
            encounter_id=encounter_id,
        )  # fmt: skip
    except (_NobodyLeft, UserError, RulesError):
        return  # the encounter ended, or they were removed meanwhile: nothing to do
    channel = bot.get_channel(channel_id) or bot.get_partial_messageable(
        channel_id, guild_id=guild_id
    )
    state = outcome.state
    none = discord.AllowedMentions.none()
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
        await channel.send(embed=embed, allowed_mentions=none)
    await send_test_prompts(channel, outcome)
    service.refresh_soon(channel)
