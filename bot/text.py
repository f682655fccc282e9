"""User-typed text: what the bot refuses in it, and how it is echoed back.

Every text option passes ``control_characters`` before a command sees it (the command
tree's option check, and the prefix-command check in ``bot.client``): SQLite's
``length()`` stops at a NUL, so such text would slip past a Python length check and
then break a table's CHECK. Echoes of user text go through ``echo`` or ``code`` so a
refusal stays short whatever was typed, and ``fit_message`` keeps any reply within
Discord's message limit.
"""

from __future__ import annotations

import unicodedata

import discord

MESSAGE_LIMIT = 2000  # characters in a message's content
ECHO_LIMIT = 40  # characters of user text repeated in a reply
ELLIPSIS = "…"

# Line breaks and tabs are ordinary whitespace: commands that care (names) refuse them.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab or a line break."""
    return any(unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS for c in text)


def cut(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, ending in "…" when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """User text for a message: cut, markdown shown literally, mentions broken."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(cut(text, limit)))


def code(value: object, limit: int = ECHO_LIMIT) -> str:
    """A value shown as inline code: cut, and no backtick that could end the span."""
    text = cut(str(value), limit).replace("`", "'")
    return f"`{text}`" if text.strip() else "`(blank)`"


def fit_message(content: str | None) -> str | None:
    """Message content cut to Discord's limit (a longer one is refused with HTTP 400)."""
    if content is None:
        return None
    return cut(content, MESSAGE_LIMIT)
