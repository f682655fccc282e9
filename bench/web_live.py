"""Live pages under load: 200 open event streams on one process, beside the pong floor.

``PYTHONPATH=. python -m bench.web_live [--streams N] [--ops N] [--changes N]`` seeds a
temporary SQLite file (48 guilds, 24 running encounters), opens the real bot with every
cog on the fake Discord (``bench/world.py``, as ``bench/run.py`` does) and its web
server on a free port of 127.0.0.1, then:

1. times three command families, ``/roll``, ``/damage`` and ``/init next``, each
   operation followed by one pong-floor operation (``/benchnoop``), as bench/README.md
   describes, and prints each family's p50 over the floor's p50 (``x floor``);
2. opens N event streams (aiohttp client connections, all in this process and loop)
   on one guild's overlay link and runs ``/init next`` there ``--changes`` times,
   printing how long after the command began each stream saw ``changed`` (p50, max);
3. times the same families again with the N streams open, and then with N streams
   spread over every guild (the watcher then reads 48 versions a poll), and prints
   the ratios side by side.

The clients share the bot's event loop: what they spend parsing events lands on the
commands' time too, so the "with streams" figures are an upper bound. Nothing is
asserted (ENGINEERING.md, "Speed is measured, not asserted").
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench import report
from bench.seed import Scale, seed
from bench.workload import (
    Sample,
    build_damage,
    build_floor,
    build_init_next,
    build_roll,
    run_ops,
)
from bench.world import World, build_world, schema_validation
from bot.storage.campaigns import CampaignRepository
from bot.storage.web_secrets import WebSecretRepository
from bot.web import tokens
from bot.web.keys import STREAMS
from bot.web.live import WATCHER
from bot.web.server import WebServer, build_app
from bot.web.tokens import View

SCALE = Scale(guilds=48, characters=240, encounters=24)
FAMILIES = (("roll", build_roll), ("damage", build_damage), ("init next", build_init_next))
WARMUP = 5


def say(line: str = "") -> None:
    print(line, flush=True)


async def overlay_link(world: World, guild_id: int, base: str) -> str:
    async with world.bot.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild_id)
        secret = await WebSecretRepository(conn).get_or_create(guild_id)
    token = tokens.issue(
        guild_id=guild_id, user_id=1, view=View.OVERLAY, secret=secret.secret,
        version=secret.version, now=time.time(), days=1,
    )  # fmt: skip
    return f"{base}/t/{token}/events"


class Stream:
    """One open event stream: when it saw each ``changed``."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.ready = asyncio.Event()
        self.changes: list[float] = []
        self.task = asyncio.create_task(self._read(session, url))

    async def _read(self, session: aiohttp.ClientSession, url: str) -> None:
        async with session.get(url) as response:
            if response.status != 200:
                raise RuntimeError(f"a stream was refused: {response.status}")
            async for line in response.content:
                if line.startswith(b"event: ready"):
                    self.ready.set()
                elif line.startswith(b"event: changed"):
                    self.changes.append(time.perf_counter())


async def open_streams(session: aiohttp.ClientSession, urls: list[str]) -> list[Stream]:
    streams = [Stream(session, url) for url in urls]
    for stream in streams:
        ready = asyncio.ensure_future(stream.ready.wait())
        await asyncio.wait((ready, stream.task), timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            await close_streams(streams)
            raise RuntimeError(f"a stream did not open: {stream.task}")
    return streams


async def close_streams(streams: list[Stream]) -> None:
    for stream in streams:
        stream.task.cancel()
    await asyncio.gather(*(s.task for s in streams), return_exceptions=True)


async def slots_freed(server: WebServer) -> float:
    """Seconds until the server noticed every closed stream (``liveness_seconds``)."""
    started = time.perf_counter()
    while server.app[STREAMS].open and time.perf_counter() - started < 10:  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    return time.perf_counter() - started


async def ratios(world: World, rng: random.Random, ops: int) -> dict[str, float]:
    """Each family's p50 over the pong floor's p50, one floor op after each op."""
    found = {}
    with schema_validation(False):
        for name, build in FAMILIES:
            floor = Sample("pong floor")
            count = ops + WARMUP
            sample = await run_ops(
                name, build(world, rng, count), warmup=WARMUP, world=world,
                floor=build_floor(world, rng, count), floor_sample=floor,
            )  # fmt: skip
            p50 = report.percentile(sample.latencies_ns, 50)
            found[name] = p50 / report.percentile(floor.latencies_ns, 50)
            found[f"{name} p50 ms"] = p50 / 1e6
    return found


async def delays(world: World, streams: list[Stream], place: Any, changes: int) -> list[float]:
    """Seconds from each ``/init next``'s start to each stream's ``changed``."""
    gm, channel = place.member(place.seeded.gm_id), place.combat
    seen: list[float] = []
    for _ in range(changes):
        counts = [len(s.changes) for s in streams]
        started = time.perf_counter()
        with schema_validation(False):
            await world.slash.run("init next", user=gm, channel=channel, options={})
        await world.drain_followups()
        deadline = started + 5.0
        while any(len(s.changes) == n for s, n in zip(streams, counts, strict=True)):
            if time.perf_counter() > deadline:
                break
            await asyncio.sleep(0.005)
        for stream, n in zip(streams, counts, strict=True):
            seen.append(stream.changes[n] - started if len(stream.changes) > n else float("inf"))
        await asyncio.sleep(0.3)  # (changes apart: each its own poll)
    return seen


async def main(n_streams: int, ops: int, changes: int) -> None:
    say(f"Live web pages beside the pong floor; {report.environment()}")
    say(f"{report.load()} at start")
    with tempfile.TemporaryDirectory(prefix="tablebot-web-live-") as workdir:
        path = Path(workdir) / "bench.sqlite3"
        seeded = await seed(path, SCALE, seed=1)
        world = await build_world(path, seeded, seed=1)
        server = WebServer(build_app(world.bot.db, bot=world.bot), host="127.0.0.1", port=0)
        await server.start()
        base = f"http://127.0.0.1:{server.port}"
        rng = random.Random(3)
        fights = [p for p in world.places if p.combat is not None]
        connector = aiohttp.TCPConnector(limit=0)
        try:
            async with aiohttp.ClientSession(connector=connector) as session:
                say(f"seeded {SCALE.guilds} guilds, {len(fights)} encounters; {ops} ops a family")
                without = await ratios(world, rng, ops)
                tasks_before = len(asyncio.all_tasks())

                one = await overlay_link(world, fights[0].seeded.guild_id, base)
                streams = await open_streams(session, [one] * n_streams)
                seen = await delays(world, streams, fights[0], changes)
                finite = sorted(s for s in seen if s != float("inf"))
                say(
                    f"{n_streams} streams on one guild, {changes} x /init next: every stream"
                    f" saw {len(finite)} of {len(seen)} changes; delay from the command's"
                    f" start p50 {finite[len(finite) // 2] * 1000:.0f} ms,"
                    f" max {max(seen) * 1000:.0f} ms"
                    f" (watcher polls every {server.app[WATCHER].poll_seconds * 1000:.0f} ms)"
                )
                with_one = await ratios(world, rng, ops)
                extra_tasks = len(asyncio.all_tasks()) - tasks_before
                await close_streams(streams)
                freed = await slots_freed(server)
                say(f"the {n_streams} clients left; the server freed their slots in {freed:.1f} s")

                links = [await overlay_link(world, p.seeded.guild_id, base) for p in world.places]
                spread = await open_streams(
                    session, [links[i % len(links)] for i in range(n_streams)]
                )
                with_spread = await ratios(world, rng, ops)
                polls = server.app[WATCHER].polls
                await close_streams(spread)
                await slots_freed(server)
                # The control: as many idle tasks as the streams added, and no stream.
                # The slash harness waits for the tasks a command starts by scanning
                # asyncio.all_tasks() (tests/support/slash.py, settle), so any open
                # task costs every command (and the floor) there, not in the bot.
                idle = [asyncio.create_task(asyncio.sleep(3600)) for _ in range(extra_tasks)]
                control = await ratios(world, rng, ops)
                for task in idle:
                    task.cancel()
        finally:
            await server.stop()
            await world.close()
    say()
    say(f"x floor (p50 over the pong floor's p50), {ops} ops each, one floor op after each:")
    say(f"  {'family':<10} {'no streams':>11} {f'{n_streams} on 1 guild':>15}"
        f" {f'{n_streams} on {SCALE.guilds}':>13} {f'{extra_tasks} idle tasks':>15}"
        "   p50 ms (none / 1 / all / idle)")  # fmt: skip
    for name, _ in FAMILIES:
        p50s = " / ".join(
            f"{r[f'{name} p50 ms']:.2f}" for r in (without, with_one, with_spread, control)
        )
        say(
            f"  /{name:<9} {without[name]:>10.2f}x {with_one[name]:>14.2f}x"
            f" {with_spread[name]:>12.2f}x {control[name]:>14.2f}x   {p50s}"
        )
    say(
        f"  ('{extra_tasks} idle tasks': no stream, as many sleeping tasks as the streams"
        " added: what the slash harness's task scan alone costs)"
    )
    say(f"watcher read transactions in the run: {polls}; {report.load()} at the end")


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--changes", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main(args.streams, args.ops, args.changes))


if __name__ == "__main__":
    run()
