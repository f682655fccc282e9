"""/check: a skill or attribute from a character sheet, condition banes applied."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.character_access import resolve_character
from bot.client import TableBot
from bot.errors import GuildOnly
from bot.render.skill_roll import RollHeading, skill_roll_embed
from bot.rules.hocs.rolling import roll_pool
from cogs.skill_rolls.common import (
    ROLL_FOR_THEM,
    banes_with_conditions,
    campaign_of,
    character_names,
    determination_note,
    log_roll,
    lookup_character,
    secret_allowed,
    sheet_pool,
    spend_determination,
)
from cogs.skill_rolls.options import (
    CHECK_RULINGS,
    Count,
    Name,
    Text,
    difficulty_choices,
    parse_difficulty_option,
    skill_choices,
)
from cogs.skill_rolls.views import buttons_for, reply


class CheckCommands:
    """The /check command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="check", extras={"rulings": CHECK_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        skill="Skill or attribute from the character's sheet",
        difficulty="Test difficulty: a number 0–10 or a name such as Hard",
        boons="Boons (any net boon adds 1d6; they cancel banes)",
        banes="Banes besides the conditions' (added automatically)",
        focus="Focus: +1 to one die each",
        rerolls="Rerolls: roll one failed die again each",
        guaranteed="Guaranteed successes: turn one die into a 4 each",
        determination="Spend one of the character's determination points (exploding boon)",
        character="Whose sheet (default: your active character)",
        secret="Show the result only to you and the GM",
    )
    async def check(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Count = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        character: Name = None,  # type: ignore[assignment]
        secret: bool = False,
    ) -> None:
        """Roll a skill or attribute from a character sheet, with condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(difficulty)
        secret = secret_allowed(ctx, secret)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, ctx)
            assert campaign is not None
            who = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action=ROLL_FOR_THEM
            )
            pool = sheet_pool(who, skill)
            all_banes, from_conditions = banes_with_conditions(banes, who, pool.attribute)
            spec = pool.spec(
                boons=boons,
                banes=all_banes,
                determination=bool(determination),
                focus=focus,
                rerolls=rerolls,
                guaranteed=guaranteed,
            )
            notes = []
            if determination:
                notes.append(determination_note(who, await spend_determination(conn, who)))
            roll = roll_pool(spec, self.bot.dice)
            heading = RollHeading(
                who=who.name, what=pool.label, condition_banes=from_conditions, notes=tuple(notes)
            )
            roll_id = await log_roll(
                conn, ctx, kind="check", heading=heading, roll=roll, difficulty=level,
                expression=f"check {pool.label}", character=who, secret=secret,
            )  # fmt: skip
            view = await buttons_for(conn, roll_id)
        embed = skill_roll_embed(heading, roll, level)
        await reply(self.bot, ctx, roll_id, embed, campaign=campaign, secret=secret, view=view)

    @check.autocomplete("difficulty")
    async def check_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)

    @check.autocomplete("character")
    async def check_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_names(self.bot, interaction, current)

    @check.autocomplete("skill")
    async def check_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        named = getattr(interaction.namespace, "character", None)
        character = await lookup_character(self.bot, interaction, named, active=True)
        return skill_choices(current, character.sheet if character else None)
