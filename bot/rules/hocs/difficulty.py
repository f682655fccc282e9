"""Test difficulties, by number (0–10) or by the names of Table – Test Difficulty."""

from __future__ import annotations

import re
from enum import IntEnum

from bot.rules.errors import RulesError

MAX_DIFFICULTY = 10


class Difficulty(IntEnum):
    ROUTINARY = 0  # "Routinary or Easy": no need to roll
    CONSIDERABLE = 1
    CHALLENGING = 2
    DEMANDING = 3
    HARD = 4
    TOUGH = 5
    ASTONISHING = 6
    EPIC = 7
    LEGENDARY = 8
    MYTHOLOGICAL = 9
    NEARLY_IMPOSSIBLE = 10

    @property
    def label(self) -> str:
        if self is Difficulty.ROUTINARY:
            return "Routinary or Easy"
        return self.name.replace("_", " ").title()

    @property
    def needs_roll(self) -> bool:
        return self is not Difficulty.ROUTINARY


# Names a player may type, normalised (lower case, single spaces).
_ALIASES: dict[str, Difficulty] = {d.label.lower(): d for d in Difficulty}
_ALIASES.update({d.name.lower().replace("_", " "): d for d in Difficulty})
_ALIASES["easy"] = Difficulty.ROUTINARY


def _normalise(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def parse_difficulty(value: int | str | Difficulty) -> Difficulty:
    """A difficulty from a number 0–10 or a table name (any case); RulesError otherwise."""
    if isinstance(value, bool):
        raise RulesError("A difficulty is a number from 0 to 10 or a name such as Hard.")
    if isinstance(value, int):
        if not 0 <= value <= MAX_DIFFICULTY:
            raise RulesError(f"Difficulty goes from 0 to {MAX_DIFFICULTY}; you gave {value}.")
        return Difficulty(value)
    if isinstance(value, str):
        text = _normalise(value)
        if re.fullmatch(r"-?\d+", text):
            return parse_difficulty(int(text))
        if text in _ALIASES:
            return _ALIASES[text]
        raise RulesError(
            f"“{value.strip()[:40]}” is not a difficulty; use 0–10 or a name such as "
            "Challenging, Hard or Epic."
        )
    raise RulesError("A difficulty is a number from 0 to 10 or a name such as Hard.")


def match_difficulty_names(query: str, *, limit: int = 25) -> tuple[str, ...]:
    """Difficulty labels for autocomplete: prefix matches first, then substrings."""
    text = _normalise(query)
    labels = [f"{d.label} ({d.value})" for d in Difficulty]
    if not text:
        return tuple(labels[:limit])
    prefix = [lab for lab in labels if lab.lower().startswith(text)]
    inner = [lab for lab in labels if text in lab.lower() and lab not in prefix]
    return tuple((prefix + inner)[:limit])
