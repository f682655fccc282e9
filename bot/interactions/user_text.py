"""User-typed text: what the bot refuses in it, and how it is echoed back.

Every text option passes ``control_characters`` and ``direction_controls`` before a
command sees it (the command tree's option check, and the prefix-command check in
``bot.client``): SQLite's ``length()`` stops at a NUL, so such text would slip past a
Python length check and then break a table's CHECK; a right-to-left override makes the
rest of a public reply read backwards (a total of 12 reads 21). Names are also made
honest with ``normalise_text`` before they are compared or stored, so "Aria" plus a
zero-width space, or "Cafe" plus a combining accent, is the same name as the one it
imitates. Echoes of user text go through ``echo`` or ``code`` so a
refusal stays short whatever was typed, and ``fit_message`` keeps any reply within
Discord's message limit.
"""

from __future__ import annotations

import re
import unicodedata

import discord

from bot.errors import UserError

MAX_NAME = 64  # characters in a character's name, in every ruleset
MESSAGE_LIMIT = 2000  # characters in a message's content
ECHO_LIMIT = 40  # characters of user text repeated in a reply
ELLIPSIS = "…"

# Line breaks and tabs are ordinary whitespace: commands that care (names) refuse them.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab or a line break."""
    return any(unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS for c in text)


# Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the three
# direction marks (U+200E, U+200F, U+061C): each can reorder the text shown after it.
DIRECTION_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)
_SPACES = re.compile(r"\s+")


def direction_controls(text: str) -> bool:
    """Whether ``text`` holds a bidirectional control that could reorder an echo."""
    return not DIRECTION_CONTROLS.isdisjoint(text)  # in C: every echo and name asks


def without_direction_controls(text: str) -> str:
    """``text`` with its bidirectional controls removed (for text stored before they
    were refused)."""
    if not direction_controls(text):
        return text
    return "".join(c for c in text if c not in DIRECTION_CONTROLS)


def normalise_text(text: str) -> str:
    """One spelling for text that looks the same: NFKC, invisible format characters
    (Unicode category Cf: zero-width spaces, joiners, direction marks) removed, runs of
    whitespace made one space, ends stripped."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return _SPACES.sub(" ", text).strip()


def cut(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, ending in "…" when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """User text for a message: cut, markdown shown literally, mentions broken."""
    text = without_direction_controls(text)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(cut(text, limit)))


def code(value: object, limit: int = ECHO_LIMIT) -> str:
    """A value shown as inline code: cut, and no backtick that could end the span."""
    text = cut(without_direction_controls(str(value)), limit).replace("`", "'")
    return f"`{text}`" if text.strip() else "`(blank)`"


def fit_message(content: str | None) -> str | None:
    """Message content cut to Discord's limit (a longer one is refused with HTTP 400)."""
    if content is None:
        return None
    return cut(content, MESSAGE_LIMIT)


def clean_text(raw: str, *, what: str, limit: int) -> str:
    """Stripped one-line text with a letter or digit in it; a UserError otherwise."""
    text = raw.strip()
    if control_characters(text):
        raise UserError(f"{what} contains control characters: retype it without them.")
    if any(unicodedata.category(c) in {"Cc", "Zl", "Zp"} for c in text):
        raise UserError(f"{what} must be on one line: remove line breaks and try again.")
    if not any(c.isalnum() for c in text):
        raise UserError(f"{what} needs at least one letter or digit: try again.")
    # One spelling for look-alikes (NFKC, zero-width and direction characters gone,
    # single spaces) before any comparison or storage.
    text = normalise_text(text)
    if not any(c.isalnum() for c in text):
        raise UserError(f"{what} needs at least one letter or digit: try again.")
    if len(text) > limit:
        raise UserError(f"{what} must be at most {limit} characters: shorten it and try again.")
    return text


def clean_name(raw: str) -> str:
    return clean_text(raw, what="A character name", limit=MAX_NAME)
