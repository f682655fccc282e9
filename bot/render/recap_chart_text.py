"""User text (character names, a session's title) made drawable in the charts' font.

Pillow's bundled font (``bot.render.chart_style.font``) covers little beyond ASCII:
"é", "ß", "—", Cyrillic or CJK letters and emoji all come out as the same empty box
(its "notdef" glyph), which reads as a broken chart and makes "Zoë" and "Zoä" look
alike. So before a name is measured or drawn each character the font lacks is
replaced: by its letter without accents ("é" -> "e", via Unicode decomposition), by an
ASCII spelling ("ß" -> "ss", "—" -> "-"), or else by "?"; zero-width marks (joiners,
variation selectors, lone combining accents) are dropped. A name in a script the font
lacks entirely still ends up as "?"s: the colour and marker beside it tell the lines
apart, and the recap embed (Discord's own fonts) spells it out.

Whether the font has a glyph is found by drawing it and comparing with the notdef
glyph (Pillow has no coverage query); each character is tested once (cached).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.chart_style import LEGEND_SIZE, font

__all__ = ["drawable", "has_glyph"]

_NOT_A_CHARACTER = "\U0010fffd"  # a private-use code point: no font draws it
_ASCII = {
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "—": "-", "–": "-", "‒": "-", "―": "-", "‐": "-", "−": "-", "“": '"',
    "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "‚": "'", "×": "x",
}  # fmt: skip


def _ink(ch: str) -> tuple[tuple[int, int, int, int], bytes]:
    f = font(LEGEND_SIZE)
    box = f.getbbox(ch)
    img = Image.new("L", (max(1, round(box[2]) + 1), max(1, round(box[3]) + 1)), 0)
    ImageDraw.Draw(img).text((0, 0), ch, font=f, fill=255)
    return tuple(round(v) for v in box), img.tobytes()  # type: ignore[return-value]


@lru_cache(maxsize=1)
def _notdef() -> tuple[tuple[int, int, int, int], bytes]:
    return _ink(_NOT_A_CHARACTER)


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the charts' font draws ``ch`` as itself (not as its empty box)."""
    return ch.isspace() or _ink(ch) != _notdef()


def _replacement(ch: str) -> str:
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return ""  # an accent on its own, a joiner, a variation selector: no width
    if ch in _ASCII:
        return _ASCII[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if base and base != ch and all(has_glyph(c) for c in base):
        return base
    return "?"


def drawable(text: str) -> str:
    """``text`` with every character the font lacks replaced (see the module's doc);
    whitespace runs and line breaks folded to one space."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        out.append(ch if has_glyph(ch) else _replacement(ch))
    return " ".join("".join(out).split())
