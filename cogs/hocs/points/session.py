"""/session start, end and status: hero points at the beginning and end of each session."""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.points import session_ended_embed, session_started_embed, session_status_embed
from bot.rules.hocs.meta_currencies import hero_points_at_session_end, plan_session_start
from bot.rulesets import Ruleset
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.sessions import SessionAlreadyRunning, SessionRepository, previous_of
from bot.tables.character_access import safe_name
from bot.tables.permissions import require_gm
from cogs.hocs.points.common import Ctx, campaign_for
from cogs.hocs.points.recap import HOCS_RECAP
from cogs.recap_commands import (
    RECAP_RULINGS,
    answer_recap,
    post_recap,
    session_span,
    session_title,
)

log = logging.getLogger(__name__)

SESSION_RULINGS = [
    "Every player character's hero points become 1 when a session starts: unspent ones"
    " from the last session are gone. Only player characters have hero points.",
    "A session must be ended (/session end) before the next starts; ending one drops the"
    " unspent hero points.",
    "One-shot mode (/campaign set one_shot:True): one hero point for the whole adventure,"
    " given at its first /session start only; /session start new_adventure:True begins a"
    " new adventure (and gives its point). Ending a session then keeps the points.",
    "Switching one-shot mode on makes the next session start an adventure.",
    "Ending a session posts its recap (/session recap shows it again).",
]


class SessionCog(RulesetCog, name="Sessions"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="session", invoke_without_command=True)
    @commands.guild_only()
    async def session(self, ctx: Ctx) -> None:
        """Game sessions: start (hero points for everyone), end, status."""
        raise UserError(
            "Add a subcommand: /session start, /session end, /session status or /session recap."
        )

    @session.command(name="start", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        new_adventure="One-shot mode: a new adventure begins, with its own hero point"
    )
    async def session_start(self, ctx: Ctx, new_adventure: bool = False) -> None:
        """Start a session (GM)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            require_gm(ctx.author, campaign, "start a session")
            sessions = SessionRepository(conn)
            latest = await sessions.latest(guild.id)
            if latest is not None and latest.running:
                raise SessionAlreadyRunning(latest.number)
            one_shot = campaign.settings.one_shot
            plan = plan_session_start(
                previous_of(latest) if latest else None,
                one_shot=one_shot,
                new_adventure=new_adventure,
            )
            started = await sessions.start_planned(
                guild.id, plan, one_shot=one_shot, started_by=ctx.author.id
            )
            characters = CharacterRepository(conn)
            if plan.hero_points is not None:
                names = [n for _, n in await characters.set_hero_points_of_pcs(guild.id, 1)]
            else:
                names = [
                    c.name for c in await characters.list(guild.id) if c.kind is CharacterKind.PC
                ]
        log.info("session %s started in guild %s", started.number, guild.id)
        embed = session_started_embed(
            number=started.number,
            adventure=started.adventure,
            one_shot=one_shot,
            new_adventure=plan.new_adventure,
            hero_points=plan.hero_points,
            names=[safe_name(n) for n in names],
        )
        await send(ctx, embed=embed)

    @session.command(name="end", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    async def session_end(self, ctx: Ctx) -> None:
        """End the session and post its recap (GM)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:  # refused privately, before the defer
            require_gm(ctx.author, await campaign_for(conn, ctx), "end a session")
            if await SessionRepository(conn).running(guild.id) is None:
                raise UserError("No session is running: start one with /session start.")
        if ctx.interaction is not None:
            await ctx.defer()  # a long evening's recap takes a moment
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            require_gm(ctx.author, campaign, "end a session")
            ended = await SessionRepository(conn).end(guild.id, ended_by=ctx.author.id)
            if ended is None:
                raise UserError("No session is running: start one with /session start.")
            left = hero_points_at_session_end(one_shot=ended.one_shot)
            names: list[str] = []
            if left is not None:
                pcs = await CharacterRepository(conn).set_hero_points_of_pcs(guild.id, left)
                names = [n for _, n in pcs]
        log.info("session %s ended in guild %s", ended.number, guild.id)
        embed = session_ended_embed(
            number=ended.number, dropped=left is not None, names=[safe_name(n) for n in names]
        )
        # The evening's recap in the same message, below the points.
        await post_recap(
            self.bot, ctx, session_title(ended), session_span(ended), HOCS_RECAP, public=True,
            before=embed,
        )  # fmt: skip

    @session.command(name="recap", extras={"rulings": RECAP_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        session="Its number (default: the last ended one)",
        private="GM: secret rolls included, answered only to you",
    )
    async def session_recap(
        self, ctx: Ctx, session: commands.Range[int, 1, 100_000] = None,  # type: ignore[assignment]
        private: bool = False,
    ) -> None:  # fmt: skip
        """A session's recap: rolls, successes, damage, luck per character."""
        await answer_recap(self.bot, ctx, session, HOCS_RECAP, private=private)

    @session.command(name="status", extras={"rulings": SESSION_RULINGS})
    @commands.guild_only()
    async def session_status(self, ctx: Ctx) -> None:
        """Session and points."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            latest = await SessionRepository(conn).latest(guild.id)
            pcs = [
                c
                for c in await CharacterRepository(conn).list(guild.id)
                if c.kind is CharacterKind.PC
            ]
        rows = [
            (
                safe_name(c.name),
                c.state.hero_points,
                c.state.determination,
                c.effective.determination_max,
                [safe_name(s) for s in c.fortune_sources],
            )
            for c in pcs
        ]
        embed = session_status_embed(
            number=latest.number if latest else None,
            running=bool(latest and latest.running),
            started_at=latest.started_at if latest else None,
            adventure=latest.adventure if latest else None,
            one_shot=campaign.settings.one_shot,
            rows=rows,
        )
        await send(ctx, embed=embed, ephemeral=True)
