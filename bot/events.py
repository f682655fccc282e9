"""Custom bot events: decoupled notices from one cog to whoever listens.

A cog that changed characters says so after its transaction committed; the
initiative tracker (``cogs.initiative``) listens and redraws the encounters those
characters are in. The sender neither imports nor waits for the listeners:
``bot.dispatch`` runs each ``on_characters_changed`` listener as its own task.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

CHARACTERS_CHANGED = "characters_changed"


class Dispatcher(Protocol):
    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None: ...


def notify_characters_changed(
    bot: Dispatcher, guild_id: int, character_ids: Iterable[int | None]
) -> None:
    """Tell listeners that these characters' hit points or conditions were written.

    Call it only after the transaction committed, and only when something was written.
    Listeners receive ``(guild_id, character_ids)`` with the ids as a sorted tuple.
    """
    ids = tuple(sorted({i for i in character_ids if i is not None}))
    if ids:
        bot.dispatch(CHARACTERS_CHANGED, guild_id, ids)
