"""Colours, fonts and number formats of the /odds charts (``bot.render.odds_chart``).

The chart is an opaque mid-dark card with light text, so it reads the same on
Discord's dark theme (where it sits a shade darker than the chat, framed by a
lighter border) and on its light theme (a dark card on white): no colour depends
on what is behind the image. Every text colour has a contrast ratio of at least
4.5 against the card (WCAG AA for text; tests/render/test_chart_style.py).

The font is the one Pillow bundles (``ImageFont.load_default(size=…)``, scalable
since Pillow 10.1): it is read from Pillow's own package data, so no system font,
fontconfig file or download is needed on the host.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from PIL import ImageFont

RGB = tuple[int, int, int]

# Drawn at twice the size Discord shows an embed image (about 400 px wide), so the
# text stays sharp on high-density screens and about 10 px tall at 1:1.
WIDTH, HEIGHT = 800, 400

BACKGROUND: RGB = (30, 31, 34)
BORDER: RGB = (78, 80, 88)
GRID: RGB = (56, 58, 64)
TEXT: RGB = (235, 236, 238)  # axis labels, legend, values on the bars
MUTED: RGB = (181, 186, 193)  # tick and grid labels
AXIS: RGB = (148, 155, 164)  # the baseline; also a neutral bar colour (a clash's stand-off)

FAIL: RGB = (237, 66, 69)
PASS: RGB = (87, 242, 135)
NEUTRAL: RGB = (88, 101, 242)  # one colour for every bar: no legend is drawn

VALUE_SIZE = 19
TICK_SIZE = 19
LABEL_SIZE = 21
LEGEND_SIZE = 20

MIN_TURNED_SIZE = 13  # names under many narrow bars shrink to this, no smaller

# A value under 0.1% gets no label: its bar is under a pixel, a row of "<0.1%" would
# crowd out the values worth reading, and the embed beside the chart lists it exactly.
LABEL_FLOOR = 0.001


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (cached: loading parses the font)."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """Cached: laying out a chart measures the same words many times (wrapping, "…")."""
    return round(font(size).getlength(text))


def line_height(size: int) -> int:
    """Ascent plus descent: the height one line of ``size`` takes."""
    f = font(size)
    if isinstance(f, ImageFont.FreeTypeFont):
        ascent, descent = f.getmetrics()
        return ascent + descent
    return size


def ink_height(size: int) -> int:
    """From the top of an "H" to the bottom of a "g": how close turned lines may sit."""
    top, bottom = font(size).getbbox("Hg")[1::2]
    return round(bottom - top)


def bar_percent(p: Fraction | float) -> str:
    """A bar's value, short enough to sit on a bar: "37%", "4.2%", "<0.1%", ">99%".

    The embed beside the chart has the exact figures; the chart only has to be read."""
    v = float(p) * 100
    if v >= 100:
        return "100%"
    if v >= 99.5:
        return ">99%"  # "100%" would claim a certainty the odds don't have
    if v >= 10:
        return f"{v:.0f}%"
    if v >= 0.1:
        return f"{v:.1f}%"
    return "<0.1%"


def grid_percent(step: float, value: float) -> str:
    """A grid line's label, with as many decimals as the step needs."""
    v = value * 100
    if step * 100 >= 1:
        return f"{v:.0f}%"
    return f"{v:.1f}%"


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance."""
    r, g, b = (_channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
