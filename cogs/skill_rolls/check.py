"""/check: a skill or attribute from a character sheet, condition banes applied."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import GuildOnly
from cogs.odds_preview import check_odds_rerolls, odds_preview
from cogs.points.common import character_choices
from cogs.skill_rolls.common import (
    determination_note,
    rolling_for,
    secret_allowed,
    sheet_roll,
    sheet_skill_choices,
    spend_determination,
)
from cogs.skill_rolls.options import (
    CHECK_OPTION_HELP,
    CHECK_RULINGS,
    ODDS_OPTION_HELP,
    ROLL_OPTION_HELP,
    Count,
    Name,
    Rerolls,
    Text,
    difficulty_choices,
    parse_difficulty_option,
)
from cogs.skill_rolls.views import roll_and_log


class CheckCommands:
    """The /check command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="check", extras={"rulings": CHECK_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        **(ROLL_OPTION_HELP | CHECK_OPTION_HELP),
        determination="Spend one of the character's determination points (exploding boon)",
        odds=ODDS_OPTION_HELP,
    )
    async def check(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Rerolls = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        character: Name = None,  # type: ignore[assignment]
        secret: bool = False,
        odds: bool = False,
    ) -> None:
        """Roll a skill or attribute from a character sheet, with condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(difficulty)
        secret = secret_allowed(ctx, secret)
        if odds:
            check_odds_rerolls(rerolls)
        async with self.bot.db.transaction() as conn:
            campaign, who = await rolling_for(conn, ctx, character)
            spec, heading = sheet_roll(
                who, skill, boons=boons, banes=banes, determination=bool(determination),
                focus=focus, rerolls=rerolls, guaranteed=guaranteed,
            )  # fmt: skip
            if determination:
                note = determination_note(who, await spend_determination(conn, who))
                heading = replace(heading, notes=(note,))
            logged = await roll_and_log(
                self.bot, conn, ctx, spec, heading, kind="check", difficulty=level,
                expression=f"check {heading.what}", character=who, secret=secret,
            )  # fmt: skip
        # The sheet's pool is known only in the transaction; its odds don't depend on the dice.
        preview = await odds_preview(spec, level) if odds else None
        await logged.reply(self.bot, ctx, campaign=campaign, secret=secret, odds=preview)

    @check.autocomplete("difficulty")
    async def check_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)

    @check.autocomplete("character")
    async def check_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)

    @check.autocomplete("skill")
    async def check_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await sheet_skill_choices(
            self.bot, interaction, current, whose="character", active=True
        )
