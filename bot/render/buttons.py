"""A reply's buttons as plain component payloads, with no ``discord.ui`` objects.

Every button the bot puts under a roll or a damage roll is a ``DynamicItem`` registered
at start-up (``bot.add_dynamic_items``): discord.py dispatches a click on it by its
custom_id alone, rebuilding the item from the clicked message, whether or not a View
was ever kept for that message (after a restart none is). So a reply needs no View
object at all, only its components. Building a ``discord.ui.View`` with a
``DynamicItem`` and a ``Button`` per button cost an /attack's reply about 150 µs
(~17 µs a button, ~40 µs the view and its hand-over to the ViewStore), a /check's
about 60 µs, and their objects filled the young generation the collector walks.

``Buttons`` is what discord.py's send and edit calls take as ``view``: it renders the
same payload as ``discord.ui.View.to_components`` would for the same buttons in the
same rows (tests compare the two), and reports itself finished, so discord.py hands
nothing to its ViewStore.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import discord

ROW_WIDTH = 5  # buttons in one action row
ROW_COUNT = 5  # action rows in one message
MAX_LABEL = 80


class Button(NamedTuple):
    """One interactive button: what its DynamicItem's custom_id template matches.

    A named tuple, not a frozen dataclass: an /attack's reply makes a dozen of these
    inside its transaction, and a frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` a field) cost ~3 µs each against ~0.5 µs for a tuple."""

    custom_id: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None  # None: the first row with room, as discord.py places it

    def at_row(self, row: int) -> Button:
        return Button(self.custom_id, self.label, self.style, self.disabled, row)

    def as_item(self) -> discord.ui.Button[Any]:
        """The ``discord.ui.Button`` a DynamicItem wraps when a click arrives: built from
        this same record, so a custom_id's format is written in one place."""
        return discord.ui.Button(
            style=self.style, label=self.label, custom_id=self.custom_id, disabled=self.disabled
        )

    def to_dict(self) -> dict[str, Any]:
        # Keys in discord.py's order (``discord.components.Button.to_dict``): the
        # payload is the same bytes either way.
        payload: dict[str, Any] = {"type": 2, "style": self.style.value, "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label[:MAX_LABEL]
        payload["custom_id"] = self.custom_id
        return payload


class Buttons:
    """Buttons laid out in action rows, passed to discord.py as a message's ``view``.

    Only what discord.py's send and edit paths read is here: ``to_components``,
    ``has_components_v2``, ``is_finished`` (True: nothing to store or time out),
    ``is_dispatchable`` and ``timeout``. Raises ``ValueError``, as a View would, when a
    row would hold more than five buttons or the message more than five rows.
    """

    __discord_ui_view__ = True  # discord.py's marker for what ``view=`` accepts
    timeout: float | None = None

    __slots__ = ("_rows", "buttons")

    def __init__(self, buttons: Iterable[Button]) -> None:
        self.buttons: tuple[Button, ...] = tuple(buttons)
        self._rows = _lay_out(self.buttons)

    def to_components(self) -> list[dict[str, Any]]:
        return [
            {"type": 1, "components": [button.to_dict() for button in row]}
            for row in self._rows
            if row
        ]

    @property
    def custom_ids(self) -> list[str]:
        return [button.custom_id for button in self.buttons]

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<Buttons {self.custom_ids}>"


def buttons_or_none(buttons: Iterable[Button]) -> Buttons | None:
    """``Buttons`` of these, or None when there are none (a reply without components)."""
    laid = tuple(buttons)
    return Buttons(laid) if laid else None


def _lay_out(buttons: tuple[Button, ...]) -> list[list[Button]]:
    """Rows as ``discord.ui.View.add_item`` fills them, one button at a time in order: a
    button with a row goes in that row, one without in the first row with room then;
    each row keeps the order the buttons came in."""
    if len(buttons) > ROW_WIDTH * ROW_COUNT:
        raise ValueError("maximum number of children exceeded")
    rows: list[list[Button]] = [[] for _ in range(ROW_COUNT)]
    for button in buttons:
        if button.row is None:
            row = next((i for i, r in enumerate(rows) if len(r) < ROW_WIDTH), None)
            if row is None:
                raise ValueError("could not find open space for item")
        else:
            row = button.row
            if not 0 <= row < ROW_COUNT:
                raise ValueError(f"row cannot be {row}")
            if len(rows[row]) >= ROW_WIDTH:
                raise ValueError(f"item would not fit at row {row}")
        rows[row].append(button)
    return rows
