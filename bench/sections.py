"""Where one command family's time goes: named functions timed inside the commands only.

    python -m bench.sections attack 400 \\
        cogs.hocs.combat.commands:resolve_attack cogs.hocs.combat.commands:store_attack

Each ``module:attribute`` (``Class.method`` allowed) is replaced by a wrapper that adds
its wall time (``perf_counter_ns``) to a total while an operation of the family runs,
so the bench's seeding and the follow-up work after each reply count nothing. Prints
the family's p50 and mean, then µs per operation and calls per operation of each
function, largest first. A function that awaits includes the time other tasks ran
meanwhile; on a loaded machine compare runs made a minute apart, not single figures.
cProfile's own cost per call (several µs) swamps functions this small, hence this.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.seed import Scale, seed
from bench.workload import FAMILIES, grant_hero_points
from bench.world import build_world

WARMUP = 20


class Sections:
    def __init__(self) -> None:
        self.total_ns: dict[str, int] = defaultdict(int)
        self.calls: dict[str, int] = defaultdict(int)
        self.on = False

    def wrap(self, spec: str) -> None:
        """Time ``module:attribute`` (the name the caller looks up) from now on."""
        module_name, _, path = spec.partition(":")
        owner: Any = importlib.import_module(module_name)
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        fn = getattr(owner, name)
        key = f"{module_name.rsplit('.', 1)[-1]}.{path}"
        clock = time.perf_counter_ns

        def add(started: int) -> None:
            if self.on:
                self.total_ns[key] += clock() - started
                self.calls[key] += 1

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                started = clock()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    add(started)

            setattr(owner, name, timed_async)
        else:

            @functools.wraps(fn)
            def timed(*args: Any, **kwargs: Any) -> Any:
                started = clock()
                try:
                    return fn(*args, **kwargs)
                finally:
                    add(started)

            setattr(owner, name, timed)


async def run(family: str, ops: int, specs: list[str], *, guilds: int = 1000) -> None:
    sections = Sections()
    for spec in specs:
        sections.wrap(spec)
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / "bench.sqlite3"
        scale = Scale(guilds=guilds, characters=guilds * 5, encounters=max(1, guilds // 5))
        seeded = await seed(path, scale, seed=1)
        world = await build_world(path, seeded, seed=1)
        try:
            await grant_hero_points(world, 10)
            build = {f.name: f for f in FAMILIES}[family].build
            latencies: list[int] = []
            for index, op in enumerate(build(world, random.Random(1), ops + WARMUP)):
                with world.holding_followups():
                    sections.on = index >= WARMUP
                    started = time.perf_counter_ns()
                    await op()
                    latencies.append(time.perf_counter_ns() - started)
                    sections.on = False
                await world.drain_followups()
        finally:
            await world.close()
    timed = sorted(latencies[WARMUP:])
    print(
        f"/{family}: {len(timed)} ops, p50 {timed[len(timed) // 2] / 1e6:.3f} ms,"
        f" mean {sum(timed) / len(timed) / 1e6:.3f} ms"
    )
    for key, total in sorted(sections.total_ns.items(), key=lambda kv: -kv[1]):
        print(
            f"  {key:55s} {total / len(timed) / 1e3:8.1f} µs/op"
            f"  {sections.calls[key] / len(timed):5.2f} calls/op"
        )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        print(__doc__)
        return 2
    asyncio.run(run(args[0], int(args[1]), args[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
