"""The four attributes and the attribute die (Table – Attribute Die)."""

from __future__ import annotations

from enum import Enum

from bot.rules.errors import RulesError

MIN_ATTRIBUTE = 1
MAX_ATTRIBUTE = 5  # the attribute die table goes to 5; player characters normally stop at 4


class Attribute(Enum):
    STRENGTH = "strength"
    AGILITY = "agility"
    MIND = "mind"  # shown as Instinct for creatures that use it instead
    PRESENCE = "presence"

    @property
    def short(self) -> str:
        """The rules text's abbreviations: STR, AGI, MIND, PRES."""
        return _SHORT[self]


_SHORT = {
    Attribute.STRENGTH: "STR",
    Attribute.AGILITY: "AGI",
    Attribute.MIND: "MIND",
    Attribute.PRESENCE: "PRES",
}

# Every spelling ``parse_attribute`` accepts: name, abbreviation, first three letters.
_ATTRIBUTE_NAMES: dict[str, Attribute] = {
    **{
        spelling: attribute
        for attribute in Attribute
        for spelling in (attribute.value, _SHORT[attribute].lower(), attribute.value[:3])
    },
    "instinct": Attribute.MIND,
    "ins": Attribute.MIND,
}

# Table – Attribute Die: 4 is the one row with two dice.
_ATTRIBUTE_DIE: dict[int, tuple[int, ...]] = {1: (4,), 2: (6,), 3: (8,), 4: (8, 8), 5: (10,)}


def check_attribute(value: int, *, name: str = "An attribute") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number from {MIN_ATTRIBUTE} to {MAX_ATTRIBUTE}.")
    if not MIN_ATTRIBUTE <= value <= MAX_ATTRIBUTE:
        raise RulesError(
            f"{name} must be from {MIN_ATTRIBUTE} to {MAX_ATTRIBUTE}; you gave {value}."
        )
    return value


def attribute_die(value: int) -> tuple[int, ...]:
    """Die sizes rolled for ``[1d ATTR]``: 1→(4,), 2→(6,), 3→(8,), 4→(8, 8), 5→(10,)."""
    return _ATTRIBUTE_DIE[check_attribute(value)]


def parse_attribute(name: str) -> Attribute | None:
    """An attribute from its name or abbreviation (any case); "instinct" means mind."""
    # One dict lookup: every attack and check asks this for a skill name first.
    return _ATTRIBUTE_NAMES.get(name.strip().lower())
