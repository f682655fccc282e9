"""The recap luck chart's cost, beside the floor of encoding a blank card in the same run.

``PYTHONPATH=. python -m bench.recap_chart`` prints, for a few evenings (seeded
percentiles, so every run draws the same charts), the median and the fastest render
time in ms, each with its ratio to ``encode_png`` of a blank 800x400 card (the floor
any chart sits on), and as a yardstick from the same run the /odds pool chart. On a
busy machine the fastest run is the steadier figure (the chart's own cost, with the
least of other processes' work in it); the median is what a reply meets. Fonts are
loaded and the cache of measured words emptied before each render, as a chart of new
names meets it. The goal is under 20 ms for 8 characters x 60 rolls; the figure is
printed, never asserted (ENGINEERING.md, "Speed is measured, not asserted").
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from PIL import Image

from bot.render.chart_style import BACKGROUND, HEIGHT, WIDTH, text_width
from bot.render.hocs.odds import chart_file
from bot.render.odds_chart import encode_png
from bot.render.recap_chart import render_luck_chart
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.pool import PoolSpec

GOAL_MS = 20.0
NAMES = ["Mira", "Bartholomew the Unreasonably Bold", "Kit", "Zoë", "Ana", "Old Tom", "Rhea",
         "Vex", "Ivo", "Lu", "Mo", "Pax", "Quinn", "Sol"]  # fmt: skip


def _median_ms(fn: Callable[[], object], runs: int = 40) -> tuple[float, float]:
    """Median and fastest wall time of ``fn`` in ms. On a busy machine the fastest run
    is the steadier figure (the chart's own cost, with the least of others' work in it);
    the median is what a reply meets."""
    fn()  # fonts and Pillow's lazily imported plugins loaded outside the figure
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def evening(characters: int, rolls: int, seed: int = 27) -> list[tuple[str, list[float]]]:
    rng = random.Random(seed)
    return [
        (NAMES[i % len(NAMES)], [rng.random() for _ in range(rolls)]) for i in range(characters)
    ]


def main() -> None:
    blank = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    floor, floor_best = _median_ms(lambda: encode_png(blank))
    print(
        f"floor: encoding a blank {WIDTH}x{HEIGHT} card {floor:.2f} ms (fastest {floor_best:.2f})"
    )
    pool = pool_odds(PoolSpec(base=30, determination=True))
    odds, odds_best = _median_ms(lambda: (text_width.cache_clear(), chart_file(pool, 10)))
    print(
        f"reference: the /odds HOCS pool chart (33 bars, bench.odds_chart's first row)"
        f" {odds:.2f} ms (fastest {odds_best:.2f}), {odds / floor:.1f}x the blank card"
    )
    cases = {
        "8 characters x 60 rolls (the goal's case)": evening(8, 60),
        "4 characters x 10 rolls": evening(4, 10),
        "12 characters x 60 rolls": evening(12, 60),
        "14 characters x 60 rolls (12 drawn, +2 more)": evening(14, 60),
        "12 characters x 420 rolls (a 5,000-roll night)": evening(12, 420),
        "no scored rolls": [],
    }
    print(
        f"luck chart render, median ms (goal under {GOAL_MS:.0f} ms), x blank card,"
        " fastest ms, x fastest blank card"
    )
    for name, series in cases.items():
        ms, best = _median_ms(lambda s=series: (text_width.cache_clear(), render_luck_chart(s)))
        verdict = "under" if ms < GOAL_MS else "OVER"
        print(
            f"  {name:48}{ms:>7.2f} ms {ms / floor:>5.1f}x {best:>7.2f} ms"
            f" {best / floor_best:>5.1f}x  ({verdict} {GOAL_MS:.0f} ms)"
        )


if __name__ == "__main__":
    main()
