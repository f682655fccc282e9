"""Where the /odds charts put their words: tick labels under the bars, values above them.

Pure layout (boxes in pixels), no drawing, so the choices are testable on their own.

* Numbered ticks (successes, damage) are never shortened: with too little room for
  every number, every 2nd, 5th, 10th… is written, counted from the axis's first value,
  and an open end ("30+") is always written, in place of the number before it if the
  two would touch.
* Named ticks (to-hit rows, outcomes, characters) wrap onto two lines under their bar
  (or break where the caller put a line break); with bars too narrow for that they
  turn to read upwards, in a smaller size if a line is taller than a bar is wide (down
  to ``MIN_TURNED_SIZE``), and below that every n-th is written. A name too long for
  its room ends in "…".
* Values go above their bars, largest first, each written flat if it fits there,
  else turned upwards, else left out: a label never covers another label or a bar.
  So with many bars the tall ones (the ones a reader looks for) keep their values
  and small bars between tall ones lose theirs first; values under 0.05% (their bar
  is under a pixel) get none. A value that would stick out of the plot at its edge
  is moved inwards, still over its bar.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.render.chart_style import (
    LABEL_FLOOR,
    MIN_TURNED_SIZE,
    VALUE_SIZE,
    bar_percent,
    ink_height,
    line_height,
    text_width,
)

Box = tuple[float, float, float, float]  # left, top, right, bottom

ROTATED_TICK_ROOM = 96  # the height of named ticks that read upwards
_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)


@dataclass(frozen=True)
class Ticks:
    """``labels``: (bar index, lines); ``rotated``: the lines read upwards (one line)."""

    labels: list[tuple[int, list[str]]]
    rotated: bool
    height: int
    size: int


def ellipsize(text: str, width: float, size: int) -> str:
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def _wrap(text: str, width: float, size: int) -> tuple[list[str], bool]:
    """At most two lines of ``text`` within ``width``; False if something was cut."""
    if "\n" in text:
        lines = text.split("\n")[:2]
        cut = [ellipsize(line, width, size) for line in lines]
        return cut, cut == lines
    words = text.split()
    first = ""
    while words and text_width((first + " " + words[0]).strip(), size) <= width:
        first = (first + " " + words.pop(0)).strip()
    if not first:  # one word longer than the room
        return [ellipsize(text, width, size)], False
    rest = " ".join(words)
    if not rest:
        return [first], True
    second = ellipsize(rest, width, size)
    return [first, second], second == rest


def _every(n: int, need: float, slot: float, first: int = 0) -> list[int]:
    step = next((s for s in _STEPS if s * slot >= need), math.ceil(need / slot))
    return [k for k in range(n) if (first + k) % step == 0]


def numbered_ticks(n: int, slot: float, size: int, *, first: int, open_end: bool) -> Ticks:
    texts = [str(first + k) for k in range(n)]
    if open_end:
        texts[-1] += "+"
    widest = max(text_width(t, size) for t in texts)
    keep = _every(n, widest + 8, slot, first)
    if open_end and keep[-1] != n - 1:
        # The open end says where the lump starts: it replaces a neighbour it would touch.
        room = (n - 1 - keep[-1]) * slot
        if room < (text_width(texts[keep[-1]], size) + text_width(texts[-1], size)) / 2 + 8:
            keep.pop()
        keep.append(n - 1)
    return Ticks([(k, [texts[k]]) for k in keep], False, line_height(size), size)


def named_ticks(names: Sequence[str], slot: float, size: int) -> Ticks:
    room = slot - 8
    wrapped = [_wrap(name, room, size) for name in names]
    if all(whole for _, whole in wrapped) or room >= 70:
        lines = max(len(w) for w, _ in wrapped)
        height = lines * line_height(size)
        return Ticks([(k, w) for k, (w, _) in enumerate(wrapped)], False, height, size)
    while size > MIN_TURNED_SIZE and ink_height(size) + 3 > slot:
        size -= 1
    keep = _every(len(names), ink_height(size) + 3, slot)
    flat = [" ".join(name.split()) for name in names]
    labels = [(k, [ellipsize(flat[k], ROTATED_TICK_ROOM, size)]) for k in keep]
    return Ticks(labels, True, ROTATED_TICK_ROOM, size)


@dataclass(frozen=True)
class Value:
    text: str
    box: Box
    rotated: bool


def headroom(top_value: float, slot: float) -> int:
    """Room kept above the tallest bar for its value, flat if it fits in a bar's width."""
    width = text_width(bar_percent(top_value), VALUE_SIZE)
    return line_height(VALUE_SIZE) + 4 if width + 4 <= slot else width + 6


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inwards(box: Box, area: Box) -> Box:
    """``box`` moved sideways to lie inside ``area`` (a value over the first or last bar)."""
    shift = max(0.0, area[0] - box[0]) - max(0.0, box[2] - area[2])
    return (box[0] + shift, box[1], box[2] + shift, box[3])


def place_values(values: Sequence[float], bars: Sequence[Box], area: Box) -> list[Value]:
    """Values above ``bars`` (one box per value), largest first, inside ``area``."""
    size, gap = VALUE_SIZE, 3
    placed: list[Value] = []
    taken: list[Box] = [b for b in bars if b[3] > b[1]]
    for k in sorted(range(len(values)), key=lambda k: -values[k]):
        if values[k] < LABEL_FLOOR:
            break
        text = bar_percent(values[k])
        left, top, right, _ = bars[k]
        mid = (left + right) / 2
        w, h = text_width(text, size), line_height(size)
        flat = _inwards((mid - w / 2, top - gap - h, mid + w / 2, top - gap), area)
        turned = _inwards((mid - h / 2, top - gap - w, mid + h / 2, top - gap), area)
        for box, rotated in ((flat, False), (turned, True)):
            if box[1] >= area[1] and not any(_overlaps(box, t) for t in taken):
                placed.append(Value(text, box, rotated))
                taken.append(box)
                break
    return placed
