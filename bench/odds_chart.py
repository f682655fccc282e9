"""The /odds chart's cost: each chart the commands send, beside baselines from the same run.

``PYTHONPATH=. python -m bench.odds_chart [--chart-python PY]`` (also the last part of
``bench.odds``) prints:

* PNG encoders on the same 800x400 chart pixels, as ratios to the chart's own
  (``odds_chart.encode_png``: Pillow's writer at zlib level 1): a bare stdlib
  zlib+struct writer at level 6 (the earlier chart's), and Pillow's at level 6;
* each chart as its caller draws it (median of repeated renders; fonts loaded, the
  cache of measured words emptied before each, as a chart of new names meets it), as a
  ratio to the earlier unlabelled 360x140 chart and to encoding a blank card of the
  same size, the floor any drawing sits on. The goal is under 20 ms a chart; the
  figure is printed, never asserted;
* import time and peak memory in a fresh interpreter: the chart module (Pillow), the
  stdlib pieces the earlier chart needed, and matplotlib (``--chart-python``: an
  interpreter that has it), plus the first chart a fresh process draws.
"""

from __future__ import annotations

import argparse
import io
import statistics
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from fractions import Fraction

from PIL import Image

from bot.render.chart_style import BACKGROUND, HEIGHT, WIDTH, text_width
from bot.render.hocs.odds import chart_file
from bot.render.hocs.odds_clash import clash_chart
from bot.render.hocs.odds_damage import damage_odds_embed
from bot.render.hocs.odds_party import PartyRow, party_odds_embed
from bot.render.odds_chart import FAIL, PASS, encode_png, render_distribution
from bot.render.twod10.odds import task_chart
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.odds_damage import damage_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rules.twod10.odds import task_odds

GOAL_MS = 20.0


def _median_ms(fn: Callable[[], object], runs: int = 30) -> float:
    fn()  # fonts and lazily imported plugins loaded outside the figure
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


# --- The earlier chart (before Pillow), kept here as the baseline ----------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def stdlib_png(raw_rgb: bytes, width: int, height: int, level: int = 6) -> bytes:
    """The earlier hand-written encoder: filter 0 on every row, one IDAT."""
    stride = 3 * width
    raw = b"".join(b"\x00" + raw_rgb[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, level))
        + _chunk(b"IEND", b"")
    )


def earlier_chart(probs: Sequence[Fraction | float], threshold: int) -> bytes:
    """The earlier 360x140 chart: bars and ticks, no words, drawn into bytearrays."""
    width, height, margin = 360, 140, 8
    rows = [bytearray(bytes((43, 45, 49)) * width) for _ in range(height)]
    n = max(1, len(probs))
    top = max((float(p) for p in probs), default=0.0) or 1.0
    plot_w, plot_h = width - 2 * margin, height - 2 * margin - 4
    slot, baseline = plot_w / n, margin + plot_h
    gap = 1 if slot >= 4 else 0
    for k, p in enumerate(probs):
        colour = PASS if k >= threshold else FAIL
        x0 = margin + int(k * slot) + gap
        x1 = max(x0 + 1, margin + int((k + 1) * slot) - gap)
        pixels = bytes(colour) * (x1 - x0)
        for y in range(baseline - round(float(p) / top * plot_h), baseline):
            rows[y][3 * x0 : 3 * x1] = pixels
        rows[baseline + 2][3 * x0 : 3 * x0 + 3] = bytes((148, 155, 164))
    raw = b"".join(bytes(row) for row in rows)
    return stdlib_png(raw, width, height)


# --- The figures ---------------------------------------------------------------------


def _pillow_png(img: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=level)
    return out.getvalue()


def encoder_table(pool_dist: Sequence[Fraction]) -> None:
    png = render_distribution(
        pool_dist, threshold=10, x_label="successes", open_end=True,
        legend=[("fails (under 10)", FAIL), ("succeeds (10+)", PASS)],
    )  # fmt: skip
    img = Image.open(io.BytesIO(png)).convert("RGB")
    raw = img.tobytes()
    print(f"PNG encoders on the same {WIDTH}x{HEIGHT} chart (33 bars, labelled), median ms")
    encoders = {
        "Pillow img.save PNG, level 1 (the chart's encode_png)": lambda: encode_png(img),
        "stdlib zlib+struct, level 6 (the earlier chart's)": lambda: stdlib_png(raw, WIDTH, HEIGHT),
        "Pillow img.save PNG, level 6 (its default)": lambda: _pillow_png(img, 6),
    }
    base = None
    for name, fn in encoders.items():
        ms = _median_ms(fn)
        base = base or ms
        size = len(fn()) / 1024
        print(f"  {name:52}{ms:>7.2f} ms {ms / base:>6.2f}x {size:>7.1f} KiB")


def chart_table(pool_dist: Sequence[Fraction]) -> None:
    earlier = _median_ms(lambda: earlier_chart(pool_dist, 10))
    blank = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    floor = _median_ms(lambda: encode_png(blank))
    print(
        f"baselines: the earlier unlabelled 360x140 stdlib chart (33 bars) {earlier:.2f} ms;"
        f" encoding a blank {WIDTH}x{HEIGHT} card {floor:.2f} ms"
    )
    party = [
        PartyRow(f"Hero {i}", "Athletics", 2 + i % 9, test_odds(PoolSpec(base=2 + i % 9), 3))
        for i in range(40)
    ]
    damage = damage_odds((20, 12, 10, 10, 8, 8))
    task = task_odds(attribute=2, skill=1, difficulty=0)
    clash = clash_odds(PoolSpec(base=5), PoolSpec(base=4))
    pool = pool_odds(PoolSpec(base=30, determination=True))
    charts = {
        "HOCS pool, 33 bars vs difficulty 10": lambda: chart_file(pool, 10),
        "HOCS damage, 6 dice, 42 bars": lambda: damage_odds_embed(
            "Odds", damage, plain_top=68, reduction=0, hit=None, target=None, notes=[]
        ),
        "HOCS party, 40 characters": lambda: party_odds_embed("Athletics", Difficulty(3), party),
        "HOCS clash, 5 outcomes": lambda: clash_chart(clash, sides=("Aria", "Goblin")),
        "2d10 task, 7 rows": lambda: task_chart(task),
    }
    print(f"chart render, median ms (goal under {GOAL_MS:.0f} ms), x earlier chart, x blank card")
    for name, fn in charts.items():
        ms = _median_ms(lambda fn=fn: (text_width.cache_clear(), fn()))
        verdict = "under" if ms < GOAL_MS else "OVER"
        print(
            f"  {name:40}{ms:>7.2f} ms {ms / earlier:>7.1f}x {ms / floor:>6.1f}x"
            f"  ({verdict} {GOAL_MS:.0f} ms)"
        )


# Peak resident memory of the probing process itself (VmHWM starts afresh at exec).
_HWM = '[l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]'
_PROBES = {
    "Pillow (ours: bot.render.odds_chart)": "import bot.render.odds_chart as c",
    "Pillow, import + first chart": (
        "import bot.render.odds_chart as c; c.render_distribution([0.5, 0.5], threshold=1,"
        " x_label='successes')"
    ),
    "stdlib zlib+struct (the earlier chart)": "import zlib, struct",
    "matplotlib (Agg)": "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot",
}


def _probe(python: str, statement: str) -> str:
    code = (
        f"import time; t = time.perf_counter(); {statement}; ms = (time.perf_counter() - t)"
        f" * 1000; rss = int({_HWM}) / 1024; print(f'{{ms:.1f}} ms, {{rss:.1f}} MiB"
        " peak RSS')"
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False)
    return out.stdout.strip() or "not installed"


def import_figures(other_python: str | None) -> None:
    bare = subprocess.run(
        [sys.executable, "-c", f"print(int({_HWM}) / 1024)"], capture_output=True, text=True
    )
    print(f"bare interpreter peak RSS: {float(bare.stdout):.1f} MiB")
    for name, statement in _PROBES.items():
        python = (other_python or sys.executable) if "matplotlib" in name else sys.executable
        print(f"chart library {name}: {_probe(python, statement)}")


def main(other_python: str | None = None) -> None:
    dist = pool_odds(PoolSpec(base=30, determination=True)).dist
    encoder_table(dist)
    chart_table(dist)
    import_figures(other_python)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--chart-python", help="an interpreter with matplotlib to compare with")
    main(parser.parse_args().chart_python)
