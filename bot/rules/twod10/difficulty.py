"""The difficulty ladder: a task's difficulty by name or number.

Ruling ``ladder-signs``: the ladder is printed with signs (+5 very easy … −25
legendary) while the task text says difficulty "is subtracted from the roll".
The bot reads the signed numbers as what the roll gains: a very easy task adds
5, a difficult one takes 5 away, which is the same as subtracting a difficulty
of 5. A GM may also give any whole number between the ends of the ladder.

Ruling ``two-heroics``: −15 and −20 are both printed "heroic task"; −15 is
"heroic" and −20 "very heroic" so each name picks one rung.
"""

from __future__ import annotations

import re
from enum import IntEnum

from bot.rules.errors import RulesError

EASIEST = 5
HARDEST = -25


class Difficulty(IntEnum):
    """A rung of the ladder; the value is added to the task roll."""

    VERY_EASY = 5
    NORMAL = 0
    DIFFICULT = -5
    EXPERT = -10  # "difficult for an expert task"
    HEROIC = -15
    VERY_HEROIC = -20  # ruling two-heroics: the second "heroic task"
    LEGENDARY = -25  # "legendary/demigod task"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Difficulty.VERY_EASY: "Very easy",
    Difficulty.NORMAL: "Normal",
    Difficulty.DIFFICULT: "Difficult",
    Difficulty.EXPERT: "Difficult for an expert",
    Difficulty.HEROIC: "Heroic",
    Difficulty.VERY_HEROIC: "Very heroic",
    Difficulty.LEGENDARY: "Legendary",
}

_ALIASES: dict[str, Difficulty] = {d.label.lower(): d for d in Difficulty}
_ALIASES.update({d.name.lower().replace("_", " "): d for d in Difficulty})
_ALIASES.update(
    {
        "easy": Difficulty.VERY_EASY,
        "difficult for an expert task": Difficulty.EXPERT,
        "demigod": Difficulty.LEGENDARY,
        "legendary/demigod": Difficulty.LEGENDARY,
    }
)


def _normalise(text: str) -> str:
    text = re.sub(r"[\s_\-]+", " ", text.strip().lower())
    return text.removesuffix(" task")


def parse_difficulty(value: int | str | Difficulty) -> int:
    """What a difficulty adds to the roll, from a ladder name or a number from +5 to −25."""
    usage = (
        "A difficulty is a number from +5 (very easy) to -25 (legendary) "
        "or a name such as Difficult."
    )
    if isinstance(value, bool):
        raise RulesError(usage)
    if isinstance(value, int):
        if not HARDEST <= value <= EASIEST:
            raise RulesError(
                f"Difficulty goes from +{EASIEST} (very easy) to {HARDEST} (legendary); "
                f"you gave {value}: a harder task is a more negative number."
            )
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d{1,3}", text):
            return parse_difficulty(int(text))
        key = _normalise(text)
        if key in _ALIASES:
            return int(_ALIASES[key])
        raise RulesError(
            f"“{text[:40]}” is not a difficulty; use +5 to -25 or a name such as "
            "Normal, Difficult or Heroic."
        )
    raise RulesError(usage)


def difficulty_label(value: int) -> str:
    """The ladder's name for a rung, or the plain number for a GM's in-between value."""
    try:
        return f"{Difficulty(value).label} ({value:+d})"
    except ValueError:
        return f"{value:+d}"


def match_difficulty_names(query: str, *, limit: int = 25) -> tuple[str, ...]:
    """Ladder labels for autocomplete: prefix matches first, then substrings."""
    text = _normalise(query) if query.strip() else ""
    labels = [difficulty_label(int(d)) for d in Difficulty]
    if not text:
        return tuple(labels[:limit])
    prefix = [lab for lab in labels if lab.lower().startswith(text)]
    inner = [lab for lab in labels if text in lab.lower() and lab not in prefix]
    return tuple((prefix + inner)[:limit])
