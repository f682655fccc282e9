"""The /odds bar chart: one bar per outcome, drawn with Pillow into a PNG.

Each chart says what it shows: the x axis is named by the caller ("successes",
"damage dealt", …) and each bar has its tick (a number, or a name such as a to-hit
row), the y axis is "chance %" with grid lines, each bar carries its chance where
that fits (``bot.render.chart_labels`` decides), and a legend names what the
colours mean whenever they mean something (passing and failing bars, a clash's
sides); a chart of one colour has none. Colours and fonts: ``bot.render.chart_style``
(an opaque dark card, readable on Discord's dark and light themes; Pillow's bundled
font, no system fonts).

Pillow draws and writes the PNG (``encode_png``). A chart takes well under 20 ms
(``bench/odds_chart.py`` prints each kind beside the earlier unlabelled chart and the
encoders, in one run).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from fractions import Fraction

from PIL import Image, ImageDraw

from bot.render import chart_labels
from bot.render.chart_style import (
    AXIS,
    BACKGROUND,
    BORDER,
    FAIL,
    GRID,
    HEIGHT,
    LABEL_SIZE,
    LEGEND_SIZE,
    MUTED,
    NEUTRAL,
    PASS,
    RGB,
    TEXT,
    TICK_SIZE,
    VALUE_SIZE,
    WIDTH,
    font,
    grid_percent,
    line_height,
    text_width,
)

__all__ = ["AXIS", "FAIL", "NEUTRAL", "PASS", "Y_LABEL", "encode_png", "render_distribution"]

Y_LABEL = "chance %"
PAD = 14
_SWATCH = 16
_GRID_STEPS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5)
_GRID_LINES = 4  # at most, above the baseline


def _bar_colours(n: int, threshold: int | None, colours: Sequence[RGB] | None) -> list[RGB]:
    if colours is not None:
        if len(colours) != n:
            raise ValueError(f"{len(colours)} colours for {n} bars")
        return list(colours)
    if threshold is None:
        return [NEUTRAL] * n
    return [PASS if k >= threshold else FAIL for k in range(n)]


def _draw_turned(
    img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """``text`` reading upwards, its box's top-left corner at ``xy``."""
    w, h = text_width(text, size) + 2, line_height(size)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=font(size), fill=255)
    mask = mask.transpose(Image.Transpose.ROTATE_90)
    img.paste(fill, (round(xy[0]), round(xy[1])), mask)


def _legend_rows(legend: Sequence[tuple[str, RGB]], width: int) -> list[list[tuple[str, RGB]]]:
    rows: list[list[tuple[str, RGB]]] = [[]]
    used = 0
    for text, colour in legend:
        item = _SWATCH + 6 + text_width(text, LEGEND_SIZE) + 22
        if rows[-1] and used + item > width:
            rows.append([])
            used = 0
        rows[-1].append((text, colour))
        used += item
    return rows if legend else []


def _draw_legend(
    draw: ImageDraw.ImageDraw, rows: list[list[tuple[str, RGB]]], left: int, top: int
) -> None:
    lh = line_height(LEGEND_SIZE)
    for r, row in enumerate(rows):
        x, y = left, top + r * (lh + 4)
        for text, colour in row:
            sy = y + (lh - _SWATCH) // 2
            draw.rectangle((x, sy, x + _SWATCH - 1, sy + _SWATCH - 1), fill=colour, outline=TEXT)
            x += _SWATCH + 6
            draw.text((x, y), text, font=font(LEGEND_SIZE), fill=TEXT)
            x += text_width(text, LEGEND_SIZE) + 22


def _grid_step(top: float) -> float:
    return next((s for s in _GRID_STEPS if top / s <= _GRID_LINES), 1.0)


def render_distribution(
    probs: Sequence[Fraction | float],
    *,
    threshold: int | None,
    x_label: str,
    colours: Sequence[RGB] | None = None,
    legend: Sequence[tuple[str, RGB]] = (),
    ticks: Sequence[str] | None = None,
    first: int = 0,
    open_end: bool = False,
) -> bytes:
    """A PNG with one bar per chance in ``probs``.

    ``threshold``: the first bar index that passes (green from there, red before it);
    None: one colour, or ``colours``, one per bar (outcome charts such as a clash's).
    ``x_label``: what the bars count, under the axis. ``legend``: (text, colour) pairs
    naming what the colours mean. ``ticks``: a name under each bar; without them the
    bars are numbered from ``first``, the last one "n+" if ``open_end`` (it lumps n
    and more)."""
    values = [float(p) for p in probs] or [0.0]
    n = len(values)
    if ticks is not None and len(ticks) != n:
        raise ValueError(f"{len(ticks)} ticks for {n} bars")
    bar_colours = _bar_colours(n, threshold, colours)

    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=BORDER, width=2)

    label_h = line_height(LABEL_SIZE)
    tick_h = line_height(TICK_SIZE)  # also the room kept above the top grid line's label
    plot_left = PAD + label_h + 8 + text_width("100%", TICK_SIZE) + 8
    plot_right = WIDTH - PAD - 6
    slot = (plot_right - plot_left) / n
    if ticks is None:
        tick_row = chart_labels.numbered_ticks(n, slot, TICK_SIZE, first=first, open_end=open_end)
    else:
        tick_row = chart_labels.named_ticks(ticks, slot, TICK_SIZE)
    legend_rows = _legend_rows(legend, plot_right - plot_left)
    plot_top = PAD + len(legend_rows) * (line_height(LEGEND_SIZE) + 4) + tick_h // 2
    baseline = HEIGHT - PAD - label_h - 6 - tick_row.height - 8

    # Scale: the tallest bar leaves room above it for its value.
    vmax = max(values)
    usable = baseline - plot_top
    bar_room = usable - chart_labels.headroom(vmax, slot)
    scale_top = vmax * usable / bar_room if vmax > 0 else 0.1

    # Grid lines and their labels, behind the bars.
    step = _grid_step(scale_top)
    for i in range(int(scale_top / step + 1e-9) + 1):
        y = baseline - round(i * step / scale_top * usable)
        if i:
            draw.line((plot_left, y, plot_right, y), fill=GRID, width=1)
        draw.text(
            (plot_left - 8, y), grid_percent(step, i * step), font=font(TICK_SIZE),
            fill=MUTED, anchor="rm",
        )  # fmt: skip

    gap = max(1.0, slot * 0.12) if slot >= 6 else 0.0
    boxes = []
    for k, v in enumerate(values):
        x0 = plot_left + k * slot + gap
        x1 = max(x0 + 1, plot_left + (k + 1) * slot - gap)
        height = round(v / scale_top * usable) if vmax > 0 else 0
        boxes.append((x0, baseline - height, x1, baseline))
        if height:
            draw.rectangle((round(x0), baseline - height, round(x1) - 1, baseline - 1),
                           fill=bar_colours[k])  # fmt: skip
    draw.line((plot_left, baseline, plot_right, baseline), fill=AXIS, width=2)

    for value in chart_labels.place_values(values, boxes, (plot_left, PAD, plot_right, baseline)):
        left, top = value.box[0], value.box[1]
        if value.rotated:
            _draw_turned(img, (left, top), value.text, VALUE_SIZE, TEXT)
        else:
            draw.text((left, top), value.text, font=font(VALUE_SIZE), fill=TEXT)

    tick_top = baseline + 6
    for k, lines in tick_row.labels:
        mid, size = plot_left + (k + 0.5) * slot, tick_row.size
        if tick_row.rotated:
            # Reading upwards, its end just under the bar.
            _draw_turned(img, (mid - line_height(size) / 2, tick_top), lines[0], size, MUTED)
            continue
        for i, line in enumerate(lines):
            draw.text((mid, tick_top + i * tick_h), line, font=font(size), fill=MUTED,
                      anchor="ma")  # fmt: skip

    # Axis names: the x axis centred under its ticks, "chance %" reading upwards.
    if x_label:
        draw.text(((plot_left + plot_right) / 2, HEIGHT - PAD - label_h), x_label,
                  font=font(LABEL_SIZE), fill=TEXT, anchor="ma")  # fmt: skip
    y_w = text_width(Y_LABEL, LABEL_SIZE)
    _draw_turned(img, (PAD, (plot_top + baseline - y_w) / 2), Y_LABEL, LABEL_SIZE, TEXT)
    _draw_legend(draw, legend_rows, plot_left, PAD)

    return encode_png(img)


def encode_png(img: Image.Image) -> bytes:
    """The chart as a PNG by Pillow's own writer; zlib level 1, as charts are sent once
    and their flat colours compress well anyway (bench/odds_chart.py times the levels)."""
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    return out.getvalue()
