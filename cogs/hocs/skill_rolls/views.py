"""Sending a /pool, /check or /clash reply, with the post-roll buttons (a row per side on
a clash).

The buttons themselves live in ``cogs.hocs.points.views``: they spend the roller's
determination, hero or fortune points on the roll and edit this same reply.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiosqlite
import discord
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import deliver_to_gm
from bot.render.buttons import Buttons
from bot.render.hocs.skill_roll import RollHeading, skill_roll_embed
from bot.render.text import safe_line
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import roll_pool
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character
from bot.storage.roll_log import LoggedRoll as StoredLog
from bot.storage.roll_log import remember_message
from cogs.hocs.points.stored import SideRolls
from cogs.hocs.points.views import roll_view, view_for_roll
from cogs.hocs.skill_rolls.common import log_roll_row

log = logging.getLogger(__name__)


async def buttons_for(
    conn: aiosqlite.Connection,
    roll_id: int,
    logged: StoredLog | None = None,
    *,
    unspent: tuple[Character | None, ...] = (),
    rolls: SideRolls | None = None,
) -> Buttons | None:
    """The buttons a fresh roll gets: what its characters have and could change it (or None).
    ``logged``: the row just written, if the caller has it (else it is read).
    ``unspent``: the roll's characters as this transaction read them, so they are not
    read again. Exact even after a determination point spent before the roll: that is
    the only change since, and a roll that has one can't take another (so no button
    depends on the count); hero and fortune points are as read. ``rolls``: the rolls
    just logged, by side, so they are not parsed back (``StoredRoll.load``)."""
    if logged is None:
        return await view_for_roll(conn, roll_id)
    return await roll_view(conn, logged, {c.id: c for c in unspent if c is not None}, rolls)


async def reply(
    bot: TableBot,
    ctx: commands.Context[TableBot],
    roll_id: int,
    embed: discord.Embed,
    *,
    campaign: Campaign | None,
    secret: bool,
    view: Buttons | None = None,
) -> None:
    """Send the embed (secretly: to the roller and the GM) and remember the message."""
    extra = {"view": view} if view is not None else {}
    if secret:
        assert ctx.guild is not None and campaign is not None
        await ctx.defer(ephemeral=True)
        who = safe_line(ctx.author.display_name)
        where = await deliver_to_gm(ctx.guild, campaign, f"Secret roll by {who}", embed=embed)
        message = await send(ctx, f"-# Secret: {where}.", embed=embed, ephemeral=True, **extra)
    else:
        message = await send(ctx, embed=embed, **extra)
    if message is not None:
        remember_message(bot.db, roll_id, message.id)
    log.debug("skill roll %s by %s", roll_id, ctx.author.id)


@dataclass(frozen=True)
class LoggedRoll:
    """A /pool or /check roll written to the roll log, ready to be sent."""

    roll_id: int
    heading: RollHeading
    roll: PoolResult
    difficulty: Difficulty | None
    view: Buttons | None

    async def reply(
        self,
        bot: TableBot,
        ctx: commands.Context[TableBot],
        *,
        campaign: Campaign | None,
        secret: bool,
        odds: str | None = None,
    ) -> None:
        """Send it (after the transaction that logged it) with its buttons; ``odds``: a
        line of chances computed before the roll, shown above the dice."""
        embed = skill_roll_embed(self.heading, self.roll, self.difficulty)
        if odds:
            embed.description = f"{odds}\n{embed.description or ''}"[:4096]
        await reply(bot, ctx, self.roll_id, embed, campaign=campaign, secret=secret, view=self.view)


async def roll_and_log(
    bot: TableBot,
    conn: aiosqlite.Connection,
    ctx: commands.Context[TableBot],
    spec: PoolSpec,
    heading: RollHeading,
    *,
    kind: str,
    difficulty: Difficulty | None,
    expression: str,
    character: Character | None,
    secret: bool,
) -> LoggedRoll:
    """Roll ``spec``, write the roll log row and pick the post-roll buttons, in ``conn``'s
    transaction (anything spent before the roll is saved with it)."""
    roll = roll_pool(spec, bot.dice)
    logged = await log_roll_row(
        conn, ctx, kind=kind, heading=heading, roll=roll, difficulty=difficulty,
        expression=expression, character=character, secret=secret,
    )  # fmt: skip
    view = await buttons_for(conn, logged.id, logged, unspent=(character,), rolls={None: roll})
    return LoggedRoll(logged.id, heading, roll, difficulty, view)
