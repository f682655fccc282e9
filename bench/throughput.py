"""Throughput of 1, 2 and 4 bot processes on one database (shards); prints figures.

``python -m bench.throughput [--seconds 5] [--processes 1 2 4] [--backend both]``

Seeds a world (``bench.seed``: every guild with a running encounter), then runs N OS
processes at once, each one shard: the guilds whose index is its number modulo N, as
Discord routes a guild to one shard. Each process repeats write commands through the
real repositories, one transaction each, round robin over its guilds: a roll logged
and a determination point spent (or regained), hit points changed, the encounter
advanced one turn (load, ``next_turn``, versioned save). It prints commands per second
over all processes and the per-command latency. The SQLite rows are N processes on
one file (its single write lock); the PostgreSQL rows N processes on one server
started as ``bench.run --backend postgresql`` does (bench/pg.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.seed import Scale, seed
from bot.rules.dice_source import RandomDice
from bot.rules.hocs.initiative import next_turn
from bot.storage.backend import open_database
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.storage.roll_log import RollLogRepository

ROOT = Path(__file__).resolve().parents[1]
SCALE = Scale(guilds=48, characters=144, encounters=48)


async def work(target: str, shard: int, shards: int, seconds: float, start_at: float) -> None:
    """One process: commands on its shard's guilds until ``seconds`` have passed."""
    world = await seed_layout(target)
    mine = [g for i, g in enumerate(world) if i % shards == shard]
    db = await open_database(target)
    dice = RandomDice(random.Random(shard))
    latencies: list[int] = []
    await asyncio.sleep(max(0.0, start_at - time.time()))
    deadline = time.perf_counter() + seconds
    step = 0
    while time.perf_counter() < deadline:
        guild, channel, character = mine[step % len(mine)]
        kind = step % 3
        step += 1
        before = time.perf_counter_ns()
        async with db.transaction() as conn:
            if kind == 0:
                await RollLogRepository(conn).record(
                    guild_id=guild, channel_id=None, user_id=1, kind="bench", expression="1d6",
                    result={"faces": [3]}, total=3, secret=False, character_id=character,
                )  # fmt: skip
                characters = CharacterRepository(conn)
                if not await characters.spend_determination(character):
                    await characters.regain_determination(character, 3, 3)
            elif kind == 1:
                await CharacterVitalsRepository(conn).adjust_hp(
                    character, random.choice((-1, 1)), temporary_first=False
                )
            else:
                encounters = EncounterRepository(conn)
                record = await encounters.get_by_channel(channel)
                assert record is not None
                state, _ = next_turn(record.state, dice)
                await encounters.save(record, state)
        latencies.append(time.perf_counter_ns() - before)
    await db.close()
    print(json.dumps({"latencies_ns": latencies}), flush=True)


async def seed_layout(target: str) -> list[tuple[int, int, int]]:
    """(guild id, combat channel, first character) of every seeded guild, by index."""
    db = await open_database(target)
    try:
        async with db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT e.guild_id, e.channel_id, MIN(c.id) FROM encounters e"
                " JOIN characters c ON c.guild_id = e.guild_id"
                " GROUP BY e.guild_id, e.channel_id ORDER BY e.guild_id"
            )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]
    finally:
        await db.close()


def start_worker(args: list[str], shard: int) -> subprocess.Popen[str]:
    target, shards, seconds, start_at = args
    command = [sys.executable, "-m", "bench.throughput", "--worker", target, str(shard), shards]
    return subprocess.Popen(
        [*command, seconds, start_at],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def run_processes(target: str, shards: int, seconds: float) -> tuple[int, list[int]]:
    start_at = time.time() + 2.0  # every process imported and connected by then
    args = [target, str(shards), str(seconds), str(start_at)]
    procs = [start_worker(args, shard) for shard in range(shards)]
    latencies: list[int] = []
    for proc in procs:
        out, err = proc.communicate(timeout=seconds + 120)
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed:\n{err[-2000:]}")
        latencies += json.loads(out.strip().splitlines()[-1])["latencies_ns"]
    return len(latencies), latencies


def row(backend: str, shards: int, seconds: float, latencies: list[int]) -> str:
    ms = sorted(n / 1e6 for n in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"  {backend:<11}{shards:>9}{len(ms):>10,}{len(ms) / seconds:>12,.0f}"
        f"{statistics.median(ms):>9.2f}{p99:>9.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.throughput")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        target, shard, shards, seconds, start_at = args.worker
        asyncio.run(work(target, int(shard), int(shards), float(seconds), float(start_at)))
        return 0
    print(f"Throughput: {SCALE.guilds} guilds, write commands, {args.seconds:.0f} s per row")
    print(f"  {'backend':<11}{'processes':>9}{'commands':>10}{'commands/s':>12}"
          f"{'p50 ms':>9}{'p99 ms':>9}")  # fmt: skip
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    with tempfile.TemporaryDirectory(prefix="tablebot-throughput-") as workdir:
        for backend in backends:
            with contextlib.ExitStack() as stack:
                running = None
                if backend == "postgresql":
                    from bench.pg import fresh_database, server

                    running = stack.enter_context(server())  # one server for every row
                for shards in args.processes:
                    if running is None:
                        target = str(Path(workdir) / f"t{shards}.sqlite3")
                    else:
                        target = fresh_database(running, f"tablebot_throughput_{shards}")
                    asyncio.run(seed(target, SCALE, seed=1))
                    _, latencies = run_processes(target, shards, args.seconds)
                    print(row(backend, shards, args.seconds, latencies), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
