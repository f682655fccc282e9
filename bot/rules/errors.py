"""Errors the rules raise when a player asks for something the rules forbid."""

from __future__ import annotations


class RulesError(ValueError):
    """A rules violation; ``str()`` is one sentence safe to show a player."""
