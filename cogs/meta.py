"""/help: every command with its options and the rulings the bot applies."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.render.help import command_names, command_pages, find_command, overview_embed
from bot.rulesets import RULESETS, Ruleset


class MetaCog(commands.Cog, name="Help"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _rulesets(self, guild_id: int | None) -> tuple[Ruleset, ...]:
        """A guild's table sees its ruleset's commands; a DM only the platform's."""
        if guild_id is None:
            return ()
        return (await self.bot.command_sets.ruleset_of(guild_id),)

    @commands.hybrid_command(name="help")
    @app_commands.describe(command="A command to explain, e.g. roll or campaign set")
    async def help(self, ctx: commands.Context[TableBot], *, command: str | None = None) -> None:
        """List the commands, or explain one: its options and the rulings applied."""
        rulesets = await self._rulesets(ctx.guild.id if ctx.guild else None)
        if command is None:
            blurb = RULESETS[rulesets[0]].help_blurb if rulesets else ""
            await send(ctx, embed=overview_embed(self.bot, rulesets, blurb), ephemeral=True)
            return
        found = find_command(self.bot, command[:100], rulesets)
        if found is None:
            raise UserError("I don't know that command: use `/help` alone to see them all.")
        for page in command_pages(found):  # a second message when the rulings need it
            await send(ctx, embed=page, ephemeral=True)

    @help.autocomplete("command")
    async def help_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        current = current.lower()
        return [
            app_commands.Choice(name=name, value=name)
            for name in command_names(self.bot, await self._rulesets(interaction.guild_id))
            if current in name
        ][:25]


async def setup(bot: TableBot) -> None:
    await bot.add_cog(MetaCog(bot))
