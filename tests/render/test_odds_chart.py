"""The /odds chart drawn by Pillow: it decodes, names its axes, labels its bars, explains
its colours, and its text reads on the card whatever Discord theme is behind it."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from bot.render import chart_labels
from bot.render.chart_style import (
    BACKGROUND,
    LABEL_FLOOR,
    MUTED,
    TEXT,
    TICK_SIZE,
    bar_percent,
    contrast,
    font,
    ink_height,
    text_width,
)
from bot.render.odds_chart import FAIL, NEUTRAL, PASS, encode_png, render_distribution
from tests.render.chart_helpers import (
    bar_runs,
    colours_in,
    legend_box,
    open_png,
    text_pixels,
    x_label_box,
    y_label_box,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
HALVES = [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]


@pytest.mark.parametrize("colour", [TEXT, MUTED])
def test_every_text_colour_reads_on_the_card_at_wcag_aa(colour) -> None:
    # The card is opaque, so this holds on Discord's dark and light themes alike.
    assert contrast(colour, BACKGROUND) >= 4.5


def test_contrast_is_the_wcag_ratio() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((30, 31, 34), (30, 31, 34)) == 1.0


def test_the_font_is_pillows_own_and_no_system_file() -> None:
    f = font(TICK_SIZE)
    assert isinstance(f, ImageFont.FreeTypeFont)
    assert not isinstance(f.path, str)  # read from Pillow's package data, not a font file
    assert f.size == TICK_SIZE


def test_a_chart_renders_without_any_fontconfig_file(tmp_path) -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "FONTCONFIG_FILE": str(tmp_path / "missing.conf"),
        "FONTCONFIG_PATH": str(tmp_path / "missing"),
        "XDG_DATA_DIRS": str(tmp_path),
        "PYTHONPATH": str(REPO_ROOT),
    }
    code = (
        "from bot.render.odds_chart import render_distribution as r;"
        "import sys; sys.stdout.buffer.write(r([0.5, 0.5], threshold=1, x_label='successes'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    img = open_png(done.stdout)
    assert text_pixels(img, x_label_box()) > 0


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(1), "100%"),
        (Fraction(199, 200), ">99%"),  # 99.5% is not a certainty
        (Fraction(37, 100), "37%"),
        (Fraction(1, 10), "10%"),
        (Fraction(42, 1000), "4.2%"),
        (Fraction(1, 1000), "0.1%"),
        (Fraction(1, 10000), "<0.1%"),
    ],
)
def test_bar_values_are_short_percentages(p, text) -> None:
    assert bar_percent(p) == text


def test_the_chart_decodes_as_an_opaque_png_of_the_card_size() -> None:
    img = open_png(render_distribution(HALVES, threshold=1, x_label="successes"))
    assert img.getpixel((400, 30)) == BACKGROUND


def test_the_png_holds_exactly_the_pixels_pillow_drew() -> None:
    img = Image.new("RGB", (800, 400), BACKGROUND)
    img.putpixel((3, 5), PASS)
    img.putpixel((799, 399), FAIL)
    assert open_png(encode_png(img)).tobytes() == img.tobytes()


def test_the_x_axis_is_named_and_the_y_axis_says_chance() -> None:
    named = open_png(render_distribution(HALVES, threshold=None, x_label="successes"))
    blank = open_png(render_distribution(HALVES, threshold=None, x_label=""))
    assert text_pixels(named, x_label_box()) > 50
    assert text_pixels(blank, x_label_box()) == 0
    # "chance %" reads upwards down the left edge on both.
    assert text_pixels(blank, y_label_box()) > 50


def test_values_are_written_above_the_bars() -> None:
    with_values = open_png(render_distribution(HALVES, threshold=None, x_label=""))
    nothing = open_png(render_distribution([0, 0, 0], threshold=None, x_label=""))
    # The plot's middle, above where the 50% bar's top is: "50%" is there, in TEXT.
    plot = (120, 40, 780, 300)
    assert text_pixels(with_values, plot) > 50
    assert text_pixels(nothing, plot) == 0


def test_threshold_colours_failures_red_and_passes_green_with_a_legend() -> None:
    legend = [("fails (under 2)", FAIL), ("succeeds (2+)", PASS)]
    png = render_distribution([0.2, 0.3, 0.3, 0.2], threshold=2, x_label="x", legend=legend)
    img = open_png(png)
    assert bar_runs(img) == [FAIL, PASS]  # bars 0-1 red, 2-3 green
    assert {FAIL, PASS} <= colours_in(img, legend_box())  # the swatches
    assert text_pixels(img, legend_box()) > 50  # and their words


def test_a_chart_of_one_colour_has_no_legend() -> None:
    falling = [0.5, 0.25, 0.25]  # the tallest bar (and its value) at the left
    img = open_png(render_distribution(falling, threshold=None, x_label="x"))
    assert bar_runs(img) == [NEUTRAL]
    right = (500, *legend_box()[1:])
    assert text_pixels(img, right) == 0
    assert NEUTRAL not in colours_in(img, legend_box())  # no swatch
    legend = [("a long first legend entry", PASS), ("and a second one", FAIL)]
    labelled = render_distribution(falling, threshold=None, x_label="x", legend=legend)
    assert text_pixels(open_png(labelled), right) > 0


def test_colours_per_bar_are_drawn_in_order() -> None:
    colours = [(10, 200, 10), PASS, FAIL]
    img = open_png(render_distribution(HALVES, threshold=None, x_label="x", colours=colours))
    assert bar_runs(img) == colours


def test_mismatched_colours_or_ticks_are_refused() -> None:
    with pytest.raises(ValueError, match="2 colours for 3 bars"):
        render_distribution(HALVES, threshold=None, x_label="x", colours=[PASS, FAIL])
    with pytest.raises(ValueError, match="1 ticks for 3 bars"):
        render_distribution(HALVES, threshold=None, x_label="x", ticks=["a"])


def test_no_bars_at_all_still_draws_an_empty_chart() -> None:
    img = open_png(render_distribution([], threshold=None, x_label="player character"))
    assert text_pixels(img, x_label_box()) > 0


# --- Where the words go (bot.render.chart_labels) --------------------------------------


def _spans(ticks: chart_labels.Ticks, slot: float) -> list[tuple[float, float]]:
    spans = []
    for k, lines in ticks.labels:
        w = max(text_width(line, ticks.size) for line in lines)
        mid = (k + 0.5) * slot
        spans.append((mid - w / 2, mid + w / 2))
    return spans


def test_numbered_ticks_all_written_when_there_is_room() -> None:
    ticks = chart_labels.numbered_ticks(6, 100, TICK_SIZE, first=0, open_end=True)
    assert ticks.labels == [(0, ["0"]), (1, ["1"]), (2, ["2"]), (3, ["3"]), (4, ["4"]), (5, ["5+"])]


@pytest.mark.parametrize("n", [12, 34, 43, 66])
def test_many_numbered_ticks_are_thinned_never_overlap_and_keep_the_open_end(n) -> None:
    slot = 680 / n
    ticks = chart_labels.numbered_ticks(n, slot, TICK_SIZE, first=0, open_end=True)
    written = [k for k, _ in ticks.labels]
    assert written[0] == 0
    assert ticks.labels[-1] == (n - 1, [f"{n - 1}+"])
    step = written[1] - written[0]
    assert step in (1, 2, 5, 10)
    assert all(k % step == 0 for k in written[:-1])  # round numbers, the open end aside
    spans = _spans(ticks, slot)
    assert all(a[1] < b[0] for a, b in pairwise(spans))


def test_named_ticks_wrap_onto_two_lines_or_break_where_asked() -> None:
    ticks = chart_labels.named_ticks(["extreme failure", "you\nby 2+", "failure"], 100, TICK_SIZE)
    assert not ticks.rotated
    assert ticks.labels == [(0, ["extreme", "failure"]), (1, ["you", "by 2+"]), (2, ["failure"])]


def test_a_name_too_long_for_its_bar_ends_in_an_ellipsis() -> None:
    ticks = chart_labels.named_ticks(["Aurelia Montgomery-Fitzgerald", "Bo"], 120, TICK_SIZE)
    (_, first), (_, second) = ticks.labels
    assert first[0] == "Aurelia"
    assert first[1].endswith("…") and "Montgomery".startswith(first[1][:-1][:5])
    assert second == ["Bo"]


def test_forty_names_turn_upwards_smaller_and_are_all_written() -> None:
    names = [f"Hero{i}" for i in range(40)]
    slot = 680 / 40
    ticks = chart_labels.named_ticks(names, slot, TICK_SIZE)
    assert ticks.rotated
    assert ticks.size < TICK_SIZE and ink_height(ticks.size) + 3 <= slot
    assert [lines for _, lines in ticks.labels] == [[n] for n in names]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_values_sit_above_wide_bars_flat() -> None:
    bars = [(0, 200, 90, 300), (100, 100, 190, 300)]
    placed = chart_labels.place_values([0.25, 0.5], bars, (0, 0, 200, 300))
    assert [(v.text, v.rotated) for v in placed] == [("50%", False), ("25%", False)]
    assert all(v.box[3] <= bar[1] for v, bar in zip(placed, bars[::-1], strict=True))


def test_crowded_values_never_cover_a_bar_or_each_other_and_the_largest_wins() -> None:
    # 40 bars 17 px wide, a bell of heights: no room for every value.
    values = [max(0.0, 0.08 - abs(k - 20) * 0.006) for k in range(40)]
    top = max(values)
    bars = [(k * 17 + 2, 300 - v / top * 250, k * 17 + 15, 300) for k, v in enumerate(values)]
    placed = chart_labels.place_values(values, bars, (0, 0, 680, 300))
    assert placed[0].text == "8.0%"  # the tallest bar keeps its value
    assert len(placed) < sum(v >= LABEL_FLOOR for v in values)  # some had to go
    boxes = [v.box for v in placed]
    for i, box in enumerate(boxes):
        assert box[0] >= 0 and box[2] <= 680 and box[1] >= 0
        assert not any(_overlap(box, other) for other in boxes[i + 1 :])
        assert not any(_overlap(box, bar) for bar in bars)


def test_tiny_values_get_no_label_and_an_edge_value_moves_inwards() -> None:
    bars = [(0, 100, 10, 300), (20, 299, 30, 300)]
    placed = chart_labels.place_values([0.5, LABEL_FLOOR / 2], bars, (0, 0, 400, 300))
    assert [v.text for v in placed] == ["50%"]
    assert placed[0].box[0] == 0  # shifted right to stay inside the plot
