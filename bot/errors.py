"""Errors whose ``str()`` is one sentence a user can act on.

Raise a ``UserError`` anywhere in a command and the shared handler answers the
user ephemerally with its text; anything else is logged with a short code.
"""

from __future__ import annotations

from discord.ext import commands


class UserError(Exception):
    """A mistake the user can fix; the message says what to do."""


class NotGM(UserError):
    def __init__(self, action: str = "do that") -> None:
        super().__init__(
            f"Only the GM can {action}: ask someone with Manage Server or the campaign's GM role."
        )


class GuildOnly(UserError):
    def __init__(self) -> None:
        super().__init__("That command only works in a server, where your campaign lives.")


class LimitExceeded(UserError):
    """An option was outside the bounds the bot accepts."""


class InputRefused(commands.CheckFailure, UserError):
    """A global check's refusal: a CommandError (to reach the handler) that reads as a UserError."""
