"""Where a recap's time goes (``bench.recap``): its stages one by one, and cProfile.

``stages`` runs what ``cogs.recap_commands.post_recap`` runs, step by step on this
thread with every cache emptied first, outside the harness, and times each with
``time.process_time``: which steps run on the event loop's thread in the command (reading
and decoding the rows, the chart, the embed) and which in its worker thread (facts and
sums). ``profiled`` wraps a recap through the harness in cProfile: one profile for the
event loop's thread, one for the worker thread's ``_summed`` (cProfile sees one thread).
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import json
import pstats
import time
from collections.abc import Callable, Iterator
from typing import Any

import cogs.recap_commands as recap_commands
from bench.recap_rows import Table
from bench.world import World
from bot.rules.generic.recap import recap
from bot.rulesets import Ruleset
from bot.storage.fights import fights_between
from bot.storage.roll_log import decode_row
from cogs.hocs.points.recap import HOCS_RECAP
from cogs.recap_commands import chart_file, embed_for, pick_session, rows_of, session_span
from cogs.twod10.sessions import TWOD10_RECAP


def _cpu_ms(since: int) -> float:
    return (time.process_time_ns() - since) / 1e6


async def stages(world: World, table: Table, empty: Callable[[], None]) -> list[tuple[str, float]]:
    """(step, CPU ms) of one recap of ``table``'s session, caches emptied first."""
    how = HOCS_RECAP if table.ruleset is Ruleset.HOCS else TWOD10_RECAP
    guild_id = table.guild.guild_id
    async with world.bot.db.read() as conn:
        span = session_span(await pick_session(conn, guild_id, None))
        async with conn.execute(
            "SELECT result FROM roll_log WHERE guild_id = ? AND id >= ? AND id <= ?",
            (guild_id, span.first_id, span.last_id),
        ) as cursor:
            texts = [row[0] for row in await cursor.fetchall()]
    empty()
    steps: list[tuple[str, float]] = []
    began = time.process_time_ns()
    for text in texts:
        json.loads(text)
    steps.append((f"(beside it: json.loads alone of the {sum(map(len, texts)) / 2**20:.1f} MiB of"
                  " results, nothing kept)", _cpu_ms(began)))  # fmt: skip
    async with world.bot.db.read() as conn:
        began = time.process_time_ns()
        players = await how.players_of(conn, guild_id)
        steps.insert(0, ("loop: the player characters", _cpu_ms(began)))
        began = time.process_time_ns()
        raw = await rows_of(conn, guild_id, span)
        steps.insert(1, ("loop: the rows read (SELECT)", _cpu_ms(began)))
        began = time.process_time_ns()
        fights = await fights_between(conn, guild_id, span.since, span.until)
        steps.append(("loop: the fights", _cpu_ms(began)))
    began = time.process_time_ns()
    rows = [decode_row(row) for row in raw]
    steps.append(("worker: the rows decoded (json.loads, LoggedRoll)", _cpu_ms(began)))
    began = time.process_time_ns()
    facts = [how.facts_of(row, players) for row in rows]
    steps.append(("worker: facts_of every row (luck scored)", _cpu_ms(began)))
    began = time.process_time_ns()
    result = recap(facts, public=True, fights=fights[0], rounds=fights[1],
                   players=frozenset(players.values()))  # fmt: skip
    steps.append(("worker: recap() sums", _cpu_ms(began)))
    began = time.process_time_ns()
    chart = chart_file(facts, [n for n, _ in result.characters], public=True)
    steps.append(("worker: luck chart (series, render, PNG)", _cpu_ms(began)))
    began = time.process_time_ns()
    embed_for("Session 1 recap", result, ruleset=how.ruleset, guild_id=guild_id, chart=bool(chart))
    steps.append(("loop: embed", _cpu_ms(began)))
    return steps


@contextlib.contextmanager
def profiled(label: str, sink: list[tuple[str, cProfile.Profile]]) -> Iterator[None]:
    """cProfile the event loop's thread, and the worker thread's ``_summed`` apart."""
    loop_profile, worker_profile = cProfile.Profile(), cProfile.Profile()
    summed = recap_commands._summed

    def in_worker(*args: Any, **kwargs: Any) -> Any:
        worker_profile.enable()
        try:
            return summed(*args, **kwargs)
        finally:
            worker_profile.disable()

    recap_commands._summed = in_worker  # type: ignore[assignment]
    loop_profile.enable()
    try:
        yield
    finally:
        loop_profile.disable()
        recap_commands._summed = summed  # type: ignore[assignment]
        sink += [(f"{label}, event loop thread", loop_profile),
                 (f"{label}, worker thread (_summed)", worker_profile)]  # fmt: skip


def profile_lines(profiles: list[tuple[str, cProfile.Profile]], top: int) -> Iterator[str]:
    for label, profile in profiles:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).strip_dirs().sort_stats("tottime")
        stats.print_stats(top)
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        start = next((i for i, line in enumerate(lines) if "function calls" in line), 0)
        yield f"cProfile, {label} (by own time; the loop's 'poll' is waiting for the worker):"
        yield from ("  " + line for line in lines[start:])
