"""The stream overlay's data, the same shape for every ruleset: the order, who acts now,
and each combatant's public hit points or status word and conditions.

Ruling ``web-overlay-public``: the overlay shows only what a player may see, whoever
opened it (its link is the GM's, its audience is the stream): each ruleset's overlay
builds its tracker as an ``overlay`` viewer (``for_overlay``) and then trims it here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.web.views.common import Vitals
from bot.web.views.viewer import Viewer


@dataclass(frozen=True, kw_only=True)
class OverlayEntry:
    name: str
    side: str  # the ruleset's side key ("pc", "ally", "antagonist"; "players", "npcs")
    current: bool  # acts now
    done: bool  # has acted this round (HOCS order; 2d10: its side's turn is over)
    vitals: Vitals  # as a player sees it: hidden NPCs carry only a status word


@dataclass(frozen=True, kw_only=True)
class Overlay:
    channel_id: int
    round: int
    heading: str  # "Round 2", "Not started", "Round 2 · the Players' turn"
    acting: tuple[str, ...]
    entries: tuple[OverlayEntry, ...]


def for_overlay(viewer: Viewer) -> Viewer:
    """The overlay's sight: a player's, never its opener's (ruling web-overlay-public)."""
    return Viewer(guild_id=viewer.guild_id, user_id=0, role="overlay")
