"""Per-ruleset command catalogues, and putting the right one in front of each guild.

Platform commands stay global (``bot.all_commands`` and the global slash tree). A
``RulesetCog``'s commands go to its ruleset's :class:`Catalogue` instead:

* prefix/mention commands are resolved from the catalogue of the message's guild
  (``TableBot.get_context``), so two rulesets can both have ``!character``;
* slash commands are added to the tree as GUILD commands of the guilds playing that
  ruleset, lazily: the first interaction of a guild registers them (see
  ``TableTree._call``), so dispatch never depends on a sync in this process.

The guild -> ruleset map is cached and invalidated when the GM switches ruleset.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.rulesets import RULESETS, Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database

log = logging.getLogger(__name__)

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


class Catalogue:
    """One ruleset's top-level commands: prefix (by name and alias) and slash."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.prefix: dict[str, commands.Command[Any, ..., Any]] = {}  # lower-cased names
        self.app: dict[str, AppCommand] = {}

    def add_prefix(self, command: commands.Command[Any, ..., Any]) -> None:
        names = [command.name, *command.aliases]
        taken = [name for name in names if name.lower() in self.prefix]
        if taken:
            raise commands.CommandRegistrationError(
                taken[0], alias_conflict=taken[0] != command.name
            )
        for name in names:
            self.prefix[name.lower()] = command

    def remove_prefix(self, command: commands.Command[Any, ..., Any]) -> None:
        for name in (command.name, *command.aliases):
            if self.prefix.get(name.lower()) is command:
                del self.prefix[name.lower()]

    def add_app(self, command: AppCommand) -> None:
        if command.name in self.app and self.app[command.name] is not command:
            raise app_commands.CommandAlreadyRegistered(command.name, None)
        self.app[command.name] = command

    def remove_app(self, name: str) -> None:
        self.app.pop(name, None)

    def payload(self, tree: app_commands.CommandTree) -> list[dict[str, Any]]:
        """The slash commands as a guild sync sends them (for checks and tooling)."""
        return [command.to_dict(tree) for command in self.app.values()]

    def roots(self) -> list[commands.Command[Any, ..., Any]]:
        """Each top-level prefix command once (aliases map to the same object)."""
        unique = {id(command): command for command in self.prefix.values()}
        return sorted(unique.values(), key=lambda command: command.name)


def catalogue_of(bot: commands.Bot, ruleset: Ruleset) -> Catalogue:
    sets: CommandSets | None = getattr(bot, "command_sets", None)
    if sets is None:
        raise RuntimeError("ruleset cogs need a bot with command_sets (bot.client.TableBot)")
    return sets.catalogues[ruleset]


class CommandSets:
    """The catalogues of every ruleset, and which one each guild's tree holds."""

    def __init__(self, tree: app_commands.CommandTree, db: Database) -> None:
        self.tree = tree
        self.db = db
        self.catalogues = {ruleset: Catalogue(ruleset) for ruleset in RULESETS}
        self._rulesets: dict[int, Ruleset] = {}  # guild id -> its campaign's ruleset (cache)
        self._registered: dict[int, Ruleset] = {}  # guild id -> ruleset its tree holds
        self._lock = asyncio.Lock()

    # --- which ruleset a guild plays ---

    async def ruleset_of(self, guild_id: int) -> Ruleset:
        cached = self._rulesets.get(guild_id)
        if cached is not None:
            return cached
        async with self.db.read() as conn:
            campaign = await CampaignRepository(conn).get(guild_id)
        # A guild with no campaign row yet plays the column's default (HOCS).
        ruleset = campaign.ruleset if campaign is not None else Ruleset.HOCS
        self._rulesets[guild_id] = ruleset
        return ruleset

    def forget(self, guild_id: int) -> None:
        """The campaign's ruleset changed: read it again next time."""
        self._rulesets.pop(guild_id, None)

    # --- prefix side ---

    async def prefix_command(
        self, guild_id: int, name: str
    ) -> commands.Command[Any, ..., Any] | None:
        return self.catalogues[await self.ruleset_of(guild_id)].prefix.get(name.lower())

    # --- slash side ---

    def registered(self, guild_id: int) -> Ruleset | None:
        return self._registered.get(guild_id)

    async def ensure_guild(self, guild_id: int) -> Ruleset:
        """Put the guild's ruleset's slash commands in the tree, if they aren't yet."""
        ruleset = await self.ruleset_of(guild_id)
        if self._registered.get(guild_id) is ruleset:
            return ruleset
        async with self._lock:  # two first interactions of one guild at once
            if self._registered.get(guild_id) is not ruleset:
                self._register(guild_id, ruleset)
        return ruleset

    def _register(self, guild_id: int, ruleset: Ruleset) -> None:
        guild = discord.Object(id=guild_id)
        old = self._registered.get(guild_id)
        if old is not None:
            # Only the old ruleset's names: a dev guild also holds copies of the globals.
            for name in self.catalogues[old].app:
                self.tree.remove_command(name, guild=guild)
        for command in self.catalogues[ruleset].app.values():
            self.tree.add_command(command, guild=guild, override=True)
        self._registered[guild_id] = ruleset
        log.info("guild %s: registered the %s commands", guild_id, ruleset.value)

    def unregister_ruleset(self, ruleset: Ruleset) -> None:
        """A cog of ``ruleset`` was unloaded: guilds re-register from the catalogue."""
        for guild_id, registered in list(self._registered.items()):
            if registered is ruleset:
                guild = discord.Object(id=guild_id)
                for name in [c.name for c in self.tree.get_commands(guild=guild)]:
                    if self.tree.get_command(name) is None:  # not a dev guild's global copy
                        self.tree.remove_command(name, guild=guild)
                del self._registered[guild_id]

    async def switched(self, guild_id: int) -> Ruleset:
        """After a ruleset switch: re-read the campaign and re-register the guild."""
        self.forget(guild_id)
        return await self.ensure_guild(guild_id)
