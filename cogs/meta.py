"""/help: every command with its options and the rulings the bot applies."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.help import command_embed, command_names, find_command, overview_embed
from bot.replies import send


class MetaCog(commands.Cog, name="Help"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="help")
    @app_commands.describe(command="A command to explain, e.g. roll or campaign set")
    async def help(self, ctx: commands.Context[TableBot], *, command: str | None = None) -> None:
        """List the commands, or explain one: its options and the rulings applied."""
        if command is None:
            await send(ctx, embed=overview_embed(self.bot), ephemeral=True)
            return
        found = find_command(self.bot, command[:100])
        if found is None:
            raise UserError("I don't know that command: use `/help` alone to see them all.")
        await send(ctx, embed=command_embed(found), ephemeral=True)

    @help.autocomplete("command")
    async def help_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        current = current.lower()
        return [
            app_commands.Choice(name=name, value=name)
            for name in command_names(self.bot)
            if current in name
        ][:25]


async def setup(bot: TableBot) -> None:
    await bot.add_cog(MetaCog(bot))
