"""Dice categories: the ladder a damage die moves along.

Ruling ``category-ladder``: the ladder is 1, d2, d3, d4, d6, d8, d10, d12. The
text's brawl table (1, 1d2, 1d3, 1d4, 1d6) gives the steps below a d4, the
weapon tables the usual dice above; d12 is the top ("to a maximum of 1d12").
A weapon with several dice (2d6) moves every die the same number of steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bot.rules.errors import RulesError


class Category(IntEnum):
    """A rung of the ladder; ``sides`` is the die (1 is a flat point of damage)."""

    ONE = 0
    D2 = 1
    D3 = 2
    D4 = 3
    D6 = 4
    D8 = 5
    D10 = 6
    D12 = 7

    @property
    def sides(self) -> int:
        return _SIDES[self]

    @property
    def label(self) -> str:
        return "1" if self is Category.ONE else f"d{self.sides}"

    @classmethod
    def for_sides(cls, sides: int) -> Category:
        for category in cls:
            if category.sides == sides:
                return category
        raise RulesError(f"A d{sides} is not on the dice category ladder (1, d2 … d12).")


_SIDES = {
    Category.ONE: 1,
    Category.D2: 2,
    Category.D3: 3,
    Category.D4: 4,
    Category.D6: 6,
    Category.D8: 8,
    Category.D10: 10,
    Category.D12: 12,
}

FLOOR = Category.D4  # "If a miss would bring the attack below a 1d4 then no damage is dealt."
CAP = Category.D12


@dataclass(frozen=True, kw_only=True)
class Shifted:
    """Where a die lands after a shift: ``None`` category when a miss left the ladder's floor."""

    start: Category
    steps: int
    category: Category | None
    capped: bool


def shift(start: Category, steps: int, *, miss: bool) -> Shifted:
    """Move a die ``steps`` along the ladder, capped at d12.

    On a miss, landing below a d4 means no damage (``category`` None). On a hit
    (a maneuver's −1 can move a small die down) the die stops at the ladder's
    bottom, 1 point, since a hit always deals damage.
    """
    target = int(start) + steps
    capped = target > CAP
    target = min(target, int(CAP))
    if miss and target < FLOOR:
        return Shifted(start=start, steps=steps, category=None, capped=False)
    return Shifted(start=start, steps=steps, category=Category(max(target, 0)), capped=capped)


@dataclass(frozen=True, kw_only=True)
class DamageDice:
    """``count`` dice of ``category`` plus a flat ``bonus`` (1d8+2, 2d6+2, 1)."""

    count: int
    category: Category
    bonus: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 10:
            raise RulesError("A weapon rolls from 1 to 10 damage dice.")

    @property
    def label(self) -> str:
        if self.category is Category.ONE:
            base = str(self.count)
        else:
            base = f"{self.count}{self.category.label}"
        return f"{base}{self.bonus:+d}" if self.bonus else base
