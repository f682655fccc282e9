"""Odds benchmark: exact pool odds across pool sizes, beside icepool, plus the chart.

``PYTHONPATH=. python -m bench.odds [--max-rerolls N]`` prints, for pool sizes 1–30,
the time of ``pool_odds`` (cold cache) with each modifier set, and icepool computing
the same distribution where it can express it (plain pools, boons/banes, focus and
guaranteed successes without rerolls; icepool has no way to state the optimal
reroll policy). Then the chart's render time, and the import time and resident
memory of the chart code in a fresh interpreter. Rerolls default to 0–1 because
larger counts take seconds per query today (see README's Odds paragraph).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from fractions import Fraction

from bot.render.odds_chart import render_distribution
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.pool import PoolSpec

SIZES = (1, 2, 5, 10, 15, 20, 25, 30)


def _time(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _icepool_plain(spec: PoolSpec):
    """icepool's distribution of successes for a pool with focus and guarantees, no rerolls."""
    import icepool

    n = spec.dice_count
    # Count failures, 3s separately: final = successes + min(failures, g + min(f, threes)).
    cat = icepool.d6.map(lambda f: (1, 0, 0) if f >= 4 else ((0, 1, 1) if f == 3 else (0, 1, 0)))
    focus, guaranteed = spec.focus, spec.guaranteed

    def final(s: tuple[int, int, int]) -> int:
        succ, fail, threes = s
        return succ + min(fail, guaranteed + min(focus, threes))

    total = (n @ cat.map(lambda t: icepool.Vector(t))) if n else icepool.Die([(0, 0, 0)])
    return total.map(lambda v: final(tuple(v)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-rerolls", type=int, default=1)
    args = parser.parse_args()
    mods = [
        ("plain", {}),
        ("boon", {"boons": 1}),
        ("3 banes", {"banes": 3}),
        ("focus 2, guaranteed 1", {"focus": 2, "guaranteed": 1}),
        ("determination", {"determination": True}),
        ("det + focus 2 + guar 1", {"determination": True, "focus": 2, "guaranteed": 1}),
    ]
    for r in range(1, args.max_rerolls + 1):
        mods.append((f"det + focus 2 + guar 1 + {r} reroll", {
            "determination": True, "focus": 2, "guaranteed": 1, "rerolls": r,
        }))  # fmt: skip
    print("HOCS pool_odds, cold cache, ms (icepool ms where it can express the pool)")
    print(f"{'modifiers':34}" + "".join(f"{n:>14}" for n in SIZES))
    for name, kw in mods:
        row = f"{name:34}"
        for n in SIZES:
            spec = PoolSpec(base=n, **kw)
            pool_odds.cache_clear()
            ours = _time(lambda spec=spec: pool_odds(spec))
            cell = f"{ours:.1f}"
            if not spec.rerolls and not spec.determination:
                ice = _time(lambda spec=spec: _icepool_plain(spec).probabilities())
                dist = _icepool_plain(spec)
                odds = pool_odds(spec)
                assert all(Fraction(dist.probability(k)) == odds.dist[k] for k in range(n + 1))
                cell += f" ({ice:.1f})"
            row += f"{cell:>14}"
        print(row)
    odds = pool_odds(PoolSpec(base=30, determination=True))
    runs = 50
    ms = _time(lambda: [render_distribution(odds.dist, threshold=10) for _ in range(runs)]) / runs
    print(f"chart render (33 bars, 360x140 PNG): {ms:.2f} ms")
    probe = (
        "import time, resource; t = time.perf_counter(); import bot.render.odds_chart;"
        " print(f'{(time.perf_counter() - t) * 1000:.1f} ms import,"
        " {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB max RSS')"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    print(f"chart library (stdlib zlib+struct): {out.stdout.strip()}")
    bare = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    base = subprocess.run([sys.executable, "-c", bare], capture_output=True, text=True, check=True)
    print(f"bare interpreter max RSS: {base.stdout.strip()} MiB")
    from bench.odds_twod10 import main as twod10_odds

    twod10_odds()


if __name__ == "__main__":
    main()
