"""User text made inert, and the few formats every ruleset's replies share.

One escaper for every renderer (``safe``): markdown shows literally, mentions can't
ping, and direction controls (refused on input, but text stored before that could
reverse the rest of a line) are dropped. ``safe_line`` is the same on one line.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import discord

from bot.interactions.user_text import without_direction_controls

FIELD_LIMIT = 1024  # Discord's limit for one embed field


@functools.lru_cache(maxsize=4096)  # the same names, many times a reply: 2 regex passes each
def safe(text: str) -> str:
    """User text made inert: markdown shown literally, mentions broken, and no direction
    controls. The two escapes commute (neither touches what the other inserts), so
    this is byte for byte what each renderer's own escaper wrote before they were one."""
    text = without_direction_controls(text)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def safe_line(text: str) -> str:
    """User text on one line (runs of whitespace, line breaks included, become one
    space) that can neither format nor ping."""
    return safe(" ".join(text.split()))


def clip(text: str, limit: int = FIELD_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def percent(p: Fraction) -> str:
    """Two decimals, rounded half up on the exact value (so 1/8 prints 12.50%)."""
    hundredths = (p * 10000 * 2 + 1) // 2
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


def noun(n: int, one: str, many: str | None = None) -> str:
    """The word for ``n`` of a thing: ``one`` for exactly 1, else ``many`` (default
    ``one`` + "s", or + "es" after an s: "successes"), so 0 takes the plural as English
    does ("0 turns")."""
    if n == 1:
        return one
    return many if many is not None else one + ("es" if one.endswith("s") else "s")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its word: "1 turn", "3 turns", "2 successes"."""
    return f"{n} {noun(n, one, many)}"


def spoken_list(items: list[str]) -> str:
    """A list read aloud: "Mira", "Mira and Brann", "Mira, Brann and Cora"."""
    if len(items) <= 1:
        return items[0] if items else ""
    return f"{', '.join(items[:-1])} and {items[-1]}"
