"""The base class of every ruleset's cogs: commands that exist only in guilds whose
campaign plays that ruleset."""

from __future__ import annotations

from typing import Any, ClassVar

from discord.ext import commands
from discord.utils import maybe_coroutine

from bot.interactions.command_sets import catalogue_of
from bot.rulesets import Ruleset


class RulesetCog(commands.Cog):
    """A cog whose commands exist only in guilds whose campaign plays ``ruleset``.

    Loading it does not put its commands in ``bot.all_commands`` nor in the global slash
    tree: they go to the bot's per-ruleset catalogue (``command_sets``), which routes
    prefix commands by the guild's ruleset and registers the slash commands per guild.
    Two rulesets may therefore both have a ``/character``.
    """

    ruleset: ClassVar[Ruleset]

    async def _inject(self, bot, override, guild, guilds):  # type: ignore[no-untyped-def]
        # discord.py 2.7's Cog._inject adds top-level commands to the bot and the tree;
        # everything else it does (cog_load, checks, listeners) is kept as it is.
        from bot.interactions.command_sets import (
            catalogue_of,  # here: command_sets imports this module
        )

        catalogue = catalogue_of(bot, self.ruleset)
        await maybe_coroutine(self.cog_load)
        added: list[commands.Command] = []
        try:
            for command in self.__cog_commands__:
                command.cog = self
                if command.parent is None:
                    catalogue.add_prefix(command)
                    added.append(command)
            for app_command in _app_commands(self):
                catalogue.add_app(app_command)
        except Exception:  # atomic like discord.py's: undo, unload, re-raise
            for command in added:
                catalogue.remove_prefix(command)
            for app_command in _app_commands(self):
                if catalogue.app.get(app_command.name) is app_command:
                    catalogue.remove_app(app_command.name)
            await maybe_coroutine(self.cog_unload)
            raise
        cls = type(self)
        if cls.bot_check is not commands.Cog.bot_check:
            bot.add_check(self.bot_check)
        if cls.bot_check_once is not commands.Cog.bot_check_once:
            bot.add_check(self.bot_check_once, call_once=True)
        for name, method_name in self.__cog_listeners__:
            bot.add_listener(getattr(self, method_name), name)
        return self

    async def _eject(self, bot, guild_ids):  # type: ignore[no-untyped-def]

        catalogue = catalogue_of(bot, self.ruleset)
        try:
            for command in self.__cog_commands__:
                if command.parent is None:
                    catalogue.remove_prefix(command)
            for app_command in _app_commands(self):
                catalogue.remove_app(app_command.name)
            # Guild trees holding this ruleset's commands register again on next use.
            bot.command_sets.unregister_ruleset(self.ruleset)
            for name, method_name in self.__cog_listeners__:
                bot.remove_listener(getattr(self, method_name), name)
            cls = type(self)
            if cls.bot_check is not commands.Cog.bot_check:
                bot.remove_check(self.bot_check)
            if cls.bot_check_once is not commands.Cog.bot_check_once:
                bot.remove_check(self.bot_check_once, call_once=True)
        finally:
            await maybe_coroutine(self.cog_unload)


def _app_commands(cog: commands.Cog) -> list[Any]:
    """The cog's top-level slash commands: its pure app commands and the slash side of its
    hybrid commands (what discord.py's ``Cog._inject`` and ``Bot.add_command`` would put
    in the global tree)."""
    found: list[Any] = []
    if not cog.__cog_app_commands_group__:
        found.extend(cog.__cog_app_commands__)
    for command in cog.__cog_commands__:
        app = getattr(command, "app_command", None)
        if command.parent is None and app is not None:
            found.append(app)
    return found
