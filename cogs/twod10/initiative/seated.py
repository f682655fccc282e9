"""A deleted 2d10 sheet leaves the encounters it was seated in (ruling seat-deleted).

Inside the delete's own transaction, before the sheet goes, ``leave_now`` takes its
combatants out through the side tracker's own change, so the delete and the leaving
commit together or not at all (a bot stopped between the two can't leave a seat for a
sheet that is gone). After the reply, ``tell_soon`` tells each encounter's channel who
left and redraws its tracker.
"""

from __future__ import annotations

import logging
from typing import Any

import aiosqlite
import discord

from bot.errors import UserError
from bot.render.twod10.initiative import events_text
from bot.rules.errors import RulesError
from bot.storage.twod10.encounters import Tracker, TwoD10EncounterRepository
from cogs.twod10.initiative.deleted import without_sheet
from cogs.twod10.initiative.service import ChangeContext, Outcome
from cogs.twod10.initiative.views import COG_NAME

log = logging.getLogger(__name__)

# (channel id, the change saved there), for each encounter the sheet left.
Left = list[tuple[int, Outcome]]


class _NobodyLeft(Exception):
    """The sheet sits in no combatant there (removed already)."""


def _leave(sheet_id: int) -> Any:
    async def run(context: ChangeContext) -> tuple[Tracker, list[object]]:
        tracker, lines = without_sheet(context.tracker, sheet_id)
        if not lines:
            raise _NobodyLeft()
        return tracker, list(lines)

    return run


async def leave_now(
    conn: aiosqlite.Connection, bot: Any, guild_id: int, member: discord.abc.User, sheet_id: int
) -> Left:
    """In the delete's transaction, before the sheet goes: each encounter seating it
    loses its combatant, as /init remove takes one out."""
    service = getattr(bot.get_cog(COG_NAME), "service", None)
    if service is None:
        return []
    left: Left = []
    channels = await TwoD10EncounterRepository(conn).channels_with_sheets(guild_id, [sheet_id])
    for channel_id in channels:
        try:
            outcome = await service.change_in(
                conn, guild_id=guild_id, channel_id=channel_id, member=member,
                operation=_leave(sheet_id),
            )  # fmt: skip
        except (_NobodyLeft, UserError, RulesError):
            continue  # (refused before anything was written: the delete goes on)
        left.append((channel_id, outcome))
    return left


def tell_soon(bot: Any, guild_id: int, left: Left) -> None:
    """After the delete's reply (``bot.delivery.followups``): each channel hears who left,
    and its tracker is redrawn."""
    service = getattr(bot.get_cog(COG_NAME), "service", None)
    followups = getattr(bot, "followups", None)
    if not left or service is None or followups is None:
        return

    async def work() -> None:
        for channel_id, outcome in left:
            channel = bot.get_channel(channel_id) or bot.get_partial_messageable(
                channel_id, guild_id=guild_id
            )
            try:
                text = events_text(outcome.tracker.encounter, outcome.events)
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            except Exception:
                log.exception("could not tell channel %s that a deleted sheet left", channel_id)
            finally:  # (the change is saved whatever Discord said: the tracker shows it)
                service.refresh_soon(channel)

    # One key per saved change: a second delete soon after must not replace this news.
    saved = tuple((outcome.record.id, outcome.record.version) for _, outcome in left)
    followups.schedule(("deleted 2d10 sheet", guild_id, saved), work)
