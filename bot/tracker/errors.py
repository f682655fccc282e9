"""What every ruleset's initiative tracker answers when there is no fight, it has ended,
one is already running, or another writer saved first. The wording names the ruleset
where a server could mistake one tracker for another (``system``)."""

from __future__ import annotations

from bot.errors import UserError


class NoEncounter(UserError):
    def __init__(self, system: str = "") -> None:
        what = f"{system} encounter" if system else "encounter"
        super().__init__(
            f"No {what} is running in this channel: the GM starts one with /init begin."
        )


class EncounterOver(UserError):
    def __init__(self) -> None:
        super().__init__("That encounter has ended: these buttons no longer do anything.")


class EncounterExists(UserError):
    def __init__(self) -> None:
        super().__init__(
            "An encounter is already running in this channel: use it, or /init end it first."
        )


class EncounterChanged(UserError):
    """The stored encounter moved on since it was loaded (another writer saved first)."""

    def __init__(self) -> None:
        super().__init__("The encounter changed at the same moment: look again and retry.")
