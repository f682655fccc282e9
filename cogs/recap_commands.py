"""The recap and /stats for either ruleset: the log's rows of a span, read as facts by the
ruleset's ``facts_of``, summed (``bot.rules.generic.recap``), rendered once.

Reading the rows is the database's; decoding 5,000 of them, turning them into facts and
luck, and drawing the chart are CPU, so they run in a worker thread, leaving the event
loop to answer other commands meanwhile (bench/recap.py measures both).

Rulings (docs/recap.md, /help):

* ``/session recap`` without a number is the last ended session (the running one once
  none has ended); a session's rolls are the server's roll-log rows logged while it ran;
* the public recap counts secret rolls without describing them; ``private:True`` (the
  GM, ephemeral) includes them; a fight counts in the span it ended in;
* ``/stats since:N`` covers sessions N to now (the rolls logged since session N
  started, between sessions too); without it, the whole campaign.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiosqlite
import discord
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.render.recap import recap_embed, stats_embed
from bot.render.recap_chart import render_luck_chart
from bot.rules.generic.recap import LoggedRow, Recap, RollFacts, recap
from bot.storage.campaigns import CampaignRepository
from bot.storage.fights import fights_between
from bot.storage.roll_log import RollLogRepository, decode_row
from bot.storage.sessions import GameSession, SessionRepository
from bot.tables.permissions import require_gm

Ctx = commands.Context[TableBot]

FactsOf = Callable[[LoggedRow, Mapping[int, str]], RollFacts]
# (character id, kind, n) of points gained in the server from ``since`` to ``until``.
GainsOf = Callable[
    [aiosqlite.Connection, int, str, str | None], Awaitable[list[tuple[int, str, int]]]
]
RECAP_RULINGS = [
    "A recap counts every roll the server logged while the session ran: rolls, successes"
    " and failures, the ruleset's crits, damage dealt and taken, downs and dying, per"
    " player character and for the party (NPCs' rolls are counted apart); fights count in"
    " the span they ended in.",
    "Luck is a roll's percentile from the exact odds, P(a worse result) + half P(its own),"
    " under what was rolled; a character's luck is their rolls' mean (50 % is average),"
    " with a two-sided test at 5 % (within chance, luckier or unluckier than chance; under"
    " 10 rolls, too few to tell). Rolls the bot can't score exactly are counted, not scored.",
    "Secret rolls are counted but never described in public: the GM's private:True shows"
    " them. /stats since:N covers session N to now; without it, the whole campaign.",
]
MAX_ROWS = 1_000_000  # a whole campaign's log is read at most this far
EPOCH = "0000"  # before any timestamp the log stores


@dataclass(frozen=True, kw_only=True)
class Span:
    """Which rows: log ids from ``first_id`` (to ``last_id``), or, for sessions stored
    before their bounds were kept, the timestamps."""

    first_id: int = 1
    last_id: int | None = None
    since: str = EPOCH
    until: str | None = None
    timed: bool = False  # read by timestamps, not ids


def session_span(session: GameSession) -> Span:
    if session.first_log_id is None:  # stored before migration 0019
        return Span(since=session.started_at, until=session.ended_at, timed=True)
    return Span(
        first_id=session.first_log_id, last_id=session.last_log_id,
        since=session.started_at, until=session.ended_at,
    )  # fmt: skip


async def rows_of(conn: aiosqlite.Connection, guild_id: int, span: Span) -> list[Any]:
    """The span's rows undecoded (``decode_row`` turns each into a ``LoggedRoll``)."""
    repo = RollLogRepository(conn)
    if span.timed:
        return await repo.between_rows(guild_id, since=span.since, until=span.until, limit=MAX_ROWS)
    return await repo.between_rows(
        guild_id, first_id=span.first_id, last_id=span.last_id, limit=MAX_ROWS
    )


def _summed(
    raw: list[Any], facts_of: FactsOf, players: Mapping[int, str], *, public: bool,
    fights: tuple[int, int], only: str | None, gains: list[tuple[str, str, int]],
) -> tuple[Recap, list[RollFacts]]:  # fmt: skip
    facts = [facts_of(decode_row(row), players) for row in raw]
    if only is not None:  # one character's figures (/stats character:)
        facts = [f for f in facts if only in (f.roller, f.target) or _owns_luck(f, only)]
    names = frozenset(players.values()) if only is None else frozenset({only})
    if only is not None:
        gains = [g for g in gains if g[0] == only]
    result = recap(
        facts, public=public, fights=fights[0], rounds=fights[1], players=names, gains=gains
    )
    return result, facts


def _owns_luck(facts: RollFacts, name: str) -> bool:
    return any(x.owner == name for x in facts.luck)


async def build(
    conn: aiosqlite.Connection, guild_id: int, span: Span, *, facts_of: FactsOf,
    players: Mapping[int, str], public: bool, only: str | None = None,
    gains_of: GainsOf | None = None,
) -> tuple[Recap, list[RollFacts]]:  # fmt: skip
    """The span's recap (and its facts, for the chart and the per-kind breakdown)."""
    rows = await rows_of(conn, guild_id, span)
    fights = await fights_between(conn, guild_id, span.since, span.until)
    gains: list[tuple[str, str, int]] = []
    if gains_of is not None:  # points gained (HOCS), by the players' names
        found = await gains_of(conn, guild_id, span.since, span.until)
        gains = [(players[c], kind, n) for c, kind, n in found if c in players]
    return await asyncio.to_thread(
        _summed, rows, facts_of, players, public=public, fights=fights, only=only,
        gains=gains,
    )  # fmt: skip


def luck_series(
    facts: list[RollFacts], names: list[str], *, public: bool
) -> list[tuple[str, list[float]]]:
    """Each character's scored luck in the order rolled, for the recap chart."""
    series: dict[str, list[float]] = {name: [] for name in names}
    for f in facts:
        if public and f.secret:
            continue
        for x in f.luck:
            if x.owner in series and x.variance:
                series[x.owner].append(float(x.percentile))
    return [(name, values) for name, values in series.items() if values]


def chart_file(facts: list[RollFacts], names: list[str], *, public: bool) -> discord.File | None:
    series = luck_series(facts, names, public=public)
    if not series:
        return None
    return discord.File(io.BytesIO(render_luck_chart(series)), filename="luck.png")


async def pick_session(
    conn: aiosqlite.Connection, guild_id: int, number: int | None
) -> GameSession:
    """Session ``number``, or the last ended one (else the running one); UserError."""
    sessions = SessionRepository(conn)
    if number is not None:
        found = await sessions.numbered(guild_id, number)
        if found is None:
            raise UserError(f"There is no session {number}: /session status shows the latest.")
        return found
    found = await sessions.latest_ended(guild_id) or await sessions.running(guild_id)
    if found is None:
        raise UserError("No session has been played yet: start one with /session start.")
    return found


async def stats_span(
    conn: aiosqlite.Connection, guild_id: int, since: int | None
) -> tuple[Span, str]:
    """The span /stats covers and its words; UserError for a session that doesn't exist."""
    if since is None:
        return Span(), "the whole campaign"
    session = await pick_session(conn, guild_id, since)
    if session.first_log_id is None:
        return Span(since=session.started_at, timed=True), f"since session {since}"
    return Span(first_id=session.first_log_id, since=session.started_at), (f"since session {since}")


def session_title(session: GameSession) -> str:
    state = "so far" if session.running else "recap"
    return f"Session {session.number} {state}"


def embed_for(
    title: str, result: Recap, *, ruleset: str, guild_id: int, chart: bool
) -> discord.Embed:
    embed = recap_embed(title, result, ruleset=ruleset, guild_id=guild_id)
    if chart:
        embed.set_image(url="attachment://luck.png")
    return embed


PlayersOf = Callable[[aiosqlite.Connection, int], Awaitable[Mapping[int, str]]]

FindPlayer = Callable[[aiosqlite.Connection, int, str], Awaitable[str | None]]


@dataclass(frozen=True, kw_only=True)
class RulesetRecap:
    """What a ruleset's cog brings to the shared recap and /stats flows."""

    ruleset: str  # "hocs" or "2d10": the dice words of the figures
    facts_of: FactsOf
    players_of: PlayersOf  # player characters: id → name
    find_player: FindPlayer  # a player character's name by what was typed, or None
    gains_of: GainsOf | None = None  # points gained (HOCS); None: the ruleset has none


async def post_recap(
    bot: TableBot, ctx: Ctx, title: str, span: Span, how: RulesetRecap, *, public: bool,
    before: discord.Embed | None = None,
) -> None:  # fmt: skip
    """Send the span's recap (with the luck chart when any roll was scored), after
    ``before`` in the same message (the session's end)."""
    guild = guild_of(ctx)
    async with bot.db.read() as conn:
        players = await how.players_of(conn, guild.id)
        result, facts = await build(
            conn, guild.id, span, facts_of=how.facts_of, players=players, public=public,
            gains_of=how.gains_of,
        )  # fmt: skip
    names = [n for n, _ in result.characters]
    # Drawn in a worker thread too: tens of ms of CPU the loop keeps for other replies.
    chart = await asyncio.to_thread(chart_file, facts, names, public=public)
    embed = embed_for(title, result, ruleset=how.ruleset, guild_id=guild.id, chart=bool(chart))
    embeds = [before, embed] if before is not None else [embed]
    await send(ctx, embeds=embeds, file=chart, ephemeral=not public)


async def answer_recap(
    bot: TableBot, ctx: Ctx, number: int | None, how: RulesetRecap, *, private: bool
) -> None:
    """/session recap: session ``number`` (or the last), public or the GM's private one."""
    guild = guild_of(ctx)
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        if private:
            require_gm(ctx.author, campaign, "see the private recap")
        found = await pick_session(conn, guild.id, number)
    if ctx.interaction is not None:
        await ctx.defer(ephemeral=private)
    await post_recap(bot, ctx, session_title(found), session_span(found), how, public=not private)


async def answer_stats(
    bot: TableBot, ctx: Ctx, character: str | None, since: int | None, how: RulesetRecap,
    *, private: bool,
) -> None:  # fmt: skip
    """/stats: one player character's figures or the table's, by kind, over a span."""
    guild = guild_of(ctx)
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        if private:
            require_gm(ctx.author, campaign, "see private stats")
        only = None
        if character is not None:
            only = await how.find_player(conn, guild.id, character)
            if only is None:
                raise UserError(
                    "Name a player character of this table (the autocomplete lists them)."
                )
        span, label = await stats_span(conn, guild.id, since)
    if ctx.interaction is not None:
        await ctx.defer(ephemeral=True)
    async with bot.db.read() as conn:
        players = await how.players_of(conn, guild.id)
        result, facts = await build(
            conn, guild.id, span, facts_of=how.facts_of, players=players,
            public=not private, only=only, gains_of=how.gains_of,
        )  # fmt: skip
    title = f"Stats: {only or 'the table'}, {label}"
    embed = stats_embed(
        title, result, facts, ruleset=how.ruleset, guild_id=guild.id, public=not private
    )
    await send(ctx, embed=embed, ephemeral=True)
