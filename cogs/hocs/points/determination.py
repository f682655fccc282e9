"""/determination spend: a determination point on your last roll, after seeing it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.rulesets import Ruleset
from bot.tables.character_access import MAX_NAME
from cogs.hocs.points.common import (
    CHARACTER_HELP,
    Ctx,
    acting_for,
    campaign_for,
    character_choices,
)
from cogs.hocs.points.spending import Spend, latest_roll, spend_on_roll
from cogs.hocs.points.views import reply_with_roll

Name = commands.Range[str, 1, MAX_NAME]

DETERMINATION_RULINGS = [
    "After the roll a determination point is one more boon, rolling only what that boon"
    " changes: a die the banes had removed comes back, or the exploding determination die"
    " is added (0 net boons → +1d6).",
    "If it would change nothing (banes still cost the same die, or a boon die already"
    " rolled something other than a 6) it is refused and the point is kept; a boon die"
    " showing 6 becomes the determination die and explodes.",
    "Your last roll is the last one points can change: /pool, /check, or your side of a"
    " /clash or /attack (a clash is decided again, an attack's hit redone).",
    "The Spend determination button under a roll does the same, shown only when it would"
    " change the result. Determination before the roll: the determination option of"
    " /pool, /check, /clash and /attack (opponent_/defender_determination for the other"
    " side, by its owner or the GM; threshold_determination on /attack and /damage for"
    " the target's threshold test).",
]


class DeterminationCog(RulesetCog, name="Determination"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="determination", invoke_without_command=True)
    @commands.guild_only()
    async def determination(self, ctx: Ctx) -> None:
        """Determination points after the roll."""
        raise UserError("Add a subcommand: /determination spend.")

    @determination.command(name="spend", extras={"rulings": DETERMINATION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(character=CHARACTER_HELP)
    async def determination_spend(
        self,
        ctx: Ctx,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Spend determination on your last roll."""
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            who = await acting_for(conn, ctx, campaign, character, "spend its determination")
            logged, side = await latest_roll(conn, who)
            outcome = await spend_on_roll(
                conn, logged=logged, spend=Spend.DETERMINATION, actor=ctx.author,
                campaign=campaign, dice=self.bot.dice, side=side,
            )  # fmt: skip
        await reply_with_roll(ctx, campaign, outcome)

    @determination_spend.autocomplete("character")
    async def determination_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)
