"""Autocomplete answers as Discord takes them, for every ruleset's options."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from discord import app_commands

MAX_CHOICES = 25  # Discord refuses an autocomplete answer with more
MAX_CHOICE_TEXT = 100  # characters in a choice's name and in its value


def name_choices(names: Iterable[str]) -> list[app_commands.Choice[str]]:
    """The first 25 names, each offered as itself (clipped to Discord's 100 characters)."""
    return [
        app_commands.Choice(name=n[:MAX_CHOICE_TEXT], value=n[:MAX_CHOICE_TEXT])
        for n in islice(names, MAX_CHOICES)
    ]
