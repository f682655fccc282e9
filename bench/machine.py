"""A yardstick of the machine rather than of the bot.

``fixed_work`` is the same pure-Python work every call, timed in a block of its own
after the families (``bench.baselines.machine_spread``). Whatever the bot does, its
spread (p99 over p50) is how far this machine alone stretches a tail: scheduling,
caches shared with other tenants, clock changes.
A p99 goal in milliseconds is only as reachable as that spread allows: at a spread of
2, a 2 ms p99 needs a p50 of about 1 ms.
"""

from __future__ import annotations

import json


def fixed_work() -> int:
    """About 0.3–0.4 ms of dict, arithmetic and string work on a 2024 cloud core, like a
    command's own; no I/O, and nothing it allocates outlives the call."""
    counts: dict[int, int] = {}
    for i in range(2500):
        key = i % 97
        counts[key] = counts.get(key, 0) + i * 3
    return len(json.dumps(counts))


def spread_line(p50_ns: float, p99_ns: float, goal_ms: float = 2.0) -> str:
    """The machine's spread, and the p50 a ``goal_ms`` p99 needs at that spread."""
    if not p50_ns:
        return "machine spread: not measured"
    spread = p99_ns / p50_ns
    return (
        f"machine spread: fixed work p50 {p50_ns / 1e3:.0f} us, p99 {p99_ns / 1e3:.0f} us"
        f" (p99 = {spread:.2f}x p50); at that spread a {goal_ms:g} ms p99 needs a p50 of"
        f" {goal_ms / spread:.2f} ms or less"
    )
