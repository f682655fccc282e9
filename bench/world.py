"""The bot on the seeded file, in a fake Discord that mirrors the seeded guilds.

The wiring is the test suite's (``tests/conftest.py``): a real ``TableBot`` with every
cog, dpytest's fake state and the project's slash harness. Instead of dpytest's one
test guild, every seeded guild is built with the seeded ids: a table channel, a
combat channel where an encounter runs, the GM role, the GM and the players.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
import discord.ext.test.backend as dpytest_backend
from discord.ext import commands

from bench.seed import SeededGuild, SeededWorld
from bot.client import TableBot
from bot.config import Settings
from bot.delivery.replies import send
from bot.interactions.command_sync import SyncMode
from bot.rules.dice_source import RandomDice
from bot.storage.backend import backend_of, open_database
from tests.support import discord_schema
from tests.support.dpytest_fixes import patch_dpytest, report_only_unexpected_errors
from tests.support.slash import SlashHarness

FLOOR_COMMAND = "benchnoop"


class FloorCog(commands.Cog, name="Bench floor"):
    """One command that does nothing but answer: the harness + discord.py floor."""

    @commands.hybrid_command(name=FLOOR_COMMAND)
    async def benchnoop(self, ctx: commands.Context[TableBot]) -> None:
        """Answer at once (benchmark only)."""
        await send(ctx, "ok")


@dataclass
class Place:
    """A seeded guild as discord.py objects."""

    seeded: SeededGuild
    guild: discord.Guild
    table: discord.TextChannel
    combat: discord.TextChannel | None

    def member(self, user_id: int) -> discord.Member:
        member = self.guild.get_member(user_id)
        assert member is not None, user_id
        return member


# aiosqlite hands these sqlite3 callables to its worker with the SQL as first argument.
_ONE_STATEMENT = frozenset({"execute", "_execute_fetchall", "_execute_insert", "executescript"})


class RoundTrips:
    """Counts the round trips to aiosqlite's worker thread (``LoopConnection``
    counts them: statements that may wait go there, the others run on the loop's
    thread) and the SQL statements sent either way (``executemany`` once per row).

    A round trip costs two thread switches, far more than a statement; a
    regression shows as a count, not only as noise. Statements a trigger or a
    foreign-key action runs are part of the statement that fired them.
    """

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        # A plain aiosqlite connection (an older bot) sends every call to the worker.
        self._counts_itself = hasattr(connection, "worker_calls")
        self._worker_calls = 0
        self._statements = 0
        self.log: list[str] | None = None  # the statements' text, while a list
        original = connection._execute

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            name = getattr(fn, "__name__", "")
            if name in _ONE_STATEMENT or name == "executemany":
                rows = args[1] if name == "executemany" and len(args) > 1 else None
                times = len(rows) if isinstance(rows, Sized) else 1
                self._statements += times
                if self.log is not None and args:
                    text = " ".join(str(args[0]).split())[:150]
                    self.log.append(text if times == 1 else f"{text}  [x{times} rows]")
            elif self.log is not None:
                self.log.append(f"  (a call without a statement: {name})")
            if not self._counts_itself:
                self._worker_calls += 1
            worker = self.count
            try:
                return await original(fn, *args, **kwargs)
            finally:
                if self.log is not None and self.count != worker:
                    self.log[-1] += "  [worker round trip]"

        connection._execute = counted

    @property
    def statements(self) -> int:
        """Statements so far, with those ``LoopConnection`` runs itself: busy-timeout
        switches when a call runs on the other thread from the last one, and the
        campaign cache's ``PRAGMA data_version`` checks."""
        return (
            self._statements
            + int(getattr(self._connection, "pragma_statements", 0))
            + int(getattr(self._connection, "version_checks", 0))
        )

    @property
    def count(self) -> int:
        """Round trips to the worker so far."""
        if self._counts_itself:
            return int(self._connection.worker_calls)
        return self._worker_calls


@dataclass
class World:
    bot: TableBot
    slash: SlashHarness
    places: list[Place]
    round_trips: RoundTrips

    async def close(self) -> None:
        await dpytest.empty_queue()
        # dpytest never opened a gateway, so Client.close() would fail; close the file.
        await self.bot.db.close()

    def holding_followups(self) -> contextlib.AbstractContextManager[object]:
        """Hold ``bot.delivery.followups`` back until the harness has seen the interaction end
        (the tree holds them only until the command returns, a step earlier)."""
        followups = getattr(self.bot, "followups", None)  # (absent from an older bot)
        return followups.busy() if followups is not None else contextlib.nullcontext()

    async def drain_followups(self) -> int | None:
        """Run what the last command left for after its reply (``bot.delivery.followups``);
        how long it took in nanoseconds, or None when it left nothing."""
        followups = getattr(self.bot, "followups", None)  # (absent from an older bot)
        if followups is None or not followups.pending:
            return None
        before = time.perf_counter_ns()
        await followups.drain()
        return time.perf_counter_ns() - before

    def forget_responses(self) -> None:
        """Drop what the harness recorded so far (it keeps every response for tests)."""
        adapter, recorder = self.slash.adapter, self.slash.channel_recorder
        adapter.records.clear()
        adapter.messages.clear()
        adapter.owners.clear()
        adapter.tokens.clear()
        recorder.sends.clear()


def _intents() -> discord.Intents:
    # As in the tests: dpytest caches members only when the intents allow it.
    intents = discord.Intents.default()
    intents.members = True
    intents.message_content = True
    return intents


def _build_guild(seeded: SeededGuild, bot_user: discord.ClientUser) -> Place:
    guild = dpytest_backend.make_guild(f"Campaign {seeded.index}", id_num=seeded.guild_id)
    table = dpytest_backend.make_text_channel("table", guild, id_num=seeded.table_channel_id)
    combat = None
    if seeded.combat_channel_id is not None:
        combat = dpytest_backend.make_text_channel("combat", guild, id_num=seeded.combat_channel_id)
    gm_role = dpytest_backend.make_role(
        "GM", guild, id_num=seeded.gm_role_id, permissions=discord.Permissions.none().value
    )
    for number, user_id in enumerate(seeded.user_ids):
        name = "gm" if number == 0 else f"player{number}"
        user = dpytest_backend.make_user(
            f"{name}-{seeded.index}", f"{number + 1:04}", id_num=user_id
        )
        dpytest_backend.make_member(user, guild, roles=[gm_role] if number == 0 else None)
    dpytest_backend.make_member(bot_user, guild)
    return Place(seeded=seeded, guild=guild, table=table, combat=combat)


async def build_world(path: Path | str, seeded: SeededWorld, *, seed: int) -> World:
    patch_dpytest()
    postgres = backend_of(str(path)) == "postgresql"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=None,
        database_path=Path("unused.sqlite3") if postgres else path,
        database_url=str(path) if postgres else None,
        command_prefix="!",
        message_content_intent=True,
    )
    db = await open_database(str(path))
    try:
        return await _wire(db, settings, seeded, seed=seed)
    except BaseException:
        await db.close()  # else aiosqlite's worker thread keeps the process alive
        raise


async def _wire(db: Any, settings: Settings, seeded: SeededWorld, *, seed: int) -> World:
    await db.migrate()  # already at the newest version: only checks it
    bot = TableBot(
        settings,
        db,
        dice=RandomDice(random.Random(seed)),
        sync_mode=SyncMode.SKIP,
        intents=_intents(),
    )
    await bot._async_setup_hook()
    await bot.load_cogs()
    await bot.add_cog(FloorCog())
    dpytest.configure(bot, guilds=0, text_channels=0, voice_channels=0, members=0)
    report_only_unexpected_errors(bot)
    state = dpytest_backend.get_state()
    state.stop_dispatch()  # no on_guild_join/on_member_join events while building
    try:
        assert bot.user is not None
        places = [_build_guild(guild, bot.user) for guild in seeded.guilds]
    finally:
        state.start_dispatch()
    # As at a real start-up, where each guild's GUILD_CREATE (on_guild_available, with
    # command sync on) puts its ruleset's commands in the tree before its first
    # command: else the first command of each of the 1,000 guilds pays for that.
    command_sets = getattr(bot, "command_sets", None)  # (absent from an older bot)
    if command_sets is not None:
        for place in places:
            await command_sets.ensure_guild(place.guild.id)
    start = getattr(bot, "start_background", None)  # (absent from an older bot)
    if start is not None:
        start()  # as setup_hook and on_ready do once the bot is connected
    if db.backend == "postgresql":
        from bench.pg import PgRoundTrips

        round_trips: Any = PgRoundTrips(db)
    else:
        round_trips = RoundTrips(db.connection)
    slash = SlashHarness(bot)
    # Time the reply; the work left for after it is drained by ``World.drain_followups``.
    slash.drain_followups = False
    return World(bot=bot, slash=slash, places=places, round_trips=round_trips)


@contextlib.contextmanager
def schema_validation(enabled: bool) -> Iterator[None]:
    """Switch the harness's Discord schema checks off (they are test-only work).

    The harness calls ``discord_schema.validate_*`` through the module, so replacing
    the module's functions for the duration turns the checks into no-ops.
    """
    names = ("validate_interaction_callback", "validate_webhook_message")
    saved = {name: getattr(discord_schema, name) for name in names}
    if not enabled:
        for name in names:
            setattr(discord_schema, name, lambda *args, **kwargs: None)
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(discord_schema, name, function)
