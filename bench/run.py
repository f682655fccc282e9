"""Benchmark the command path without the network; prints figures, asserts nothing.

    python -m bench.run            # 1,000 guilds, 5,000 characters, 200 encounters
    python -m bench.run --quick    # same database, a tenth of the operations
    python -m bench.run --smoke    # 2 guilds, 5 operations each (the smoke test)

See bench/README.md for what each figure includes and what the ratios mean.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import discord.ext.test as dpytest

from bench import report
from bench.baselines import dice_ceiling, machine_spread, storage_ceiling
from bench.machine import spread_line
from bench.seed import Scale, seed
from bench.workload import (
    FAMILIES,
    LIGHT,
    RUN_ORDER,
    Sample,
    build_check,
    build_floor,
    build_roll,
    count_rows,
    grant_hero_points,
    run_alternating,
    run_ops,
)
from bench.world import FLOOR_COMMAND, World, build_world, schema_validation

HERO_POINTS_GRANTED = 10


@dataclass(frozen=True)
class Profile:
    name: str
    scale: Scale
    ops: dict[str, int]
    storage_ops: int
    dice_ops: int
    overhead_ops: int
    warmup: int


FULL_OPS = {"roll": 2000, "pool": 500, "check": 1000, "clash": 500, "attack": 500,
            "damage": 300, "init next": 500, "hero spend": 300, "rest": 300}  # fmt: skip
FULL_SCALE = Scale(guilds=1000, characters=5000, encounters=200)
SMOKE_SCALE = Scale(guilds=2, characters=12, encounters=1)
PROFILES = {
    "full": Profile("full", FULL_SCALE, FULL_OPS, 5000, 20000, 300, 10),
    "quick": Profile(
        "quick", FULL_SCALE, {k: v // 10 for k, v in FULL_OPS.items()}, 500, 2000, 30, 3
    ),
    "smoke": Profile("smoke", SMOKE_SCALE, dict.fromkeys(FULL_OPS, 5), 50, 100, 5, 1),
}


def say(line: str = "") -> None:
    print(line, flush=True)


async def overhead(
    world: World, rng: random.Random, profile: Profile
) -> list[tuple[str, Sample, Sample]]:
    """The same commands with the harness's Discord schema checks off, then on."""
    pairs = []
    for label, build in ((f"/{FLOOR_COMMAND}", build_floor), ("/roll", build_roll),
                         ("/check", build_check)):  # fmt: skip
        ops = build(world, rng, 2 * (profile.overhead_ops + profile.warmup))
        off, on = await run_alternating(label, ops, warmup=profile.warmup, world=world)
        pairs.append((label, off, on))
    return pairs


async def bench(
    profile: Profile,
    *,
    seed_value: int,
    workdir: Path,
    show_sql: bool = False,
    pg_url: str | None = None,
    only: tuple[str, ...] = (),
) -> None:
    backend = "PostgreSQL" if pg_url else "SQLite"
    say(f"TableBot command-path benchmark ({profile.name}, {backend}); {report.environment()}")
    say(f"{report.load()} at start")
    say(report.memory_line("at start (imports done)"))
    path: Path | str = pg_url or workdir / "bench.sqlite3"
    scale = profile.scale

    started = time.perf_counter()
    seeded = await seed(path, scale, seed=seed_value)
    seconds = time.perf_counter() - started
    say(
        f"seeded {scale.guilds:,} guilds, {seeded.characters:,} characters, {seeded.encounters}"
        f" encounters ({seeded.participants:,} participants) in {seconds:.1f} s;"
        f" {await _size(path)}"
    )
    say(report.memory_line("after seeding"))

    started = time.perf_counter()
    world = await build_world(path, seeded, seed=seed_value)
    seconds = time.perf_counter() - started
    say(f"bot + fake Discord ({len(world.places):,} guilds) ready in {seconds:.1f} s")
    loaded = report.memory_line("bot loaded (all cogs, fake guilds, members)")
    say(loaded)
    try:
        if show_sql:
            await _show_sql(world, seed_value)
        await _measure(world, profile, seed_value=seed_value, path=path, loaded=loaded, only=only)
    finally:
        await world.close()


async def _size(path: Path | str) -> str:
    if isinstance(path, Path):
        return f"file {path.stat().st_size / 2**20:.1f} MiB"  # noqa: ASYNC240  (one stat)
    from bench.pg import database_size

    return f"database {await database_size(path) / 2**20:.1f} MiB"


async def _show_sql(world: World, seed_value: int) -> None:
    """The SQL of one operation per family (after one untimed run of each)."""
    rng = random.Random(seed_value + 1)
    await grant_hero_points(world, HERO_POINTS_GRANTED)
    with schema_validation(False):
        for family in FAMILIES:
            first, second = family.build(world, rng, 2)
            await first()
            world.round_trips.log = []
            calls = world.round_trips.count
            await second()
            world.round_trips.log.append("  (the reply is out; what it left for after it:)")
            await world.drain_followups()
            log, world.round_trips.log = world.round_trips.log, None
            if log[-1].startswith("  (the reply is out"):
                log.pop()
            statements = sum(not line.startswith("  (") for line in log)
            say(f"/{family.command}: {statements} statements, {world.round_trips.count - calls}"
                " round trips")  # fmt: skip
            for statement in log:
                say(f"    {statement}")
    await dpytest.empty_queue()
    world.forget_responses()


async def _measure(
    world: World,
    profile: Profile,
    *,
    seed_value: int,
    path: Path | str,
    loaded: str,
    only: tuple[str, ...] = (),
) -> None:
    rng = random.Random(seed_value + 2)
    families = {family.name: family for family in FAMILIES if not only or family.name in only}
    samples: dict[str, Sample] = {}
    await grant_hero_points(world, HERO_POINTS_GRANTED)
    floors: dict[str, Sample] = {}
    with schema_validation(False):
        for name in (name for name in RUN_ORDER if name in families):
            family = families[name]
            count = profile.ops[name] + profile.warmup
            ops = family.build(world, rng, count)
            floors[name] = Sample("pong floor")
            choices = await count_rows(world, "damage_choices")
            sample = await run_ops(
                name, ops, warmup=profile.warmup, world=world,
                floor=build_floor(world, rng, count), floor_sample=floors[name],
            )  # fmt: skip
            if name == "attack":
                hits = await count_rows(world, "damage_choices") - choices
                sample.note = f"damage applied on {hits} of {sample.ops + profile.warmup} attacks"
            samples[name] = sample
            say(f"  /{family.command}: {sample.ops} ops in {sample.elapsed_ns / 1e9:.1f} s")
    pairs = await overhead(world, rng, profile)
    say("  harness overhead measured")

    if isinstance(path, Path):
        storage = await storage_ceiling(path, profile.storage_ops, warmup=profile.warmup)
    else:
        from bench.pg import storage_ceiling as pg_storage_ceiling

        storage = await pg_storage_ceiling(path, profile.storage_ops, warmup=profile.warmup)
    backend = "SQLite file" if isinstance(path, Path) else "PostgreSQL"
    dice = {
        family.dice: dice_ceiling(family.dice, profile.dice_ops, warmup=profile.warmup)
        for family in families.values()
    }
    parsed = dice_ceiling(FAMILIES[0].dice, profile.dice_ops, warmup=profile.warmup, parse=True)
    say(f"  baselines measured; {report.load()}")
    say()
    say(f"Baselines (same process, same {'file' if isinstance(path, Path) else 'database'}):")
    machine = machine_spread(profile.dice_ops // 4, warmup=profile.warmup)
    for line in report.baseline_table([storage, *dice.values(), parsed, machine]):
        say("  " + line)
    lat = machine.latencies_ns
    say("  " + spread_line(report.percentile(lat, 50), report.percentile(lat, 99)))
    say()
    say(
        f"Command families: slash harness -> discord.py -> cog -> rules -> {backend},"
        " schema validation off, one at a time"
    )
    rows = [(samples[f.name], storage, dice[f.dice]) for f in families.values()]
    goals = {f.name: 3.0 if f.name in LIGHT else 5.0 for f in families.values()}
    pooled = Sample("pong floor")
    for floor in floors.values():
        pooled.latencies_ns += floor.latencies_ns
    pooled.elapsed_ns = sum(pooled.latencies_ns)
    say(
        "x floor: p50 over the p50 of the pong floor (a no-op slash command) run one-for-one"
        " between the family's operations;"
        " stmts and db calls: SQL statements and round trips per command (aiosqlite worker"
        " round trips on SQLite; every statement is one on PostgreSQL)"
    )
    for line in report.family_table(rows, pooled, floors, goals):
        say("  " + line)
    for sample in samples.values():
        if sample.note:
            say(f"  {sample.name}: {sample.note}")
    for line in report.followup_lines(list(samples.values())):
        say("  " + line)
    say()
    say("Harness overhead (included in every family above):")
    for line in report.overhead_table(pairs):
        say("  " + line)
    say()
    say("Memory:")
    say("  " + loaded)
    say("  " + report.memory_line("after all runs"))
    say(f"  after the runs: {await _size(path)}" + (" (+ WAL)" if isinstance(path, Path) else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a tenth of the operations")
    size.add_argument("--smoke", action="store_true", help="2 guilds, 5 operations each")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of every RNG")
    parser.add_argument(
        "--show-sql", action="store_true", help="print the statements of one operation per family"
    )
    parser.add_argument(
        "--only",
        metavar="FAMILY",
        action="append",
        choices=[family.name for family in FAMILIES],
        help="measure only this family (repeatable; quote 'init next')",
    )
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="postgresql: start a throwaway server (bench/pg.py) and run there",
    )
    args = parser.parse_args(argv)
    profile = PROFILES["smoke" if args.smoke else "quick" if args.quick else "full"]
    with tempfile.TemporaryDirectory(prefix="tablebot-bench-") as workdir:
        run = functools.partial(
            bench,
            profile,
            seed_value=args.seed,
            workdir=Path(workdir),
            show_sql=args.show_sql,
            only=tuple(args.only or ()),
        )
        if args.backend == "sqlite":
            asyncio.run(run())
        else:
            from bench.pg import fresh_database, server

            with server() as running:
                asyncio.run(run(pg_url=fresh_database(running, "tablebot_bench")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
