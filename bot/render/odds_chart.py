"""A small PNG bar chart of a success distribution, drawn in-process with the stdlib.

Neither Pillow nor matplotlib is needed: a bar chart is rectangles, and a PNG is
zlib-compressed rows behind three chunks. That costs no import time or memory
beyond ``zlib`` (already loaded by the interpreter's own modules) and renders in
about a millisecond. Bars at or above the difficulty are green, below it red;
a thin grey baseline and one tick per success count keep it readable without
any font.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from fractions import Fraction

WIDTH, HEIGHT = 360, 140
MARGIN = 8
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so the chart sits flush in the embed
FAIL = (237, 66, 69)
PASS = (87, 242, 135)
NEUTRAL = (88, 101, 242)
AXIS = (148, 155, 164)


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(rows: Sequence[bytearray], width: int, height: int) -> bytes:
    """8-bit RGB PNG from ``height`` rows of ``3 * width`` bytes."""
    raw = b"".join(b"\x00" + bytes(row) for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 6))
        + _chunk(b"IEND", b"")
    )


def render_distribution(
    probs: Sequence[Fraction | float],
    *,
    threshold: int | None,
    colours: Sequence[tuple[int, int, int]] | None = None,
) -> bytes:
    """Bars for P(k) at k = 0, 1, …; ``threshold``: the count that succeeds (None: one colour).
    ``colours``: one colour per bar instead (outcome charts such as a clash's)."""
    rows = [bytearray(BACKGROUND * WIDTH) for _ in range(HEIGHT)]
    n = max(1, len(probs))
    top = max((float(p) for p in probs), default=0.0) or 1.0
    plot_w, plot_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN - 4
    slot = plot_w / n
    gap = 1 if slot >= 4 else 0
    baseline = MARGIN + plot_h
    for k, p in enumerate(probs):
        if colours is not None:
            colour = colours[k]
        else:
            colour = NEUTRAL if threshold is None else (PASS if k >= threshold else FAIL)
        x0 = MARGIN + int(k * slot) + gap
        x1 = max(x0 + 1, MARGIN + int((k + 1) * slot) - gap)
        bar = round(float(p) / top * plot_h)
        pixels = bytes(colour) * (x1 - x0)
        for y in range(baseline - bar, baseline):
            rows[y][3 * x0 : 3 * x1] = pixels
        # One tick under each bar so counts can be read off by position.
        rows[baseline + 2][3 * x0 : 3 * x0 + 3] = bytes(AXIS)
    rows[baseline][3 * MARGIN : 3 * (WIDTH - MARGIN)] = bytes(AXIS) * (WIDTH - 2 * MARGIN)
    return encode_png(rows, WIDTH, HEIGHT)
