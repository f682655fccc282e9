"""/session recap of a 5,000-roll session, in both rulesets, beside the pong floor.

``PYTHONPATH=. python -m bench.recap [--rows N] [--runs R] [--smoke] [--profile]`` seeds a
temporary SQLite file with a HOCS and a 2d10 campaign, each with 4 player characters, 2
NPCs and one ended session of N logged rolls (``bench.recap_rows``), opens the bench's
real ``TableBot`` on it (``bench.world``) and sends ``/session recap`` through the slash
harness, as the GM, in each table's channel. It prints, all from the same run:

* the floor: ``/benchnoop`` one at a time (``bench.workload.run_ops``), its wall time
  and its CPU per command;
* the recap's wall time and CPU, each with its ratio to the floor's: the first recap
  after start-up (one run), R runs with every luck and chart cache emptied first
  (``bench.luck``'s and ``bench.luck_twod10``'s cold: colder than a restart, which keeps
  the reroll table its warm-up reads) and R warm runs (medians). "deferred" and
  "answered" are when the bot sent the defer and the recap message (the webhook
  requests, from the dispatch); "harness" is ``slash.run`` returning. CPU is
  ``time.process_time`` around ``slash.run``: every thread of the process (the event
  loop's, the worker thread turning rows into facts, SQLite's), the harness's own work
  (building the interaction, recording the reply; schema validation off) included,
  nothing subtracted; "loop" is the event loop thread's share (``time.thread_time``).
  Goals (issue 27): answered within 3 s, at most 300 ms of CPU, printed as met or not;
* where the CPU goes: the recap's steps run one by one outside the harness
  (``bench.recap_profile.stages``), which of them run on the event loop's thread;
* "never blocks other commands' replies": while one recap runs, a floor command is
  fired every 5 ms as a task of its own in the same loop (ticks missed while the loop
  was busy fire when it is free), and the time to its reply's webhook request, from its
  tick (when Discord would have delivered it) and from its dispatch, p50/p99/max,
  beside the same ticker run alone, and the ratio.

``--profile`` runs one cold recap per ruleset under cProfile (the event loop's thread
and, separately, the worker thread's ``_summed``) and prints where the time goes.
Nothing is asserted (ENGINEERING.md, "Speed is measured, not asserted").
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest

from bench import luck, luck_twod10, report
from bench.recap_profile import profile_lines, profiled, stages
from bench.recap_rows import Table, kinds_line, seed_tables
from bench.workload import build_floor, run_ops
from bench.world import World, build_world, schema_validation
from bot.render.chart_style import text_width
from cogs.hocs.odds_warm_up import start_odds_warm_up
from tests.support.slash import SlashResult

WALL_GOAL_MS = 3000.0
CPU_GOAL_MS = 300.0


def say(line: str = "") -> None:
    print(line, flush=True)


class Stamps:
    """When each interaction was dispatched (its token registered with the recording
    adapter) and when the bot sent each webhook request for it."""

    def __init__(self, world: World) -> None:
        adapter = world.slash.adapter
        self.registered: dict[str, int] = {}
        self.requests: dict[str, list[int]] = {}
        register, request = adapter.register, adapter.request

        def stamped_register(token: str, info: Any) -> None:
            self.registered[token] = time.perf_counter_ns()
            register(token, info)

        async def stamped_request(route: Any, session: Any = None, **kwargs: Any) -> Any:
            self.requests.setdefault(route.webhook_token, []).append(time.perf_counter_ns())
            return await request(route, session, **kwargs)

        adapter.register = stamped_register  # type: ignore[method-assign]
        adapter.request = stamped_request  # type: ignore[method-assign]

    def of(self, result: SlashResult) -> tuple[int, int]:
        """(first request, last request) after the dispatch, in ns."""
        token = result.interaction["token"]
        start, sent = self.registered[token], self.requests.get(token) or [0]
        return sent[0] - start, sent[-1] - start

    def clear(self) -> None:
        self.registered.clear()
        self.requests.clear()


@dataclass
class RecapRun:
    harness_ns: int
    deferred_ns: int
    answered_ns: int
    cpu_ns: int
    loop_cpu_ns: int
    head: str  # the recap's first line, to show what it counted


def _checked(result: SlashResult, name: str) -> SlashResult:
    if result.command_errors:
        raise RuntimeError(f"/{name} failed: {result.command_errors[0]!r}")
    if result.message is None or result.message.ephemeral:
        raise RuntimeError(f"/{name} answered nothing or a refusal: {result.responses}")
    return result


def recap_op(world: World, table: Table) -> Callable[[], Awaitable[SlashResult]]:
    place = next(p for p in world.places if p.seeded is table.guild)
    gm = place.member(table.guild.gm_id)
    return lambda: world.slash.run("session recap", user=gm, channel=place.table)


def empty_caches() -> None:
    """Every luck cache of both rulesets and the chart's measured words (``bench.luck``'s
    and ``bench.luck_twod10``'s cold)."""
    luck._cold()
    luck_twod10.clear_caches()
    text_width.cache_clear()


async def run_recap(
    world: World, stamps: Stamps, op: Callable[[], Awaitable[SlashResult]]
) -> RecapRun:
    with world.holding_followups():
        cpu, loop_cpu, before = (
            time.process_time_ns(),
            time.thread_time_ns(),
            time.perf_counter_ns(),
        )
        result = await op()
        harness = time.perf_counter_ns() - before
        cpu, loop_cpu = time.process_time_ns() - cpu, time.thread_time_ns() - loop_cpu
    await world.drain_followups()
    _checked(result, "session recap")
    deferred, answered = stamps.of(result)
    embeds = [e for e in result.embeds if e.get("description")]
    head = embeds[-1]["description"].split("\n")[0] if embeds else ""
    world.forget_responses()
    stamps.clear()
    return RecapRun(harness, deferred, answered, cpu, loop_cpu, head)


@dataclass
class Ticked:
    """Floor commands fired on a fixed period: ns from each one's tick (when Discord would
    have delivered it) and from its dispatch to its reply's webhook request."""

    from_tick_ns: list[int] = field(default_factory=list)
    from_dispatch_ns: list[int] = field(default_factory=list)


async def tick_floor(
    stamps: Stamps, ops: list[Callable[[], Awaitable[SlashResult]]], *, period_ns: int,
    while_running: asyncio.Task[Any] | None = None, count: int = 0,
) -> Ticked:  # fmt: skip
    """Fire a floor command every ``period_ns``, each a task of its own, while
    ``while_running`` runs (else ``count`` of them). Ticks that passed while the loop was
    busy fire at once when it is free, each timed from its own tick: a command arriving
    then waits in the socket, and timing it from its late dispatch would hide the wait."""
    ticked, tasks = Ticked(), []

    async def one(op: Callable[[], Awaitable[SlashResult]], tick: int) -> None:
        result = _checked(await op(), "benchnoop")
        dispatched, replied = stamps.registered[result.interaction["token"]], stamps.of(result)[0]
        ticked.from_dispatch_ns.append(replied)
        ticked.from_tick_ns.append(dispatched + replied - tick)

    def firing() -> bool:
        return not while_running.done() if while_running is not None else len(tasks) < count

    due = time.perf_counter_ns()
    while firing():
        while due <= time.perf_counter_ns() and firing():
            tasks.append(asyncio.create_task(one(ops[len(tasks) % len(ops)], due)))
            due += period_ns
        await asyncio.sleep(max(0, due - time.perf_counter_ns()) / 1e9)
    await asyncio.gather(*tasks)
    return ticked


def _ms(ns: float) -> float:
    return ns / 1e6


def _verdict(value_ms: float, goal_ms: float) -> str:
    return "met" if value_ms <= goal_ms else "not met"


def _pcts(values: list[int]) -> tuple[float, float, float]:
    return (_ms(report.percentile(values, 50)), _ms(report.percentile(values, 99)),
            _ms(max(values) if values else 0))  # fmt: skip


async def bench(args: argparse.Namespace, workdir: Path) -> None:
    mode = "smoke" if args.smoke else f"{args.rows:,} rows"
    say(f"/session recap benchmark ({mode}, {args.runs} runs); {report.environment()}")
    say(f"{report.load()} at start")
    started = time.perf_counter()
    seeded, tables = await seed_tables(workdir / "recap.sqlite3", args.rows, seed=args.seed)
    size = (workdir / "recap.sqlite3").stat().st_size / 2**20
    say(f"seeded 2 campaigns in {time.perf_counter() - started:.1f} s, file {size:.1f} MiB:")
    for table in tables:
        pcs = sum(w.pc for w in table.cast)
        say(f"  {table.label}: {pcs} PCs, {len(table.cast) - pcs} NPCs; session 1 of"
            f" {sum(table.kinds.values()):,} rows: {kinds_line(table)}")  # fmt: skip
    world = await build_world(seeded.path, seeded, seed=args.seed)
    start_odds_warm_up()  # as on_ready does; its thread ends before anything is timed
    for thread in threading.enumerate():
        if thread.name == "odds-warm-up":
            thread.join()
    try:
        with schema_validation(False):
            await measure(world, tables, args)
    finally:
        await world.close()


async def measure(world: World, tables: list[Table], args: argparse.Namespace) -> None:
    rng = random.Random(args.seed + 1)
    stamps = Stamps(world)
    floor_n, warmup = (20, 3) if args.smoke else (300, 10)
    cpu = time.process_time_ns()
    floor = await run_ops("pong floor", build_floor(world, rng, floor_n + warmup),
                          warmup=warmup, world=world)  # fmt: skip
    floor_cpu = (time.process_time_ns() - cpu) / (floor_n + warmup)
    stamps.clear()
    f50, f99, fmax = _pcts(floor.latencies_ns)
    floor_ms = f50
    say(f"pong floor (/benchnoop), one at a time: {floor.ops} ops, p50 {f50:.2f} ms,"
        f" p99 {f99:.2f}, max {fmax:.2f}; CPU {_ms(floor_cpu):.2f} ms a command"
        " (warm-up and follow-ups included)")  # fmt: skip
    profiles: list[tuple[str, cProfile.Profile]] = []
    say()
    head = (f"{'recap':<6} {'caches':<8} {'runs':>4} {'deferred':>9} {'answered':>9}"
            f" {'x floor':>8} {'harness':>8} {'CPU ms':>7} {'loop':>6} {'x floor':>8}"
            f"  {'3 s goal':<8} {'300 ms goal':<8}")  # fmt: skip
    say("/session recap (ms; medians; x floor: over the floor's p50 wall / its CPU a command)")
    say("  " + head)
    say("  " + "-" * len(head))
    heads = {}
    for table in tables:
        op = recap_op(world, table)
        first = [await run_recap(world, stamps, op)]
        heads[table.label] = first[0].head
        cold = []
        for _ in range(args.runs):
            empty_caches()
            cold.append(await run_recap(world, stamps, op))
        warm = [await run_recap(world, stamps, op) for _ in range(args.runs)]
        for label, runs in (("first", first), ("emptied", cold), ("warm", warm)):
            say("  " + _recap_line(table.label, label, runs, floor_ms, _ms(floor_cpu)))
        if args.profile:
            empty_caches()
            with profiled(f"{table.label} recap, caches emptied", profiles):
                await run_recap(world, stamps, op)
    for label, line in heads.items():
        say(f"  {label} recap says: {line}")
    say()
    say(
        "Where the CPU goes: the recap's steps one by one, caches emptied, outside the harness"
        f" (ms of CPU, each step's fastest of {args.runs}; loop: on the event loop's thread in"
        " the command, worker: in its thread)"
    )
    for table in tables:
        runs = [await stages(world, table, empty_caches) for _ in range(args.runs)]
        steps = [(step, min(run[i][1] for run in runs)) for i, (step, _) in enumerate(runs[0])]
        total = sum(ms for step, ms in steps if not step.startswith("("))
        say(f"  {table.label}: {total:.1f} ms in all")
        for step, ms in steps:
            say(f"    {step:<72} {ms:7.1f}")
    say()
    await concurrency(world, stamps, tables, rng, args)
    if profiles:
        say()
        for line in profile_lines(profiles, top=25):
            say(line)
    await dpytest.empty_queue()


def _recap_line(ruleset: str, label: str, runs: list[RecapRun], floor_ms: float,
                floor_cpu_ms: float) -> str:  # fmt: skip
    def med(get: Callable[[RecapRun], int]) -> float:
        return _ms(statistics.median(get(r) for r in runs))

    answered, cpu = med(lambda r: r.answered_ns), med(lambda r: r.cpu_ns)
    return (
        f"{ruleset:<6} {label:<8} {len(runs):>4} {med(lambda r: r.deferred_ns):>9.1f}"
        f" {answered:>9.1f} {answered / floor_ms:>7.0f}x {med(lambda r: r.harness_ns):>8.1f}"
        f" {cpu:>7.1f} {med(lambda r: r.loop_cpu_ns):>6.1f} {cpu / floor_cpu_ms:>7.0f}x"
        f"  {_verdict(answered, WALL_GOAL_MS):<8} {_verdict(cpu, CPU_GOAL_MS):<8}"
    )


async def concurrency(
    world: World, stamps: Stamps, tables: list[Table], rng: Any, args: argparse.Namespace
) -> None:
    period_ns = int(args.period_ms * 1e6)
    ops = build_floor(world, rng, 50)
    head = (f"{'floor':<26} {'fired':>6} {'from tick p50':>13} {'p99':>7} {'max':>7}"
            f" {'from dispatch p50':>17} {'p99':>7} {'max':>7}")  # fmt: skip
    say(f"Replies of the floor fired every {args.period_ms:g} ms (tasks of their own), alone and"
        " while one recap (caches emptied) runs: ms to its reply from its tick and from its"
        " dispatch")  # fmt: skip
    say("  " + head)
    say("  " + "-" * len(head))
    for table in tables:
        empty_caches()
        with world.holding_followups():
            recap = asyncio.create_task(recap_op(world, table)())
            during = await tick_floor(stamps, ops, period_ns=period_ns, while_running=recap)
            _checked(await recap, "session recap")
        await world.drain_followups()
        world.forget_responses()
        stamps.clear()
        with world.holding_followups():
            count = max(len(during.from_tick_ns), 20 if args.smoke else 100)
            alone = await tick_floor(stamps, ops, period_ns=period_ns, count=count)
        await world.drain_followups()
        world.forget_responses()
        stamps.clear()
        for label, got in (("alone", alone), (f"during the {table.label} recap", during)):
            t, d = _pcts(got.from_tick_ns), _pcts(got.from_dispatch_ns)
            say(f"  {label:<26} {len(got.from_tick_ns):>6} {t[0]:>13.2f} {t[1]:>7.2f} {t[2]:>7.2f}"
                f" {d[0]:>17.2f} {d[1]:>7.2f} {d[2]:>7.2f}")  # fmt: skip
        ta, td = _pcts(alone.from_tick_ns), _pcts(during.from_tick_ns)
        ratios = " / ".join(f"{d / a:.1f}x" if a else "-" for d, a in zip(td, ta, strict=True))
        say(f"  {'':<26} from tick p50 / p99 / max, during the recap over alone: {ratios}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.recap", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--rows", type=int, default=5000, help="logged rolls per session (≤ 5,000)")
    parser.add_argument("--runs", type=int, default=3, help="timed recaps per cache state")
    parser.add_argument("--smoke", action="store_true", help="200 rows, 1 run (the smoke test)")
    parser.add_argument("--profile", action="store_true", help="cProfile one cold recap each")
    parser.add_argument("--period-ms", type=float, default=5.0, help="the floor's ticker")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rows, args.runs = 200, 1
    args.rows = min(args.rows, luck_twod10.ROWS)  # (the 2d10 generator's length)
    with tempfile.TemporaryDirectory(prefix="tablebot-recap-") as workdir:
        asyncio.run(bench(args, Path(workdir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
