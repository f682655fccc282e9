"""The bot object: settings, database and cogs wired together."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import error_handler
from bot.command_sync import SyncMode, sync_if_changed
from bot.component_guard import guard
from bot.config import Settings
from bot.errors import InputRefused
from bot.option_check import option_problem
from bot.permissions import GmMemory
from bot.rules.dice_source import Dice, RandomDice
from bot.storage.database import Database
from bot.text import control_characters, direction_controls

log = logging.getLogger(__name__)

COGS = (
    "cogs.meta",
    "cogs.campaign",
    "cogs.rolling",
    "cogs.characters",
    "cogs.skill_rolls",
    "cogs.odds",
    "cogs.combat",
    "cogs.initiative",
    "cogs.points",
    "cogs.resting",
)


def build_intents(settings: Settings) -> discord.Intents:
    """Non-privileged intents, plus Message Content only when the operator enabled it."""
    intents = discord.Intents.default()
    intents.message_content = settings.message_content_intent
    return intents


def build_prefix(settings: Settings) -> Any:
    # A mention always works because Discord sends the content of messages that
    # mention the bot even without the privileged Message Content intent.
    if settings.message_content_intent:
        return commands.when_mentioned_or(settings.command_prefix)
    return commands.when_mentioned


class TableTree(app_commands.CommandTree):
    """The command tree, refusing options that break their declaration before any command.

    Covers plain and hybrid slash commands and their subcommands; autocomplete (where the
    user is still typing) and context menus pass untouched.
    """

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        memory = getattr(self.client, "gm_memory", None)
        if memory is not None:
            memory.observe_soon(interaction.user)  # for secret rolls (bot.permissions.GmMemory)
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        problem = option_problem(command, dict(iter(interaction.namespace)))
        if problem is None:
            return True
        log.info("refused the options of /%s: %s", command.qualified_name, problem)
        await error_handler.refuse_interaction(interaction, problem)
        return False


async def refuse_control_characters(ctx: commands.Context[Any]) -> bool:
    """Global check for prefix commands (the tree checks slash options): no NUL and co.,
    no bidirectional controls."""
    if ctx.interaction is None and control_characters(ctx.message.content):
        raise InputRefused(
            "That message contains control characters: retype the command without them."
        )
    if ctx.interaction is None and direction_controls(ctx.message.content):
        raise InputRefused(
            "That message contains a text-direction control (it can make the reply read"
            " backwards): retype the command without it."
        )
    return True


class TableBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        db: Database,
        *,
        dice: Dice | None = None,
        sync_mode: SyncMode = SyncMode.AUTO,
        intents: discord.Intents | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            command_prefix=build_prefix(settings),
            intents=intents or build_intents(settings),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            case_insensitive=True,
            strip_after_prefix=True,
            tree_cls=TableTree,
            **kwargs,
        )
        self.settings = settings
        self.db = db
        self.dice: Dice = dice or RandomDice()
        self.gm_memory = GmMemory(db)
        self.sync_mode = sync_mode
        self.tree.on_error = error_handler.on_app_command_error
        self.add_check(refuse_control_characters)

    def _get_state(self, **options: Any) -> Any:
        # Every button press must get an answer: see bot.component_guard.
        state = super()._get_state(**options)
        guard(state)
        return state

    async def load_cogs(self) -> None:
        for name in COGS:
            await self.load_extension(name)
        log.info("loaded %d cogs", len(COGS))

    async def setup_hook(self) -> None:
        await sync_if_changed(
            self.tree, self.db, dev_guild_id=self.settings.dev_guild_id, mode=self.sync_mode
        )

    async def on_command_error(  # type: ignore[override]
        self, ctx: commands.Context[Any], error: commands.CommandError
    ) -> None:
        await error_handler.on_command_error(ctx, error)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guilds", self.user, len(self.guilds))
