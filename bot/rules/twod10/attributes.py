"""The five attributes, specialisations, hit points and the death threshold.

Rulings:

* ``penalty-point``: "You may take a penalty to reduce an attribute to -1 to gain
  another point": one attribute at most, giving 5 points instead of 4. Either way
  the five attributes add up to exactly 4 at creation, every point spent.
* ``specialisations``: a specialisation is optional, but a positive one needs a
  negative one (and the reverse). The text gives them no number, so the bot
  records them on the sheet and the GM applies them (advantage or disadvantage).
* ``death-threshold``: "Death occurs at -2*toughness or -1, whichever is lower":
  the threshold is the lower of the two, and a character dies on reaching it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError

CREATION_POINTS = 4
START_MAX = 3
PENALTY_VALUE = -1
FINAL_MAX = 6
MAX_SPECIALISATION = 60


class Attribute(Enum):
    FINESSE = "finesse"
    STRENGTH = "strength"
    TOUGHNESS = "toughness"
    MIND = "mind"
    SOCIAL = "social"

    @property
    def label(self) -> str:
        return self.value.capitalize()


def parse_attribute(text: str) -> Attribute:
    key = text.strip().lower()
    for attribute in Attribute:
        if key in (attribute.value, attribute.value[:3]):
            return attribute
    raise RulesError(
        f"“{text.strip()[:30]}” is not an attribute; use Finesse, Strength, Toughness, "
        "Mind or Social."
    )


@dataclass(frozen=True, kw_only=True)
class Specialisation:
    """A narrow strength or weakness within an attribute, e.g. finesse "manual dexterity"."""

    attribute: Attribute
    text: str

    def __post_init__(self) -> None:
        clean = re.sub(r"\s+", " ", self.text).strip()
        if not clean:
            raise RulesError("Describe the specialisation in a few words.")
        if len(clean) > MAX_SPECIALISATION:
            raise RulesError(
                f"Keep a specialisation to {MAX_SPECIALISATION} characters; yours has {len(clean)}."
            )
        object.__setattr__(self, "text", clean)


@dataclass(frozen=True, kw_only=True)
class Attributes:
    finesse: int = 0
    strength: int = 0
    toughness: int = 0
    mind: int = 0
    social: int = 0

    def __post_init__(self) -> None:
        for attribute in Attribute:
            value = getattr(self, attribute.value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{attribute.label} must be a whole number.")
            if not PENALTY_VALUE <= value <= FINAL_MAX:
                raise RulesError(
                    f"{attribute.label} must be from {PENALTY_VALUE} to {FINAL_MAX}; "
                    f"you gave {value}."
                )

    def __getitem__(self, attribute: Attribute) -> int:
        return int(getattr(self, attribute.value))

    def with_value(self, attribute: Attribute, value: int) -> Attributes:
        values = {a.value: self[a] for a in Attribute}
        values[attribute.value] = value
        return Attributes(**values)

    @property
    def total(self) -> int:
        return sum(self[a] for a in Attribute)


def check_creation_attributes(attrs: Attributes) -> None:
    """Refuse a starting spread that breaks the creation rules, saying which rule."""
    penalised = [a for a in Attribute if attrs[a] < 0]
    if len(penalised) > 1:
        names = " and ".join(a.label for a in penalised)
        raise RulesError(f"Only one attribute may take the -1 penalty; {names} are both below 0.")
    for attribute in Attribute:
        if attrs[attribute] > START_MAX:
            raise RulesError(
                f"{attribute.label} starts at most {START_MAX}; lower it from "
                f"{attrs[attribute]} and spend the point elsewhere."
            )
    # The penalty point is spent too, so a legal spread always adds up to 4.
    points = CREATION_POINTS + (1 if penalised else 0)
    spent = sum(max(attrs[a], 0) for a in Attribute)
    if spent != points:
        left = points - spent
        if left > 0:
            raise RulesError(f"Spend all {points} attribute points; {left} left unspent.")
        raise RulesError(f"You have {points} attribute points but spent {spent}; remove {-left}.")


def check_specialisations(positive: Specialisation | None, negative: Specialisation | None) -> None:
    if positive is not None and negative is None:
        raise RulesError("A positive specialisation needs a negative one; add it or drop both.")
    if negative is not None and positive is None:
        raise RulesError("A negative specialisation comes with a positive one; add it or drop it.")


def max_hit_points(toughness: int) -> int:
    """(toughness × 5) + 15 or 12, whichever is higher."""
    return max(toughness * 5 + 15, 12)


def death_threshold(toughness: int) -> int:
    """-2 × toughness or -1, whichever is lower (ruling death-threshold)."""
    return min(-2 * toughness, -1)


def is_dead(hp: int, toughness: int) -> bool:
    return hp <= death_threshold(toughness)
