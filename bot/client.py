"""The bot object: settings, database and cogs wired together."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.delivery.events import notify_characters_changed
from bot.delivery.followups import FollowUps
from bot.errors import InputRefused
from bot.interactions import error_handler
from bot.interactions.command_sets import CommandSets
from bot.interactions.command_sync import SyncMode, sync_guild_if_changed, sync_if_changed
from bot.interactions.component_guard import guard
from bot.interactions.forged_options import forged_reference
from bot.interactions.option_check import option_problem
from bot.interactions.user_text import control_characters, direction_controls
from bot.process.idle_gc import IdleCollector
from bot.process.sharding import ShardPlan
from bot.rules.dice_source import Dice, RandomDice
from bot.rulesets import PLATFORM_EXTENSIONS, RULESETS
from bot.storage.database import Database
from bot.tables.permissions import GmMemory

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)

DEFERRED_WRITES = "deferred writes"  # the follow-up key of ``Database.flush_deferred``
WAL_CHECKPOINT = "wal checkpoint"  # the follow-up key of ``Database.checkpoint_if_due``

# Platform extensions first (global commands), then every ruleset's, from the registry.
COGS = tuple(
    dict.fromkeys(
        (*PLATFORM_EXTENSIONS, *(name for spec in RULESETS.values() for name in spec.extensions))
    )
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


_COMMAND = discord.InteractionType.application_command
_AUTOCOMPLETE = discord.InteractionType.autocomplete
FORGED_OPTION = (
    "That command came with an option value Discord never sends, so it did nothing:"
    " pick the option from the menu and try again."
)


async def _refuse_forged(interaction: discord.Interaction, what: str) -> bool:
    """Answer an interaction carrying an option Discord never sends (False: not run)."""
    log.warning("refused an interaction with an option Discord never sends: %s", what)
    if interaction.type is _AUTOCOMPLETE:
        await error_handler.no_choices(interaction)
    else:
        await error_handler.refuse_interaction(interaction, FORGED_OPTION)
    return False


class TableTree(app_commands.CommandTree):
    """The command tree, refusing options that break their declaration before any command.

    Covers plain and hybrid slash commands and their subcommands; autocomplete (where the
    user is still typing) and context menus pass untouched.
    """

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        kind = interaction.type
        if kind not in (_COMMAND, _AUTOCOMPLETE):
            return True
        forged = forged_reference(interaction.data, resolved_needed=kind is _COMMAND)
        if forged is not None:
            return await _refuse_forged(interaction, f"its option {forged!r}")
        try:
            # discord.py resolves a user, role or channel option by int(value): a forged
            # value that is no snowflake would raise here and again in the tree's _call,
            # outside every error handler, and the interaction would get no answer.
            given = dict(iter(interaction.namespace))
        except (ValueError, TypeError) as exc:
            return await _refuse_forged(interaction, str(exc))
        if kind is _AUTOCOMPLETE:
            return True
        memory = getattr(self.client, "gm_memory", None)
        if memory is not None:
            memory.observe_soon(interaction.user)  # for secret rolls (GmMemory)
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        problem = option_problem(command, given)
        if problem is None:
            return True
        log.info("refused the options of /%s: %s", command.qualified_name, problem)
        await error_handler.refuse_interaction(interaction, problem)
        return False

    # discord.py 2.7's CommandTree._from_interaction runs every application command and
    # autocomplete interaction through this private coroutine, which looks the command
    # up in the tree (guild commands first). Registering the guild's ruleset commands
    # just before makes dispatch independent of any sync having run in this process
    # (tests/test_ruleset_sync.py pins this hook against the installed discord.py).
    async def _call(self, interaction: discord.Interaction, /) -> None:
        command_sets: CommandSets | None = getattr(self.client, "command_sets", None)
        if command_sets is not None and interaction.guild_id is not None:
            try:
                await command_sets.ensure_guild(interaction.guild_id)
            except Exception:  # e.g. the database is locked: globals still answer
                log.exception("could not register the commands of guild %s", interaction.guild_id)
        followups = getattr(self.client, "followups", None)
        if followups is None:
            await super()._call(interaction)
            return
        with followups.busy():  # the reply first: follow-ups wait for the command
            try:
                await super()._call(interaction)
            finally:
                idle_gc = getattr(self.client, "idle_gc", None)
                if idle_gc is not None:  # the young objects it left: after the reply
                    idle_gc.collect_young_soon(followups.schedule)


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
        self.followups = FollowUps()  # what a command leaves for after its reply
        self.gm_memory = GmMemory(db, later=self.followups.schedule)
        # Bookkeeping writes (a reply's message id, a GM seen) go after the reply too.
        db.on_deferred = self._write_deferred_soon
        # Characters a transaction wrote (bot.storage.changes): the trackers showing them
        # hear it once it has committed, whichever command (or none) wrote them.
        db.on_characters_changed = self._characters_changed
        if hasattr(db, "checkpoint_if_due"):  # (SQLite: the WAL's busy checkpoints)
            db.on_checkpoint_due = self._checkpoint_soon
        self.idle_gc = IdleCollector(self._idle_seconds)
        self.sync_mode = sync_mode
        self.shard_plan = ShardPlan.from_settings(settings)
        self.command_sets = CommandSets(self.tree, db)
        self._sync_lock = asyncio.Lock()
        self.tree.on_error = error_handler.on_app_command_error
        self.add_check(refuse_control_characters)
        self.web: WebServer | None = None  # the web pages (WEB_PORT): start_web

    async def start_web(self) -> None:
        """Serve the web pages when WEB_PORT is set (once; ``close`` stops them).

        Raises ``bot.web.errors.WebServerUnavailable`` (one readable line) when the
        address can't be listened on."""
        if self.web is None and self.settings.web_port is not None:
            # Imported here: a bot without web pages never loads aiohttp-jinja2 and Jinja2.
            from bot.web.server import server_for

            self.web = server_for(self)
            if self.web is not None:
                await self.web.start()

    async def close(self) -> None:
        if self.web is not None:  # first: no page reads the database while it closes
            await self.web.stop()
        # Queued follow-ups (tracker edits) go out before the connection closes.
        await self.followups.close()
        await self.idle_gc.stop()
        await super().close()

    def _write_deferred_soon(self) -> None:
        self.followups.schedule(DEFERRED_WRITES, self.db.flush_deferred)

    def _checkpoint_soon(self) -> None:
        self.followups.schedule(WAL_CHECKPOINT, self.db.checkpoint_if_due)

    def _characters_changed(self, changed: dict[int, set[int]]) -> None:
        for guild_id, character_ids in changed.items():
            notify_characters_changed(self, guild_id, character_ids)

    def _idle_seconds(self) -> float:
        """Seconds the bot has been doing nothing (no command, no transaction)."""
        return 0.0 if self.followups.handling else self.db.idle_seconds

    def _get_state(self, **options: Any) -> Any:
        # Every button press must get an answer: see bot.interactions.component_guard.
        state = super()._get_state(**options)
        guard(state)
        return state

    async def load_cogs(self) -> None:
        for name in COGS:
            await self.load_extension(name)
        log.info("loaded %d cogs", len(COGS))

    async def get_context(self, origin: Any, /, *, cls: Any = commands.Context) -> Any:
        """Resolve a prefix command the platform doesn't have from the guild's ruleset.

        Ruleset commands are not in ``all_commands`` (two rulesets may share a name), so
        ``!character`` means the character command of the ruleset this guild plays.
        """
        ctx = await super().get_context(origin, cls=cls)
        if (
            isinstance(origin, discord.Message)
            and ctx.command is None
            and ctx.invoked_with
            and ctx.guild is not None
        ):
            ctx.command = await self.command_sets.prefix_command(ctx.guild.id, ctx.invoked_with)
        return ctx

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process's shards include ``guild_id`` (see bot.process.sharding)."""
        return self.shard_plan.owns(guild_id)

    async def setup_hook(self) -> None:
        await self.start_web()  # (pages read the database: no need to wait for the sync)
        dev_guild_id = self.settings.dev_guild_id
        # Once, not once per process: the globals by the process holding shard 0, the
        # dev guild's copy by the process that owns the dev guild.
        here = self.owns_guild(dev_guild_id) if dev_guild_id else self.shard_plan.syncs_globals
        if not here:
            log.info("command sync: left to the process holding that shard")
            self.start_background()
            return
        if dev_guild_id and self.sync_mode is not SyncMode.SKIP:
            # DEV_GUILD_ID: the dev guild gets the globals and its ruleset's commands.
            await self.command_sets.ensure_guild(dev_guild_id)
        await sync_if_changed(self.tree, self.db, dev_guild_id=dev_guild_id, mode=self.sync_mode)
        self.start_background()

    def _may_sync(self) -> bool:
        # Under dpytest (and --no-sync) nothing may reach Discord's command endpoints.
        return self.sync_mode is not SyncMode.SKIP and self.application_id is not None

    async def sync_guild(self, guild_id: int, *, force: bool = False) -> bool:
        """Give a guild's slash menu its ruleset's commands; return whether a sync was sent.

        Sequential (one lock) so a startup over many guilds stays within rate limits.
        """
        if not self._may_sync() or not self.owns_guild(guild_id):
            return False  # another shard process's guild is that process's to sync
        dev_guild_id = self.settings.dev_guild_id
        if dev_guild_id and guild_id != dev_guild_id:
            return False  # dev mode: only the dev guild has commands
        async with self._sync_lock:
            await self.command_sets.ensure_guild(guild_id)
            if dev_guild_id:
                self.tree.copy_global_to(guild=discord.Object(id=dev_guild_id))
            try:
                return await sync_guild_if_changed(
                    self.tree, self.db, guild_id, force=force or self.sync_mode is SyncMode.FORCE
                )
            except discord.HTTPException as error:  # e.g. the bot lacks applications.commands
                log.warning("guild %s: command sync failed: %s", guild_id, error)
                return False

    async def ruleset_switched(self, guild_id: int) -> None:
        """The GM switched ruleset: this process's tree and the guild's menu follow now."""
        await self.command_sets.switched(guild_id)
        await self.sync_guild(guild_id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.sync_guild(guild.id, force=True)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        # At startup each guild arrives here (GUILD_CREATE) before on_ready, which only
        # comes after the guild streaming delay: syncing here gives the menu at once.
        await self.sync_guild(guild.id)

    def start_background(self) -> None:
        """Once started: WAL checkpoints and deferred writes run from a task when idle,
        not inside a command; the start-up heap (modules, cogs, commands) is frozen
        so the collector never walks it again (a full collection of it took 36–54 ms),
        and later full collections wait for an idle moment (``bot.process.idle_gc``)."""
        self.db.start_maintenance()
        gc.collect()
        gc.freeze()
        self.idle_gc.start()

    async def on_command_error(  # type: ignore[override]
        self, ctx: commands.Context[Any], error: commands.CommandError
    ) -> None:
        await error_handler.on_command_error(ctx, error)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d guilds", self.user, len(self.guilds))
        gc.collect()  # the guild cache has just been filled: freeze it too
        gc.freeze()
        if not self._may_sync():
            return
        # Sequential, only this process's guilds, and only those whose hash differs.
        own = [guild.id for guild in self.guilds if self.owns_guild(guild.id)]
        synced = 0
        for guild_id in own:
            synced += await self.sync_guild(guild_id)
        log.info("startup: synced the commands of %d of %d guilds", synced, len(own))


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot ``python -m bot`` runs: discord.py's AutoShardedBot with SHARD_COUNT and
    SHARD_IDS from the settings (both unset: automatic sharding in one process).

    Tests drive :class:`TableBot`, because dpytest refuses sharded clients; the two
    differ only in how the gateway is opened (its shards bring only their guilds).
    """

    def __init__(self, settings: Settings, db: Database, **kwargs: Any) -> None:
        ids = settings.shard_ids
        super().__init__(
            settings,
            db,
            shard_count=settings.shard_count,
            shard_ids=list(ids) if ids is not None else None,
            **kwargs,
        )
