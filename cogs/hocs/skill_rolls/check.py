"""/check: a skill or attribute from a character sheet, condition banes applied."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import GuildOnly
from cogs.declared_options import Chosen, takes
from cogs.hocs.odds_preview import check_odds_rerolls, odds_preview
from cogs.hocs.points.common import character_choices
from cogs.hocs.skill_rolls.common import (
    determination_note,
    rolling_for,
    secret_allowed,
    sheet_roll,
    sheet_skill_choices,
    spend_determination,
)
from cogs.hocs.skill_rolls.options import CHECK_RULINGS, difficulty_choices, parse_difficulty_option
from cogs.hocs.skill_rolls.params import CHECK_OPTIONS, modifiers_of
from cogs.hocs.skill_rolls.views import roll_and_log


class CheckCommands:
    """The /check command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="check", extras={"rulings": CHECK_RULINGS})
    @commands.guild_only()
    @takes(*CHECK_OPTIONS)
    async def check(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """Roll a skill or attribute from a character sheet, with condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(o.difficulty)
        secret = secret_allowed(ctx, o.secret)
        if o.odds:
            check_odds_rerolls(o.rerolls)
        async with self.bot.db.transaction() as conn:
            campaign, who = await rolling_for(conn, ctx, o.character)
            spec, heading = sheet_roll(who, o.skill, **modifiers_of(o))  # type: ignore[arg-type]
            if o.determination:
                note = determination_note(who, await spend_determination(conn, who))
                heading = replace(heading, notes=(note,))
            logged = await roll_and_log(
                self.bot, conn, ctx, spec, heading, kind="check", difficulty=level,
                expression=f"check {heading.what}", character=who, secret=secret,
            )  # fmt: skip
        # The sheet's pool is known only in the transaction; its odds don't depend on the dice.
        preview = await odds_preview(spec, level) if o.odds else None
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
