"""Odds benchmark: exact HOCS odds across pool sizes, beside icepool, plus the chart.

``PYTHONPATH=. python -m bench.odds [--max-rerolls N] [--quick] [--before] [--no-warm] [--cpu]``
prints, cold for each query (every cache of answers cleared before it, the policy's too;
the shared reroll table as the bot's start-up warm-up leaves it, reset before each query,
and with ``--no-warm`` empty, as for a query that arrives before the warm-up ends):

* pools of 1–30 base dice with each modifier set (``pool_odds``), and icepool computing
  the same distribution where it can express it (boons, banes, focus and guaranteed
  successes without rerolls or a determination die: icepool has no way to state the
  optimal reroll policy or the policy's choice of the exploding die);
* clashes of two such pools (``clash_odds``), an attack and a clash decided on 6s, and
  icepool for the per-round chance of an attack between plain pools;
* damage pools of 1–12 dice (``damage_odds`` and ``hit_odds``), including the largest
  /damage accepts;
* the charts (``bench.odds_chart``): each kind's render time as a ratio to the earlier
  unlabelled chart and to the PNG encoders, measured in the same run, and the import
  time and resident memory of the chart code in a fresh interpreter.

``--before`` times the earlier general search (``odds_core._search_weights``, which asks
the policy at every state) in place of the fast paths, for a before/after comparison in
one run. The load average is printed first: compare figures only from a quiet machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import time
import tracemalloc
from fractions import Fraction

from bench.odds_chart import main as chart_figures
from bot.rules.hocs import odds as hocs_odds
from bot.rules.hocs import (
    odds_clash,
    odds_core,
    odds_reroll_table,
    odds_rerolls,
    odds_runs,
    policy,
)
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.odds_clash import _raw, clash_odds
from bot.rules.hocs.odds_damage import damage_odds, hit_odds
from bot.rules.hocs.pool import PoolSpec
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from cogs.hocs.odds_warm_up import WARM_REROLLS

SIZES = (1, 2, 5, 10, 15, 20, 25, 30)
QUICK_SIZES = (1, 10, 30)


# Wall-clock by default; ``--cpu``: the query's own CPU time (on a shared, loaded machine
# the wall clock also counts the time other processes hold the cores).
_clock = time.perf_counter


def _time(fn) -> float:
    start = _clock()
    fn()
    return (_clock() - start) * 1000


# The shared reroll table (odds_reroll_table) as the bot's warm-up leaves it; each query
# starts from exactly this (``--no-warm``: from an empty table, as a query that arrives
# before the warm-up ends).
_TABLES = ("_OUTCOMES", "_DET_STEPS", "_VALUES", "_FUTURES", "_BY_MOVE", "_INTERNED", "_FILE")
_warmed: dict[str, dict] = {}


# The shared 6s polynomials (odds_runs), likewise as the warm-up leaves them.
_RUN_TABLES = ("_BINOMIALS", "_RUNS")
_warmed_runs: dict[str, dict] = {}
_warmed_merged: dict = {}


def _cold() -> None:
    pool_odds.cache_clear()
    clash_odds.cache_clear()
    _raw.cache_clear()
    damage_odds.cache_clear()
    policy._best_capped.cache_clear()
    odds_reroll_table.clear()
    for name, saved in _warmed.items():
        getattr(odds_reroll_table, name).update(saved)
    # Futures' entries merged as a query kind reads them: those the warm-up made, no more.
    odds_rerolls._MERGED.clear()
    odds_rerolls._MERGED.update(_warmed_merged)
    for name in _RUN_TABLES:
        getattr(odds_runs, name).clear()
        getattr(odds_runs, name).update(_warmed_runs.get(name, {}))
    # The bot runs full collections when idle (bot.process.idle_gc), not inside a command: one
    # here, off the clock, so a query's figure is its own work, not a collection of the
    # whole benchmark's heap that its allocations happened to trigger (43 ms seen).
    gc.collect()


def warm_up() -> None:
    """Run the bot's start-up warm-up once and keep its table for every query."""
    odds_reroll_table.clear()
    # Memory traced in a first run (tracing slows it), CPU timed in a second from empty.
    tracemalloc.start()
    odds_rerolls.warm(WARM_REROLLS)
    size = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    odds_reroll_table.clear()
    for name in _RUN_TABLES:
        getattr(odds_runs, name).clear()
    odds_rerolls._MERGED.clear()
    start = time.process_time()
    states = odds_rerolls.warm(WARM_REROLLS)
    cpu = time.process_time() - start
    _warmed.update({name: dict(getattr(odds_reroll_table, name)) for name in _TABLES})
    _warmed_runs.update({name: dict(getattr(odds_runs, name)) for name in _RUN_TABLES})
    _warmed_merged.update(odds_rerolls._MERGED)
    print(
        f"warm-up (odds_rerolls.warm({WARM_REROLLS}), as the bot runs it after ready; the"
        f" file {'read' if odds_reroll_table._FILE else 'missing: states computed'}):"
        f" {states} states, {cpu:.2f} s CPU, {size:.1f} MiB (traced)"
    )


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


def _pool_mods(max_rerolls: int) -> list[tuple[str, dict]]:
    mods = [
        ("plain", {}),
        ("boon", {"boons": 1}),
        ("3 banes", {"banes": 3}),
        ("focus 2, guaranteed 1", {"focus": 2, "guaranteed": 1}),
        ("focus 30, guaranteed 30", {"focus": 30, "guaranteed": 30}),
        ("determination", {"determination": True}),
        ("det + focus 2 + guar 1", {"determination": True, "focus": 2, "guaranteed": 1}),
        # Focus one short of every die: no shortcut for "focus covers all" applies.
        ("det + focus 29 + guar 3", {"determination": True, "focus": 29, "guaranteed": 3}),
    ]
    for r in range(1, max_rerolls + 1):
        mods.append((f"det + focus 2 + guar 1 + {r} reroll", {
            "determination": True, "focus": 2, "guaranteed": 1, "rerolls": r,
        }))  # fmt: skip
        mods.append((f"det + focus 30 + {r} reroll", {
            "determination": True, "focus": 30, "rerolls": r,
        }))  # fmt: skip
        mods.append((f"det + focus 5 + guar 3 + {r} reroll", {
            "determination": True, "focus": 5, "guaranteed": 3, "rerolls": r,
        }))  # fmt: skip
        mods.append((f"{r} reroll, 3 banes", {"rerolls": r, "banes": 3}))
    return mods


def pool_table(sizes: tuple[int, ...], max_rerolls: int) -> None:
    print("HOCS pool_odds, cold, ms (icepool ms where it can express the pool)")
    print(f"{'modifiers':34}" + "".join(f"{n:>14}" for n in sizes))
    for name, kw in _pool_mods(max_rerolls):
        row = f"{name:34}"
        for n in sizes:
            spec = PoolSpec(base=n, **kw)
            _cold()
            ours = _time(lambda spec=spec: pool_odds(spec))
            cell = f"{ours:.1f}"
            if not spec.rerolls and not spec.determination:
                ice = _time(lambda spec=spec: _icepool_plain(spec).probabilities())
                dist = _icepool_plain(spec)
                odds = pool_odds(spec)
                top = spec.dice_count
                assert all(Fraction(dist.probability(k)) == odds.dist[k] for k in range(top + 1))
                cell += f" ({ice:.1f})"
            row += f"{cell:>14}"
        print(row, flush=True)


def _icepool_attack_round(a: int, b: int) -> tuple[Fraction, Fraction]:
    """icepool: one round of an attack between plain pools: (A wins, B wins)."""
    import icepool

    hit = icepool.d6.map(lambda f: 1 if f >= 4 else 0)
    sa, sb = a @ hit, b @ hit
    a_wins = icepool.map(lambda x, y: x >= y and x > 0, sa, sb).probability(True)
    b_wins = icepool.map(lambda x, y: y > x, sa, sb).probability(True)
    return Fraction(a_wins), Fraction(b_wins)


def clash_table(sizes: tuple[int, ...], max_rerolls: int) -> None:
    print("HOCS clash_odds (both sides the same size), cold, ms (icepool: one attack round)")
    print(f"{'sides':34}" + "".join(f"{n:>14}" for n in sizes))
    # (label, both sides' modifiers, attack, A spends determination)
    rows = [
        ("attack, plain", {}, True, False),
        ("clash on 6s, plain", {}, False, False),
        ("attack, det + focus 2 + guar 1", {"focus": 2, "guaranteed": 1}, True, True),
        ("clash on 6s, det + focus 2 + guar 1", {"focus": 2, "guaranteed": 1}, False, True),
    ]
    rows.append(("clash on 6s, det + focus 29 + guar 3", {"focus": 29, "guaranteed": 3}, False,
                 True))  # fmt: skip
    for r in range(1, max_rerolls + 1):
        rows.append((f"clash on 6s, det + {r} reroll", {"rerolls": r}, False, True))
        rows.append((f"attack, det + focus 5 + guar 3 + {r} rr", {
            "focus": 5, "guaranteed": 3, "rerolls": r}, True, True))  # fmt: skip
        rows.append((f"clash on 6s, det + f5 + g3 + {r} rr", {
            "focus": 5, "guaranteed": 3, "rerolls": r}, False, True))  # fmt: skip
    for name, kw, attack, det in rows:
        row = f"{name:34}"
        for n in sizes:
            a = PoolSpec(base=n, determination=det, **kw)
            b = PoolSpec(base=n, **kw)
            _cold()
            ours = _time(lambda a=a, b=b, attack=attack: clash_odds(a, b, attack=attack))
            cell = f"{ours:.1f}"
            if attack and not kw and not det:
                ice = _time(lambda n=n: _icepool_attack_round(n, n))
                odds = clash_odds(a, b, attack=True)
                a_round, b_round = _icepool_attack_round(n, n)
                q = 1 - a_round - b_round
                assert odds.a_wins == a_round * (1 - q**odds.rounds) / (1 - q)
                cell += f" ({ice:.1f})"
            row += f"{cell:>14}"
        print(row, flush=True)


def damage_table() -> None:
    print("HOCS damage_odds + hit_odds, cold, ms (icepool: no way to state the kept-die policy)")
    pools = [
        (6,),
        (10,),
        (12, 10, 8),
        (12, 10, 8, 8),
        (20, 12, 10, 10, 8, 8),
        (10,) * 12,
        (20, 12, 10, 10, 8, 8, 6, 6, 4, 4, 10, 12),  # the most /damage takes: 12 dice
    ]
    target = HitPoints(current=10, maximum=12, threshold=-6)
    for sizes in pools:
        _cold()
        ms = _time(lambda sizes=sizes: hit_odds(damage_odds(sizes), target, toughness=2))
        label = " ".join(f"d{s}" for s in sizes)
        print(f"{label:44}{ms:>10.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--max-rerolls", type=int, default=ODDS_MAX_REROLLS, help="the /odds cap by default"
    )
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="start every query from an empty reroll table (one asked before the warm-up ends)",
    )
    parser.add_argument(
        "--before", action="store_true", help="time the earlier general search instead"
    )
    parser.add_argument("--quick", action="store_true", help="pool sizes 1, 10 and 30 only")
    parser.add_argument(
        "--cpu", action="store_true", help="time each query's CPU (thread time), not the wall"
    )
    parser.add_argument(
        "--chart-python",
        help="an interpreter with matplotlib (a throwaway venv) to compare the chart with",
    )
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else SIZES
    if args.cpu:
        global _clock
        _clock = time.thread_time
        print("CPU: every figure is the query's own CPU time (thread time), not the wall")
    if args.before:
        # Both odds modules call pool_weights by name: point them at the earlier search.
        hocs_odds.pool_weights = odds_core._search_weights
        odds_clash.pool_weights = odds_core._search_weights
        print("BEFORE: the general search (odds_core._search_weights) for every pool")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.no_warm:
        print("NO WARM-UP: every query starts from an empty reroll table")
    elif not args.before:
        warm_up()
    pool_table(sizes, args.max_rerolls)
    clash_table(sizes, args.max_rerolls)
    damage_table()
    # The chart's figures, as ratios to baselines measured in the same run.
    chart_figures(args.chart_python)
    from bench.odds_twod10 import main as twod10_odds

    twod10_odds()


if __name__ == "__main__":
    main()
