"""What discord.py's ViewStore is handed: replies whose buttons are plain components
(``bot.render.buttons``) must hand it nothing, and a View of the same dynamic items is
what their payload is compared with, byte for byte."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
from discord.state import ConnectionState


@pytest.fixture
def stored_views(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every view discord.py hands to its ViewStore from now on."""
    handed: list[Any] = []
    original = ConnectionState.store_view

    def store_view(self: ConnectionState, view: Any, message_id: int | None = None) -> None:
        handed.append(view)
        original(self, view, message_id)

    monkeypatch.setattr(ConnectionState, "store_view", store_view)
    return handed


def view_of(*items: discord.ui.Item[Any]) -> str:
    """The JSON a View of these items puts on the wire (key order included)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return json.dumps(view.to_components())


def assert_store_empty(bot: discord.Client) -> None:
    """Nothing kept in the ViewStore: no view, and no view synced to a message."""
    store = bot._connection._view_store
    assert store._views == {} and store._synced_message_views == {}
