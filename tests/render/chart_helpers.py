"""Reading the /odds charts back as images: regions, text pixels, bar colours."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.chart_style import HEIGHT, LABEL_SIZE, LEGEND_SIZE, WIDTH, line_height
from bot.render.odds_chart import AXIS, PAD


def open_png(png: bytes) -> Image.Image:
    """The chart decoded (``verify`` first: it checks the PNG's chunks and CRCs)."""
    Image.open(io.BytesIO(png)).verify()
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    assert img.size == (WIDTH, HEIGHT)
    assert img.mode == "RGB"  # opaque: no theme shows through
    return img


def text_pixels(img: Image.Image, box: tuple[int, int, int, int], floor: int = 200) -> int:
    """Pixels in ``box`` bright on every channel: text (TEXT or MUTED), never a bar."""
    colours = img.crop(box).getcolors(WIDTH * HEIGHT) or []
    return sum(count for count, rgb in colours if min(rgb) >= floor)


def x_label_box() -> tuple[int, int, int, int]:
    return (PAD, HEIGHT - PAD - line_height(LABEL_SIZE), WIDTH - PAD, HEIGHT - PAD)


def y_label_box() -> tuple[int, int, int, int]:
    return (PAD, PAD, PAD + line_height(LABEL_SIZE), HEIGHT - PAD)


def legend_box() -> tuple[int, int, int, int]:
    return (PAD, PAD, WIDTH - PAD, PAD + line_height(LEGEND_SIZE))


def colours_in(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {rgb for _, rgb in img.crop(box).getcolors(WIDTH * HEIGHT)}


def baseline(img: Image.Image) -> int:
    """The row of the x axis: the lowest row mostly in the axis colour."""
    rows = [y for y in range(HEIGHT) if _count(img, y, AXIS) > WIDTH // 2]
    return max(rows)


def _count(img: Image.Image, y: int, colour: tuple[int, int, int]) -> int:
    return sum(1 for x in range(WIDTH) if img.getpixel((x, y)) == colour)


def bar_runs(img: Image.Image) -> list[tuple[int, int, int]]:
    """The colours of the bars met left to right along a row just above the axis
    (bars at least 4 px tall), one entry per run of same-coloured pixels."""
    axis = baseline(img)
    y = axis - 4  # the axis is 2 px thick; its top row is baseline - 1
    runs: list[tuple[int, int, int]] = []
    background = img.getpixel((WIDTH // 2, PAD + 2))
    start = next(x for x in range(WIDTH) if img.getpixel((x, axis)) == AXIS)
    for x in range(start, WIDTH - PAD):
        rgb = img.getpixel((x, y))
        if rgb != background and (not runs or runs[-1] != rgb):
            runs.append(rgb)
    return runs
