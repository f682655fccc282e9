"""/pool: an ad-hoc pool of d6s, optionally against a difficulty."""

from __future__ import annotations

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.hocs.skill_roll import RollHeading
from bot.storage.hocs.characters import Character, CharacterRepository
from cogs.declared_options import Chosen, takes
from cogs.hocs.odds_preview import odds_preview
from cogs.hocs.skill_rolls.common import (
    campaign_of,
    determination_note,
    secret_allowed,
    spend_determination,
)
from cogs.hocs.skill_rolls.options import (
    POOL_RULINGS,
    clean_label,
    difficulty_choices,
    parse_difficulty_option,
)
from cogs.hocs.skill_rolls.params import POOL_OPTIONS, pool_spec
from cogs.hocs.skill_rolls.views import roll_and_log


async def _active_for_determination(
    conn: aiosqlite.Connection, ctx: commands.Context[TableBot]
) -> Character:
    if ctx.guild is None:
        raise UserError(
            "Determination points belong to a character in a server: roll without"
            " determination here."
        )
    character = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
    if character is None:
        raise UserError(
            "Determination is spent from your active character and you have none here:"
            " pick one with /character select, or roll without determination."
        )
    return character


class PoolCommands:
    """The /pool command (mixed into the skill rolls cog)."""

    bot: TableBot

    @commands.hybrid_command(name="pool", extras={"rulings": POOL_RULINGS})
    @takes(*POOL_OPTIONS)
    async def pool(self, ctx: commands.Context[TableBot], o: Chosen) -> None:
        """Roll a pool of d6s (successes on 4–6), optionally against a difficulty."""
        level = parse_difficulty_option(o.difficulty)
        spec = pool_spec(o)
        secret = secret_allowed(ctx, o.secret)
        preview = await odds_preview(spec, level) if o.odds else None
        notes: list[str] = []
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, ctx)
            character = None
            if o.determination:
                character = await _active_for_determination(conn, ctx)
                left = await spend_determination(conn, character)
                notes.append(determination_note(character, left))
            elif ctx.guild is not None:
                # The roller's active character owns the roll, so its points can change it.
                character = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
            heading = RollHeading(
                who=ctx.author.display_name,
                what=f"{o.dice}d6",
                label=clean_label(o.label),
                notes=tuple(notes),
            )
            logged = await roll_and_log(
                self.bot, conn, ctx, spec, heading, kind="pool", difficulty=level,
                expression=f"pool {o.dice}d6", character=character, secret=secret,
            )  # fmt: skip
        await logged.reply(self.bot, ctx, campaign=campaign, secret=secret, odds=preview)

    @pool.autocomplete("difficulty")
    async def pool_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)
