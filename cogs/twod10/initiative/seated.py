"""A deleted 2d10 sheet leaves the encounters it was seated in (ruling seat-deleted).

Inside the delete's own transaction, before the sheet goes, ``leave_now`` takes its
combatants out through the side tracker's own change, so the delete and the leaving
commit together or not at all (a bot stopped between the two can't leave a seat for a
sheet that is gone). After the reply, ``tell_soon`` tells each encounter's channel who
left and redraws its tracker.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import aiosqlite
import discord

from bot.render.twod10.initiative import events_text
from bot.storage.twod10.encounters import Tracker, TwoD10EncounterRepository
from bot.tracker.leaving import NobodyLeft, leave_each
from bot.tracker.leaving import tell_soon as tell_after_reply
from cogs.twod10.initiative.deleted import without_sheet
from cogs.twod10.initiative.service import ChangeContext, Outcome
from cogs.twod10.initiative.views import COG_NAME

# (channel id, the change saved there), for each encounter the sheet left.
Left = list[tuple[int, Outcome]]


def _leave(sheet_id: int) -> Any:
    async def run(context: ChangeContext) -> tuple[Tracker, list[object]]:
        tracker, lines = without_sheet(context.tracker, sheet_id)
        if not lines:
            raise NobodyLeft()
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

    async def change(channel_id: int) -> Outcome:
        return await service.change_in(
            conn, guild_id=guild_id, channel_id=channel_id, member=member,
            operation=_leave(sheet_id),
        )  # fmt: skip

    channels = await TwoD10EncounterRepository(conn).channels_with_sheets(guild_id, [sheet_id])
    return await leave_each(channels, change)


def tell_soon(bot: Any, guild_id: int, left: Left) -> None:
    """After the delete's reply: each channel hears who left, and its tracker is redrawn."""
    service = getattr(bot.get_cog(COG_NAME), "service", None)
    if service is not None:
        tell_after_reply(bot, guild_id, left, partial(_tell, service), what="2d10 sheet")


async def _tell(service: Any, channel: Any, outcome: Outcome) -> None:
    try:
        text = events_text(outcome.tracker.encounter, outcome.events)
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    finally:  # (the change is saved whatever Discord said: the tracker shows it)
        service.refresh_soon(channel)
