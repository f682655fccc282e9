"""Meta currencies (HOCS Part 1, "Meta Currencies"): hero points per session, fortune sources.

Hero points: player characters gain 1 at the beginning of each session and lose
the unspent ones at its end. In the one-shot mode of the text ("only a hero point
for the entirety of the one-shot or short adventure") the point is given at the
first session of an adventure only and is not lost when a session ends.

Fortune points are named by their source; a character holds at most one per source.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.rules.errors import RulesError

HERO_POINTS_PER_SESSION = 1
MAX_HERO_POINTS = 99
MAX_FORTUNE_SOURCE = 32
CHARACTER_SOURCE = "character"  # the GM's award for roleplay (Part 2)


@dataclass(frozen=True, kw_only=True)
class PreviousSession:
    """What a session start needs to know about the campaign's latest session."""

    adventure: int
    one_shot: bool
    running: bool


@dataclass(frozen=True, kw_only=True)
class SessionPlan:
    """What starting a session does: its adventure and the hero points set (None: untouched)."""

    adventure: int
    new_adventure: bool
    hero_points: int | None


def plan_session_start(
    previous: PreviousSession | None, *, one_shot: bool, new_adventure: bool
) -> SessionPlan:
    """Start a session after ``previous`` (None: the campaign's first).

    Normal mode: every player character's hero points become 1, whatever was left.
    One-shot mode: the same only when an adventure begins, which is the first
    session, ``new_adventure``, or the first session after switching one-shot on;
    otherwise hero points are left as they are.
    Raises RulesError while a session is still running.
    """
    if previous is not None and previous.running:
        raise RulesError("A session is still running: end it with /session end first.")
    begins = previous is None or new_adventure or (one_shot and not previous.one_shot)
    adventure = 1 if previous is None else previous.adventure + (1 if begins else 0)
    gives = not one_shot or begins
    return SessionPlan(
        adventure=adventure,
        new_adventure=begins,
        hero_points=HERO_POINTS_PER_SESSION if gives else None,
    )


def hero_points_at_session_end(*, one_shot: bool) -> int | None:
    """Unspent hero points are lost at the end of a session (kept in one-shot mode: None)."""
    return None if one_shot else 0


_PARENTHESES = re.compile(r"^\((.*)\)$")


def normalise_fortune_source(text: str) -> str:
    """A fortune point's source as stored: lower case, single spaces, no brackets.

    "Fortune (Cooking)", "(cooking)" and " COOKING " all give "cooking".
    Raises RulesError for an empty source, one with control characters (a NUL) or one
    longer than 32 characters.
    """
    cleaned = " ".join(text.split()).lower()
    if cleaned.startswith("fortune "):
        cleaned = cleaned[len("fortune ") :].strip()
    match = _PARENTHESES.match(cleaned)
    if match:
        cleaned = match[1].strip()
    if not cleaned:
        raise RulesError("A fortune point needs a source, such as character or cooking.")
    if any(unicodedata.category(c) == "Cc" for c in cleaned):
        # SQLite's length() stops at a NUL: such a source would break the table's CHECK.
        raise RulesError("A fortune source can't hold control characters: retype it.")
    if len(cleaned) > MAX_FORTUNE_SOURCE:
        raise RulesError(
            f"A fortune source is at most {MAX_FORTUNE_SOURCE} characters; shorten it."
        )
    return cleaned


def button_fortune_source(sources: tuple[str, ...]) -> str | None:
    """The source a one-click fortune reroll spends: the first in alphabetical order."""
    return min(sources) if sources else None


def parse_dice_positions(text: str, count: int) -> tuple[int, ...]:
    """1-based die positions typed by a player ("1,3 4") as 0-based indices, in order.

    Raises RulesError for anything that isn't a position of a roll of ``count`` dice.
    """
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts:
        raise RulesError("Give the dice to reroll by their position, e.g. 1,3.")
    indices: list[int] = []
    for part in parts:
        if not part.isdigit() or len(part) > 3:
            raise RulesError("Give the dice to reroll by their position in the roll, e.g. 1,3.")
        position = int(part)
        if not 1 <= position <= count:
            raise RulesError(f"The roll has dice 1 to {count}; pick among those.")
        if position - 1 in indices:
            raise RulesError("Name each die to reroll only once.")
        indices.append(position - 1)
    return tuple(indices)
