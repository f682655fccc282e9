"""The session recap's luck chart: each character's running luck over the evening.

One line per character: after each of their scored rolls, the mean percentile of
their rolls so far (``bot.rules.generic.luck``: 50 % is exactly average luck), with a
marker on every roll. A dashed line marks 50 %, labelled "50 % = average luck"; the
y axis is "luck (mean percentile) %", 0 to 100 with grid lines every 25; a legend at
the right names each character beside their colour and marker with their final mean
("Mira 63 %", rounded as the recap embed rounds it), luckiest first.

Choices, and why:

* **The x axis counts each character's own rolls** (their 1st, 2nd, … scored roll),
  not the night's roll index. A running mean is a function of how many rolls it
  rests on, so this reads as "where was Mira's luck after 10 rolls" and lines can be
  compared at equal weight; on the night's index a character who rolls rarely would
  be a few far-apart points, and the caller would have to pass the interleaving. The
  lines are of different lengths: the longest ends at the right edge.
* **Colours** (``PALETTE``): 12 hues, each at least 3:1 against the card (WCAG's
  ratio for graphics), the most distinct 8 first as most tables are smaller; each
  series also cycles through four marker shapes, so neighbours in the palette
  differ in shape too (colour-blind readers, overlapping lines). Only the first
  ``MAX_SERIES`` characters (in the caller's order) are drawn; the legend's last row
  says "+N more". Characters without scored rolls have no line and are left out
  before that count (the recap embed lists them).
* **Names are user text**, drawn as pixels (no markup can apply), whitespace and line
  breaks folded to single spaces, characters the bundled font lacks replaced
  (``bot.render.recap_chart_text``: "Zoë" -> "Zoe", else "?"), cut with "…" to the
  legend's column.
* **No scored rolls**: the chart is still a PNG, a card saying "no scored rolls".
  One return type is the simpler caller: it attaches the file whatever the evening
  was, and may skip it by testing its own input when it prefers.
* **Markers** shrink as rolls crowd the axis and disappear below 4 px a roll (a
  5,000-roll evening): the line alone reads there.

Style, font and encoder are the /odds charts' (``bot.render.chart_style``,
``bot.render.odds_chart.encode_png``): an opaque dark card that reads on Discord's
dark and light themes. Render time: ``bench/recap_chart.py`` (goal under 20 ms for 8
characters x 60 rolls).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from bot.render import chart_labels
from bot.render.chart_labels import ellipsize
from bot.render.chart_style import (
    AXIS,
    BACKGROUND,
    BORDER,
    GRID,
    HEIGHT,
    LABEL_SIZE,
    LEGEND_SIZE,
    MUTED,
    RGB,
    TEXT,
    TICK_SIZE,
    WIDTH,
    font,
    line_height,
    text_width,
)
from bot.render.odds_chart import PAD, _draw_turned, encode_png
from bot.render.recap_chart_text import drawable

__all__ = [
    "AVERAGE_LABEL",
    "AVERAGE_LINE",
    "EMPTY_TEXT",
    "MAX_SERIES",
    "PALETTE",
    "X_LABEL",
    "Y_LABEL",
    "Series",
    "plan",
    "render_luck_chart",
]

X_LABEL = "rolls in order (each character's own count)"
Y_LABEL = "luck (mean percentile) %"
AVERAGE_LABEL = "50 % = average luck"
EMPTY_TEXT = "no scored rolls"
AVERAGE_LINE: RGB = TEXT  # the brightest ink on the card: no series colour is near it
MAX_SERIES = 12

PALETTE: tuple[RGB, ...] = (
    (88, 166, 255),  # blue
    (255, 159, 67),  # orange
    (87, 242, 135),  # green
    (255, 107, 129),  # rose
    (179, 136, 255),  # violet
    (254, 231, 92),  # yellow
    (69, 221, 230),  # cyan
    (245, 121, 230),  # magenta
    (176, 224, 64),  # lime
    (40, 190, 150),  # teal
    (222, 170, 120),  # tan
    (200, 120, 60),  # brown
)
SHAPES = ("circle", "square", "triangle", "diamond")

LEGEND_WIDTH = 230  # the column at the right: about 14 characters of name
_SWATCH = 28  # a short stretch of line with its marker
_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class Series:
    """One character as drawn: ``name`` cut to fit, ``means`` the running means."""

    name: str
    colour: RGB
    shape: str
    means: tuple[float, ...]

    @property
    def final(self) -> float:
        return self.means[-1]

    @property
    def percent(self) -> str:
        # round() as bot.render.recap.luck_line rounds: the chart and the embed agree.
        return f"{round(self.final * 100)} %"


def _running_means(name: str, values: Sequence[float]) -> tuple[float, ...]:
    means, total = [], 0.0
    for i, v in enumerate(values, 1):
        v = float(v)
        if not 0.0 <= v <= 1.0:  # also NaN: a percentile out of range is a caller's bug
            raise ValueError(f"{name!r}: percentile {v!r} is outside 0..1")
        total += v
        means.append(total / i)
    return tuple(means)


def _legend_name(name: str, percent: str) -> str:
    room = LEGEND_WIDTH - _SWATCH - 8 - text_width(" " + percent, LEGEND_SIZE)
    return ellipsize(drawable(name) or "?", room, LEGEND_SIZE)


def plan(series: Sequence[tuple[str, Sequence[float]]]) -> tuple[list[Series], int]:
    """The characters drawn (in the caller's order, colours by that order) and how many
    with scored rolls were left out beyond ``MAX_SERIES``. Pure: no pixels."""
    scored = [(name, values) for name, values in series if len(values)]
    drawn = []
    for i, (name, values) in enumerate(scored[:MAX_SERIES]):
        means = _running_means(name, values)
        cut = _legend_name(name, f"{round(means[-1] * 100)} %")
        drawn.append(Series(cut, PALETTE[i], SHAPES[i % len(SHAPES)], means))
    return drawn, max(0, len(scored) - MAX_SERIES)


def _marker(draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: int, fill: RGB) -> None:
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=fill)
    elif shape == "triangle":
        draw.polygon(((x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)), fill=fill)
    else:
        s = r + 1
        draw.polygon(((x, y - s), (x + s, y), (x, y + s), (x - s, y)), fill=fill)


def _samples(
    points: list[tuple[float, float]], low: float, high: float
) -> list[tuple[float, float]]:
    """Points along a line every ~10 px between rows ``low`` and ``high``: what the 50 %
    label, in that band, must not hide. (The band keeps this cheap: a line far from
    50 % is never sampled.)"""
    out = [(x, y) for x, y in points if low <= y <= high]
    for (x0, y0), (x1, y1) in pairwise(points):
        if max(y0, y1) < low or min(y0, y1) > high:
            continue
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / 10))
        out.extend((x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(1, n))
    return out


def _average_label_box(
    y50: int, plot: tuple[int, int, int, int], paths: list[list[tuple[float, float]]]
) -> tuple[int, int, int, int]:
    """Beside the 50 % line where it covers the fewest points of the lines (it is drawn
    over them, on the card's colour, so it always reads): above or below the line, at
    one of five places along it; ties go to above, then to the right."""
    w, h = text_width(AVERAGE_LABEL, TICK_SIZE) + 8, line_height(TICK_SIZE)
    left, _, right, _ = plot
    margin = 5  # a marker's radius and a little air
    low, high = y50 - 4 - h - margin, y50 + 5 + h + margin
    samples = [p for points in paths for p in _samples(points, low, high)]
    boxes = []
    for y0 in (y50 - 4 - h, y50 + 5):
        for k in range(4, -1, -1):
            x0 = round(left + 4 + k * (right - left - 8 - w) / 4)
            boxes.append((x0, y0, x0 + w, y0 + h))

    samples.sort()
    xs = [x for x, _ in samples]

    def covered(b: tuple[int, int, int, int]) -> int:
        y0, y1 = b[1] - margin, b[3] + margin
        inside = samples[bisect_left(xs, b[0] - margin) : bisect_right(xs, b[2] + margin)]
        return sum(y0 <= y <= y1 for _, y in inside)

    return min(boxes, key=covered)


def _card(title: str | None) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=BORDER, width=2)
    top = PAD
    if title:
        text = ellipsize(drawable(title), WIDTH - 2 * PAD, LABEL_SIZE)
        draw.text((PAD, top), text, font=font(LABEL_SIZE), fill=TEXT)
        top += line_height(LABEL_SIZE) + 6
    return img, draw, top


def _draw_legend(
    draw: ImageDraw.ImageDraw, drawn: list[Series], more: int, top: int, marker: int
) -> None:
    left = WIDTH - PAD - LEGEND_WIDTH
    lh = line_height(LEGEND_SIZE)
    rows = len(drawn) + (1 if more else 0)
    pitch = min(lh + 4, (HEIGHT - PAD - top) // max(1, rows))
    # Luckiest first: the legend reads as a ranking. sorted() is stable: ties keep order.
    for r, s in enumerate(sorted(drawn, key=lambda s: -s.final)):
        y = top + r * pitch
        mid = y + lh / 2
        draw.line((left, mid, left + _SWATCH - 4, mid), fill=s.colour, width=3)
        _marker(draw, s.shape, left + (_SWATCH - 4) / 2, mid, max(marker, 4), s.colour)
        draw.text((left + _SWATCH + 4, y), f"{s.name} {s.percent}", font=font(LEGEND_SIZE),
                  fill=TEXT)  # fmt: skip
    if more:
        y = top + len(drawn) * pitch
        draw.text((left + _SWATCH + 4, y), f"+{more} more", font=font(LEGEND_SIZE), fill=MUTED)


def render_luck_chart(
    series: Sequence[tuple[str, Sequence[float]]], *, title: str | None = None
) -> bytes:
    """A PNG: each character's running mean percentile after each of their rolls.

    ``series``: (character name, their rolls' luck percentiles in 0..1 in the order
    rolled). Pass the rolls ``luck_summary`` scores (certain results left out), so the
    legend's final mean is the recap's. ``title``: a line above the chart (user text
    is fine). No scored rolls at all: a card saying "no scored rolls"."""
    drawn, more = plan(series)
    img, draw, top = _card(title)
    if not drawn:
        draw.text((WIDTH / 2, (top + HEIGHT - PAD) / 2), EMPTY_TEXT, font=font(LABEL_SIZE),
                  fill=TEXT, anchor="mm")  # fmt: skip
        return encode_png(img)

    n = max(len(s.means) for s in drawn)
    label_h, tick_h = line_height(LABEL_SIZE), line_height(TICK_SIZE)
    plot_left = PAD + label_h + 8 + text_width("100 %", TICK_SIZE) + 8
    plot_right = WIDTH - PAD - LEGEND_WIDTH - 16
    slot = (plot_right - plot_left) / n
    ticks = chart_labels.numbered_ticks(n, slot, TICK_SIZE, first=1, open_end=False)
    plot_top = top + tick_h // 2  # room for the "100 %" label's upper half
    baseline = HEIGHT - PAD - label_h - 6 - ticks.height - 8
    usable = baseline - plot_top

    def y_of(v: float) -> int:
        return baseline - round(v * usable)

    # Grid and its labels; 50 % gets the average line instead of a grid line.
    for v in _GRID:
        y = y_of(v)
        if v == 0.0:
            draw.line((plot_left, y, plot_right, y), fill=AXIS, width=1)
        elif v != 0.5:
            draw.line((plot_left, y, plot_right, y), fill=GRID, width=1)
        draw.text((plot_left - 8, y), f"{round(v * 100)} %", font=font(TICK_SIZE), fill=MUTED,
                  anchor="rm")  # fmt: skip

    marker = 4 if slot >= 12 else 3 if slot >= 7 else 2 if slot >= 4 else 0
    paths = []
    for s in drawn:
        points = [(plot_left + (k + 0.5) * slot, y_of(m)) for k, m in enumerate(s.means)]
        paths.append(points)
        if len(points) > 1:
            draw.line(points, fill=s.colour, width=3 if slot >= 4 else 2)
    if marker:
        for s, points in zip(drawn, paths, strict=True):
            for x, y in points:
                _marker(draw, s.shape, x, y, marker, s.colour)

    # The 50 % line over the data, so it shows however many lines run along it; its
    # gaps let them show through. Dashes 8 px on, 5 off, 3 px thick (centred on y50).
    y50 = y_of(0.5)
    for x in range(plot_left, plot_right, 13):
        draw.line((x, y50, min(x + 7, plot_right), y50), fill=AVERAGE_LINE, width=3)
    box = _average_label_box(y50, (plot_left, plot_top, plot_right, baseline), paths)
    draw.rectangle(box, fill=BACKGROUND)
    draw.text((box[0] + 4, box[1]), AVERAGE_LABEL, font=font(TICK_SIZE), fill=TEXT)

    tick_top = baseline + 6
    for k, lines in ticks.labels:
        draw.text((plot_left + (k + 0.5) * slot, tick_top), lines[0], font=font(ticks.size),
                  fill=MUTED, anchor="ma")  # fmt: skip
    draw.text(((plot_left + plot_right) / 2, HEIGHT - PAD - label_h), X_LABEL,
              font=font(LABEL_SIZE), fill=TEXT, anchor="ma")  # fmt: skip
    y_w = text_width(Y_LABEL, LABEL_SIZE)
    _draw_turned(img, (PAD, (plot_top + baseline - y_w) / 2), Y_LABEL, LABEL_SIZE, TEXT)
    _draw_legend(draw, drawn, more, top, marker)
    return encode_png(img)
