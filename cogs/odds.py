"""/odds: the exact chance of each outcome of a roll before it is made, with a chart.

HOCS only for now: ``/odds pool`` takes /pool's options, ``/odds check`` /check's
(the pool comes from the sheet, condition banes included). Nothing is rolled,
spent or logged; the figures come from ``bot.rules.hocs.odds``, which follows the
same reroll, focus and guarantee policy as the dice.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import GuildOnly
from bot.render.odds import chart_file, pool_odds_embed, test_odds_embed
from bot.replies import send
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rulesets import Ruleset, RulesetCog
from cogs.odds_preview import ODDS_MAX_REROLLS
from cogs.skill_rolls.common import rolling_for, sheet_roll, sheet_skill_choices
from cogs.skill_rolls.options import (
    POOL_RULINGS,
    ROLL_OPTION_HELP,
    Count,
    Dice,
    Name,
    Text,
    difficulty_choices,
    parse_difficulty_option,
)

log = logging.getLogger(__name__)

OddsRerolls = commands.Range[int, 0, ODDS_MAX_REROLLS]

ODDS_RULINGS = [
    "Odds are exact (no sampling) and spend rerolls, focus and guarantees exactly as the"
    " dice do. A determination die's chain of 6s has no end: the last success count shown"
    " with a + is that many or more.",
    f"/odds takes up to {ODDS_MAX_REROLLS} talent rerolls: the exact search over more is"
    " too slow to answer in time.",
    *POOL_RULINGS[:2],
]
_HELP = {k: v for k, v in ROLL_OPTION_HELP.items() if k != "secret"} | {
    "rerolls": f"Rerolls: roll one failed die again each (0–{ODDS_MAX_REROLLS} for odds)"
}


async def _answer(
    ctx: commands.Context[TableBot], title: str, spec: PoolSpec, level: Difficulty | None
) -> None:
    if ctx.interaction is not None:
        # Large pools with many modifiers can take longer than Discord's 3 seconds.
        await ctx.defer()
    # In a worker thread: a slow query (many dice, focus and rerolls together) then
    # shares the interpreter with the event loop instead of stalling it.
    if level is None:
        odds = await asyncio.to_thread(pool_odds, spec)
        embed = pool_odds_embed(title, odds)
        chart = chart_file(odds, None)
    else:
        test = await asyncio.to_thread(test_odds, spec, level)
        embed = test_odds_embed(title, test)
        chart = chart_file(test.pool, int(level) if level.needs_roll else 0)
    await send(ctx, embed=embed, file=chart)


class OddsCog(RulesetCog, name="Odds"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="odds")
    async def odds(self, ctx: commands.Context[TableBot]) -> None:
        """Exact chances of a roll before you make it."""

    @odds.command(name="pool", extras={"rulings": ODDS_RULINGS})
    @app_commands.describe(
        **_HELP,
        dice="Number of d6 in the pool (0–30)",
        banes="Banes (−1d6 per 2 banes, rounded up, after boons cancel them)",
        determination="Count a determination point spent before the roll (exploding boon)",
    )
    async def odds_pool(
        self,
        ctx: commands.Context[TableBot],
        dice: Dice,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: OddsRerolls = 0,
        guaranteed: Count = 0,
        determination: bool = False,
    ) -> None:
        """The exact chances of a pool of d6s, optionally against a difficulty."""
        level = parse_difficulty_option(difficulty)
        spec = PoolSpec(
            base=dice, boons=boons, banes=banes, determination=bool(determination),
            focus=focus, rerolls=rerolls, guaranteed=guaranteed,
        )  # fmt: skip
        await _answer(ctx, f"Odds: {dice}d6", spec, level)

    @odds.command(name="check", extras={"rulings": ODDS_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        **_HELP,
        skill="Skill or attribute from the character's sheet",
        banes="Banes besides the conditions' (added automatically)",
        determination="Count a determination point spent before the roll (exploding boon)",
        character="Whose sheet (default: your active character)",
    )
    async def odds_check(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: OddsRerolls = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """The exact chances of a skill or attribute from a sheet, condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(difficulty)
        # Read only: nothing is spent, so the transaction just reads the sheet.
        async with self.bot.db.transaction() as conn:
            _, who = await rolling_for(conn, ctx, character)
            spec, heading = sheet_roll(
                who, skill, boons=boons, banes=banes, determination=bool(determination),
                focus=focus, rerolls=rerolls, guaranteed=guaranteed,
            )  # fmt: skip
        await _answer(ctx, f"Odds: {heading.who}, {heading.what}"[:256], spec, level)

    @odds_pool.autocomplete("difficulty")
    @odds_check.autocomplete("difficulty")
    async def odds_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)

    @odds_check.autocomplete("skill")
    async def odds_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="character", active=True
        )


async def setup(bot: TableBot) -> None:
    await bot.add_cog(OddsCog(bot))
