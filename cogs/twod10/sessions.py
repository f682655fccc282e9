"""/session and /stats for a 2d10 table: the evening's start and end (no points: the 2d10
system has none), its recap from the roll log, and any span's figures."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import aiosqlite
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.rules.twod10.recap_facts import facts_of
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.sessions import SessionAlreadyRunning, SessionRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.tables.permissions import require_gm
from cogs.recap_commands import (
    RECAP_RULINGS,
    RulesetRecap,
    answer_recap,
    answer_stats,
    post_recap,
    session_span,
    session_title,
)
from cogs.twod10.options import character_names

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
SessionNumber = commands.Range[int, 1, 100_000]
SESSION_RULINGS = [
    "A 2d10 session is the table's evening: the GM starts and ends it; the 2d10 system has"
    " no points, so nothing is handed out. Ending it posts its recap.",
    *RECAP_RULINGS,
]


async def players_of(conn: aiosqlite.Connection, guild_id: int) -> Mapping[int, str]:
    """The table's player characters: sheet id → name."""
    sheets = await TwoD10CharacterRepository(conn).list(guild_id)
    return {s.id: s.name for s in sheets if s.kind is TwoD10Kind.PC}


async def player_named(conn: aiosqlite.Connection, guild_id: int, name: str) -> str | None:
    sheet = await TwoD10CharacterRepository(conn).find(guild_id, name)
    return sheet.name if sheet is not None and sheet.kind is TwoD10Kind.PC else None


TWOD10_RECAP = RulesetRecap(
    ruleset="2d10", facts_of=facts_of, players_of=players_of, find_player=player_named
)


class TwoD10SessionCog(RulesetCog, name="2d10 sessions"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="session", invoke_without_command=True)
    @commands.guild_only()
    async def session(self, ctx: Ctx) -> None:
        """The table's evenings: start, end, status, recap."""
        raise UserError("Add a subcommand: /session start, end, status or recap.")

    @session.command(name="start", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    async def session_start(self, ctx: Ctx) -> None:
        """Start the evening's session (GM)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "start a session")
            sessions = SessionRepository(conn)
            running = await sessions.running(guild.id)
            if running is not None:
                raise SessionAlreadyRunning(running.number)
            started = await sessions.start(guild.id, started_by=ctx.author.id)
        log.info("2d10 session %s started in guild %s", started.number, guild.id)
        await send(ctx, f"Session {started.number} begins. /session end posts its recap.")

    @session.command(name="end", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    async def session_end(self, ctx: Ctx) -> None:
        """End the session and post its recap (GM)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:  # refused privately, before the defer
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "end a session")
            if await SessionRepository(conn).running(guild.id) is None:
                raise UserError("No session is running: start one with /session start.")
        if ctx.interaction is not None:
            await ctx.defer()  # a long evening's recap takes a moment
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "end a session")
            ended = await SessionRepository(conn).end(guild.id, ended_by=ctx.author.id)
            if ended is None:
                raise UserError("No session is running: start one with /session start.")
        log.info("2d10 session %s ended in guild %s", ended.number, guild.id)
        await post_recap(
            self.bot, ctx, session_title(ended), session_span(ended), TWOD10_RECAP, public=True
        )

    @session.command(name="status", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    async def session_status(self, ctx: Ctx) -> None:
        """The running session, or the last one."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            latest = await SessionRepository(conn).latest(guild.id)
        if latest is None:
            text = "No session has been played yet: the GM starts one with /session start."
        elif latest.running:
            text = f"Session {latest.number} is running (since {latest.started_at[:16]} UTC)."
        else:
            text = f"Session {latest.number} ended at {(latest.ended_at or '')[:16]} UTC."
        await send(ctx, text, ephemeral=True)

    @session.command(name="recap", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        session="Its number (default: the last ended one)",
        private="GM: secret rolls included, answered only to you",
    )
    async def session_recap(
        self,
        ctx: Ctx,
        session: SessionNumber = None,  # type: ignore[assignment]
        private: bool = False,
    ) -> None:
        """A session's recap: rolls, successes, damage, luck per character."""
        await answer_recap(self.bot, ctx, session, TWOD10_RECAP, private=private)

    @commands.hybrid_command(name="stats", extras={"rulings": RECAP_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        character="One player character (default: the whole table)",
        since="From this session on (default: the whole campaign)",
        private="GM: secret rolls included, answered only to you",
    )
    @app_commands.autocomplete(character=character_names)
    async def stats(
        self, ctx: Ctx, character: commands.Range[str, 1, 64] | None = None,
        since: SessionNumber = None,  # type: ignore[assignment]
        private: bool = False,
    ) -> None:  # fmt: skip
        """Rolls, successes, damage and luck by kind, for a character or the table."""
        await answer_stats(self.bot, ctx, character, since, TWOD10_RECAP, private=private)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(TwoD10SessionCog(bot))
