"""What every ruleset says when a command can't find the character it is about, or the
member may not act for it (each ruleset's ``access`` module does the finding)."""

from __future__ import annotations

from bot.errors import UserError
from bot.interactions.user_text import MAX_NAME
from bot.render.text import safe


class NoActiveCharacter(UserError):
    def __init__(self) -> None:
        super().__init__(
            "You have no active character here: create one with /character create"
            " or pick one with /character select."
        )


class UnknownCharacter(UserError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"There is no character called {safe_name(name)} here:"
            " check /character list for the names."
        )


def safe_name(name: str) -> str:
    """A user-typed name made inert for a message: no markdown, no pings."""
    return safe(name[:MAX_NAME])


class NotYourCharacter(UserError):
    def __init__(self, name: str, action: str) -> None:
        super().__init__(
            f"{safe_name(name)} isn't yours, so you can't {action}: only its owner or the GM can."
        )
