"""/roll: generic dice expressions through the d20 library."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import SECRET_ROLL_RULING, deliver_to_gm
from bot.render.generic_roll import render_roll_line, render_roll_markdown
from bot.rules.generic_roll import GenericRoll, roll_expression
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.roll_log import RollLogRepository

log = logging.getLogger(__name__)

ROLL_RULINGS = [
    "Limits, checked before rolling: 200 characters, 100 dice rolled in total"
    " (rerolls and explosions included), dice of 1–1000 sides, 20 levels of brackets.",
    "A label goes after the dice (`1d20+5 attack`); text before the dice is refused.",
    "An explode or reroll rule that matches every face (`1d1e1`) is refused: it never stops.",
    "A fractional total (`7/2`) is rounded toward zero.",
    SECRET_ROLL_RULING,
    "Message commands (`!r`) are always public: use `/roll secret:True` to hide a roll.",
]


def _prefix_expression(ctx: commands.Context[TableBot]) -> str:
    """Everything after the command word, exactly as typed.

    On the message path the optional ``secret`` flag would swallow a leading
    ``1`` or ``yes`` as a boolean, so the expression is re-read from the message.
    """
    content = ctx.message.content
    after_prefix = content[len(ctx.prefix or "") :].lstrip()
    return after_prefix[len(ctx.invoked_with or "") :].strip()


class RollingCog(commands.Cog, name="Rolling"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="roll", aliases=["r"], extras={"rulings": ROLL_RULINGS})
    @app_commands.describe(
        expression="Dice such as 4d6kh3, 2d20kl1+5 or 3d6e6, then an optional label",
        secret="Show the result only to you and the GM",
    )
    async def roll(
        self,
        ctx: commands.Context[TableBot],
        secret: bool | None = None,
        *,
        expression: commands.Range[str, 1, 200],
    ) -> None:
        """Roll any dice expression: keep/drop, explode, reroll, min/max, arithmetic."""
        if ctx.interaction is None:
            expression, secret = _prefix_expression(ctx), False
        result = roll_expression(expression, dice=self.bot.dice)
        secret = bool(secret) and ctx.guild is not None
        campaign = await self._log(ctx, result, secret=secret)
        who = discord.utils.escape_markdown(ctx.author.display_name)
        text = f"**{who}** rolls {render_roll_markdown(result)}"
        if len(text) > 2000:
            text = render_roll_markdown(result)
        if not secret:
            await send(ctx, text)
            return
        assert ctx.guild is not None and campaign is not None
        await ctx.defer(ephemeral=True)
        where = await deliver_to_gm(ctx.guild, campaign, f"Secret roll — {text}"[:2000])
        await send(ctx, f"{text}\n-# Secret: {where}."[:2000], ephemeral=True)

    async def _log(
        self, ctx: commands.Context[TableBot], result: GenericRoll, *, secret: bool
    ) -> Campaign | None:
        async with self.bot.db.transaction() as conn:
            campaign = None
            if ctx.guild is not None:
                campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            await RollLogRepository(conn).record(
                guild_id=ctx.guild.id if ctx.guild else None,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                kind="roll",
                expression=result.expression + (f" {result.label}" if result.label else ""),
                result=result.to_dict(),
                total=result.total,
                secret=secret,
            )
        log.debug("roll by %s: %s", ctx.author.id, render_roll_line(result))
        return campaign


async def setup(bot: TableBot) -> None:
    await bot.add_cog(RollingCog(bot))
