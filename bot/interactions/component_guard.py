"""Every button press gets an answer, even one for a button the bot no longer has.

discord.py's ``ViewStore.dispatch_view`` silently drops a component interaction whose
custom id matches no live view and no ``DynamicItem`` pattern, and Discord then shows
"This interaction failed". A message posted by an older version of the bot, or a view
that timed out, leaves such buttons behind. ``GuardedViewStore`` answers those
ephemerally, and refuses a custom id longer than Discord allows (100 characters: only
a forged payload carries one) or one carrying a number no stored id or snowflake can be
(above 2^63 - 1: the database would overflow on it) before any ``DynamicItem`` parses it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord.ui.view import ViewStore

from bot.interactions import error_handler

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100  # Discord refuses longer ids when a message is sent
MAX_ID = 2**63 - 1  # every row id and snowflake in a custom id fits a signed 64-bit integer
_NUMBER = re.compile(r"[0-9]+")
STALE_BUTTON = (
    "This button is from an older version of the bot and no longer works:"
    " use the slash command instead."
)
FORGED_BUTTON = "That button isn't one I made, so it does nothing."
GONE_BUTTON = (
    "That button is no longer on its message (it was used or replaced), so it did nothing:"
    " use the buttons the message shows now."
)


class GuardedViewStore(ViewStore):
    """The view store of :class:`bot.client.TableBot`: unknown presses are answered."""

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._answers: set[asyncio.Task[None]] = set()

    def matches_dynamic(self, custom_id: str) -> bool:
        return any(pattern.fullmatch(custom_id) for pattern in self._dynamic_items)

    def knows(self, component_type: int, custom_id: str, interaction: discord.Interaction) -> bool:
        """Whether ``dispatch_view`` would hand this press to a view or a dynamic item.

        The same look-ups discord.py makes: dynamic item patterns, then the item of a
        view bound to the pressed message, then of a persistent view bound to none.
        """
        if self.matches_dynamic(custom_id):
            return True
        key = (component_type, custom_id)
        message = interaction.message
        item = self._views.get(message.id, {}).get(key) if message is not None else None
        item = item or self._views.get(None, {}).get(key)
        return item is not None and item.view is not None

    def dispatch_view(
        self, component_type: int, custom_id: str, interaction: discord.Interaction
    ) -> None:
        if len(custom_id) > MAX_CUSTOM_ID:
            log.warning("refused a button press with a %d-character custom id", len(custom_id))
            self._answer(interaction, FORGED_BUTTON)
        elif any(int(number) > MAX_ID for number in _NUMBER.findall(custom_id)):
            log.warning("refused a button press carrying a number above 2^63-1: %r", custom_id)
            self._answer(interaction, FORGED_BUTTON)
        elif self.matches_dynamic(custom_id) and not carries(interaction.message, custom_id):
            # discord.py drops a DynamicItem press whose button isn't on the pressed
            # message (a press after the message was edited to the next revision).
            log.info("answered a press of a button gone from its message %r", custom_id)
            self._answer(interaction, GONE_BUTTON)
        elif not self.knows(component_type, custom_id, interaction):
            log.info("answered a press of an unknown button %r", custom_id[:MAX_CUSTOM_ID])
            self._answer(interaction, STALE_BUTTON)
        else:
            super().dispatch_view(component_type, custom_id, interaction)

    def _answer(self, interaction: discord.Interaction, message: str) -> None:
        task = asyncio.create_task(error_handler.refuse_interaction(interaction, message))
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)


def carries(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the pressed message holds a component with ``custom_id``, the look-up
    discord.py makes before it hands a press to a ``DynamicItem``."""
    if message is None:
        return False
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        pending += list(getattr(component, "children", None) or ())
    return False


def guard(state: Any) -> None:
    """Give ``state`` (a discord.py ``ConnectionState``) a :class:`GuardedViewStore`,
    keeping whatever views and dynamic items its current store holds."""
    current = state._view_store
    if isinstance(current, GuardedViewStore):
        return
    store = GuardedViewStore(state)
    store._views = current._views
    store._synced_message_views = current._synced_message_views
    store._modals = current._modals
    store._dynamic_items = current._dynamic_items
    state._view_store = store
