"""The recap's luck chart read back as an image: it decodes, marks 50 % where 50 % is,
draws every character in their own colour, names them in a legend that reads on the
card, cuts long names, keeps at most 12 characters and says how many it left out."""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image

from bot.render.chart_style import (
    AXIS,
    BACKGROUND,
    GRID,
    HEIGHT,
    LEGEND_SIZE,
    MUTED,
    TEXT,
    WIDTH,
    contrast,
    text_width,
)
from bot.render.odds_chart import PAD
from bot.render.recap_chart import (
    AVERAGE_LINE,
    LEGEND_WIDTH,
    MAX_SERIES,
    PALETTE,
    plan,
    render_luck_chart,
)
from bot.render.recap_chart_text import drawable
from tests.render.chart_helpers import open_png, text_pixels

LEGEND_LEFT = WIDTH - PAD - LEGEND_WIDTH
LEGEND = (LEGEND_LEFT, PAD, WIDTH - PAD, HEIGHT - PAD)
CHART = (0, 0, LEGEND_LEFT - 1, HEIGHT)  # everything left of the legend: plot, ticks, axes
# Far from 50 %, so no line runs along the 50 % row or the grid rows.
HIGH, LOW = [0.9, 0.9, 0.9], [0.1, 0.1]


def _render(series, **kw) -> Image.Image:
    return open_png(render_luck_chart(series, **kw)).convert("RGB")


def _rows_with(img: Image.Image, colour, least: int) -> list[int]:
    left, _, right, _ = CHART
    return [
        y
        for y in range(HEIGHT)
        if sum(img.getpixel((x, y)) == colour for x in range(left, right)) >= least
    ]


def _count(img: Image.Image, box, colour) -> int:
    return sum(n for n, rgb in img.crop(box).getcolors(WIDTH * HEIGHT) if rgb == colour)


def _same(a: Image.Image, b: Image.Image, box) -> bool:
    return a.crop(box).tobytes() == b.crop(box).tobytes()


def test_the_chart_is_an_opaque_800x400_png() -> None:
    img = open_png(render_luck_chart([("Mira", HIGH)]))  # verify()s the PNG, size, mode RGB
    assert img.getpixel((WIDTH // 2, HEIGHT - 4)) == BACKGROUND


def test_the_50_percent_line_is_halfway_between_the_0_and_100_percent_lines() -> None:
    img = _render([("Mira", HIGH), ("Kit", LOW)])
    zero = _rows_with(img, AXIS, 200)  # the x axis is the 0 % line, 1 px
    grid = _rows_with(img, GRID, 200)  # 25 %, 75 %, 100 % (50 % has the dashed line)
    half = _rows_with(img, AVERAGE_LINE, 200)  # dashes: 8 of every 13 px on
    assert len(zero) == 1 and len(grid) == 3 and len(half) == 3  # the dashes are 3 px thick
    y0, y100 = zero[0], grid[0]
    assert abs(half[1] - (y0 + y100) / 2) <= 0.5
    assert half == [half[1] - 1, half[1], half[1] + 1]
    # and the grid's 25 % and 75 % at the quarters
    assert abs(grid[1] - (y100 + (y0 - y100) / 4)) <= 0.5
    assert abs(grid[2] - (y100 + 3 * (y0 - y100) / 4)) <= 0.5


def test_the_50_percent_line_is_labelled_beside_it() -> None:
    img = _render([("Mira", HIGH), ("Kit", LOW)])
    y50 = _rows_with(img, AVERAGE_LINE, 200)[1]
    # Nothing else is drawn near the line here, so the text beside it is its label.
    assert text_pixels(img, (PAD + 100, y50 - 30, LEGEND_LEFT - 1, y50 - 3)) > 50


def test_the_running_mean_follows_each_roll() -> None:
    (mira,), more = plan([("Mira", [1.0, 0.0, 0.5, 0.9])])
    assert mira.means == (1.0, 0.5, 0.5, 0.6)
    assert more == 0


def test_each_characters_colour_is_drawn_and_no_other_series_colour() -> None:
    series = [(f"Hero {i}", [0.1 + 0.1 * i, 0.3]) for i in range(8)]
    img = _render(series)
    for colour in PALETTE[:8]:
        assert _count(img, CHART, colour) >= 20, colour  # the line and its markers
        assert _count(img, LEGEND, colour) >= 20, colour  # its swatch
    for colour in PALETTE[8:]:
        assert _count(img, (0, 0, WIDTH, HEIGHT), colour) == 0


def test_the_legend_names_each_character_with_their_final_mean() -> None:
    (mira,), _ = plan([("Mira", [0.5, 0.76])])
    assert f"{mira.name} {mira.percent}" == "Mira 63 %"

    a = _render([("Mira", [0.5, 0.76]), ("Kit", [0.2])])
    renamed = _render([("Rhea", [0.5, 0.76]), ("Kit", [0.2])])
    reordered = _render([("Mira", [0.76, 0.5]), ("Kit", [0.2])])  # same final mean
    other_mean = _render([("Mira", [0.5, 0.78]), ("Kit", [0.2])])
    assert text_pixels(a, LEGEND) > 100
    assert _same(a, renamed, CHART) and not _same(a, renamed, LEGEND)
    assert _same(a, reordered, LEGEND) and not _same(a, reordered, CHART)
    assert not _same(a, other_mean, LEGEND)


def test_the_legend_lists_the_luckiest_first() -> None:
    low_first = _render([("Kit", [0.2]), ("Mira", [0.9])])
    high_first = _render([("Mira", [0.9]), ("Kit", [0.2])])
    # Colours follow the caller's order, so the swatch at the top changes colour
    # (blue is the first series' colour, orange the second's) but the same name leads.
    top_row = (LEGEND_LEFT, PAD, LEGEND_LEFT + 28, PAD + 25)
    assert (
        _count(low_first, top_row, PALETTE[1]) > 0 and _count(low_first, top_row, PALETTE[0]) == 0
    )
    assert _count(high_first, top_row, PALETTE[0]) > 0
    names = (LEGEND_LEFT + 32, PAD, WIDTH - PAD, PAD + 50)
    assert _same(low_first, high_first, names)


def test_a_long_name_is_cut_with_an_ellipsis_inside_the_legend() -> None:
    (short, long_), _ = plan([("Mira", [0.5]), ("Bartholomew " * 20, [0.5])])
    assert short.name == "Mira"
    assert long_.name == "Bartholomew…"  # the room ends inside the second word
    assert text_width(f"{long_.name} {long_.percent}", LEGEND_SIZE) <= LEGEND_WIDTH - 36
    # Any longer name cuts to the same text: the image is the same byte for byte.
    assert render_luck_chart([("B" * 60, [0.5])]) == render_luck_chart([("B" * 600, [0.5])])
    img = _render([("W" * 300, [0.5])])
    assert text_pixels(img, (WIDTH - PAD, 0, WIDTH - 2, HEIGHT), floor=120) == 0


def test_13_characters_draw_12_and_the_legend_says_plus_1_more() -> None:
    series = [(f"Hero {i}", [0.05 + 0.07 * i]) for i in range(13)]
    drawn, more = plan(series)
    assert len(drawn) == MAX_SERIES == 12 and more == 1
    assert [s.name for s in drawn] == [f"Hero {i}" for i in range(12)]
    thirteen, twelve = _render(series), _render(series[:12])
    assert _same(thirteen, twelve, CHART)  # the 13th character has no line
    assert not _same(thirteen, twelve, LEGEND)  # "+1 more"
    more_row = (LEGEND_LEFT, HEIGHT - PAD - 60, WIDTH - PAD, HEIGHT - PAD)
    assert text_pixels(thirteen, more_row, floor=150) > text_pixels(twelve, more_row, floor=150)
    for colour in PALETTE:
        assert _count(thirteen, CHART, colour) > 0


def test_characters_without_scored_rolls_are_left_out_and_not_counted() -> None:
    drawn, more = plan([("Mira", [0.4]), ("Kit", []), *[(f"H{i}", [0.5]) for i in range(11)]])
    assert [s.name for s in drawn][:2] == ["Mira", "H0"] and len(drawn) == 12 and more == 0


def test_no_scored_rolls_draw_a_card_that_says_so() -> None:
    empty = render_luck_chart([])
    assert render_luck_chart([("Mira", []), ("Kit", [])]) == empty
    img = open_png(empty).convert("RGB")
    assert (
        text_pixels(img, (WIDTH // 2 - 100, HEIGHT // 2 - 20, WIDTH // 2 + 100, HEIGHT // 2 + 20))
        > 100
    )
    assert _count(img, (0, 0, WIDTH, HEIGHT), AVERAGE_LINE) < 200  # text only: no axes


def test_a_percentile_outside_0_to_1_is_a_callers_bug() -> None:
    with pytest.raises(ValueError, match=r"outside 0\.\.1"):
        render_luck_chart([("Mira", [0.5, 1.2])])
    with pytest.raises(ValueError):
        render_luck_chart([("Mira", [float("nan")])])


def test_a_title_is_drawn_above_the_chart() -> None:
    plain = _render([("Mira", HIGH)])
    titled = _render([("Mira", HIGH)], title="Session 4")
    assert text_pixels(titled, (PAD, PAD, WIDTH // 2, PAD + 20)) > text_pixels(
        plain, (PAD, PAD, WIDTH // 2, PAD + 20)
    )


def test_the_chart_is_the_same_for_the_same_evening() -> None:
    series = [("Mira", [0.3, 0.8, 0.55]), ("Kit", [0.9])]
    assert render_luck_chart(series) == render_luck_chart(series)


# --- Readable on the card, whatever Discord theme is behind it -------------------------


@pytest.mark.parametrize("colour", [TEXT, MUTED])
def test_the_legends_text_colours_read_on_the_card_at_wcag_aa(colour) -> None:
    assert contrast(colour, BACKGROUND) >= 4.5


def test_the_legend_is_written_in_the_text_colour() -> None:
    img = _render([("Mira", HIGH)])
    names = (LEGEND_LEFT + 32, PAD, WIDTH - PAD, PAD + 25)
    assert _count(img, names, TEXT) > 20  # the glyphs' solid pixels


def test_every_series_colour_stands_out_from_the_card_and_from_each_other() -> None:
    assert len(PALETTE) == MAX_SERIES == len(set(PALETTE))
    for colour in PALETTE:
        assert contrast(colour, BACKGROUND) >= 3.0  # WCAG's ratio for graphics
        assert colour not in (TEXT, MUTED, AXIS, GRID, AVERAGE_LINE)
    closest = min(_delta_e(a, b) for a, b in itertools.combinations(PALETTE, 2))
    assert closest >= 20  # CIE76: clearly different hues, even the closest pair


def _delta_e(a, b) -> float:
    return math.dist(_lab(a), _lab(b))


def _lab(rgb) -> tuple[float, float, float]:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


# --- Names are user text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "drawn"),
    [
        ("Zoë", "Zoe"),  # the bundled font has no "ë": the letter without its accent
        ("Zoe\u0308", "Zoe"),  # the same, written as e + combining diaeresis
        ("Straße", "Strasse"),
        ("Sam—Ray", "Sam-Ray"),
        ("中村", "??"),  # a script the font lacks: "?" rather than empty boxes
        ("Bob\n\tthe   Bold", "Bob the Bold"),  # one line
        ("a\u200db", "ab"),  # a zero-width joiner takes no room
        ("**Mira** <@123>", "**Mira** <@123>"),  # no markup in an image: drawn as typed
    ],
)
def test_names_are_drawn_in_characters_the_font_has(name: str, drawn: str) -> None:
    assert drawable(name) == drawn


def test_an_accented_name_draws_as_its_plain_letters_not_as_boxes() -> None:
    assert render_luck_chart([("Zoë", [0.5])]) == render_luck_chart([("Zoe", [0.5])])
