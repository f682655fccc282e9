"""Task rolls: 2d10 + attribute + skill + modifiers, judged against 10.

Advantage and disadvantage cancel one for one; what is left rolls 3d10 and
drops the lowest (advantage) or the highest (disadvantage). Ruling
``advantage-stack``: several net advantages still roll only 3d10, since the
text knows no 4d10.

The result is read on the to-hit table: ``OutcomeBand`` names the band and
``category_shift`` the damage dice categories it moves (see ``bands``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.bands import OutcomeBand, band_for, category_shift

SIDES = 10
SUCCESS_TOTAL = 10
NATURAL_MISS = 2  # both kept dice show 1
NATURAL_TWENTY = 20  # both kept dice show 10
MAX_EDGE = 20  # advantage or disadvantage sources one roll may name
MAX_MODIFIER = 60  # a bound on any one modifier; the ladder ends at ±25


class Edge(Enum):
    """What is left after advantage and disadvantage cancel."""

    NONE = "none"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


def net_edge(advantage: int, disadvantage: int) -> Edge:
    """Each advantage cancels one disadvantage; any surplus decides (ruling advantage-stack)."""
    for name, count in (("Advantage", advantage), ("Disadvantage", disadvantage)):
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_EDGE:
            raise RulesError(f"{name} must be a count from 0 to {MAX_EDGE}.")
    if advantage > disadvantage:
        return Edge.ADVANTAGE
    if disadvantage > advantage:
        return Edge.DISADVANTAGE
    return Edge.NONE


@dataclass(frozen=True, kw_only=True)
class Modifier:
    """One named number added to the roll (negative for a penalty or a defense)."""

    label: str
    value: int

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise RulesError(f"{self.label} must be a whole number.")
        if not -MAX_MODIFIER <= self.value <= MAX_MODIFIER:
            raise RulesError(f"{self.label} must be from -{MAX_MODIFIER} to {MAX_MODIFIER}.")


@dataclass(frozen=True, kw_only=True)
class D10Roll:
    """The d10s thrown for one task, in the order rolled, and which were kept."""

    faces: tuple[int, ...]
    dropped: int | None  # index into ``faces`` of the die dropped, None on a plain 2d10
    edge: Edge

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(f for i, f in enumerate(self.faces) if i != self.dropped)

    @property
    def natural(self) -> int:
        """The kept dice alone: a natural 2 always misses, a natural 20 adds dice."""
        return sum(self.kept)


def roll_d10s(edge: Edge, dice: Dice) -> D10Roll:
    """2d10, or 3d10 dropping the lowest (advantage) or highest (disadvantage) face.

    Between equal faces the later die is dropped; it changes no total.
    """
    count = 2 if edge is Edge.NONE else 3
    faces = tuple(dice.roll(SIDES) for _ in range(count))
    for face in faces:
        if not 1 <= face <= SIDES:
            raise RulesError(f"The dice gave an impossible d10 face ({face}); roll again.")
    dropped: int | None = None
    if edge is Edge.ADVANTAGE:
        low = min(faces)
        dropped = max(i for i, f in enumerate(faces) if f == low)
    elif edge is Edge.DISADVANTAGE:
        high = max(faces)
        dropped = max(i for i, f in enumerate(faces) if f == high)
    return D10Roll(faces=faces, dropped=dropped, edge=edge)


@dataclass(frozen=True, kw_only=True)
class TaskResult:
    """A judged task roll: every die, every modifier, the total and its band."""

    roll: D10Roll
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)

    @property
    def natural(self) -> int:
        return self.roll.natural

    @property
    def natural_two(self) -> bool:
        return self.natural == NATURAL_MISS

    @property
    def natural_twenty(self) -> bool:
        return self.natural == NATURAL_TWENTY

    @property
    def total(self) -> int:
        """Kept dice plus every modifier (the difficulty or defense included)."""
        return self.natural + sum(m.value for m in self.modifiers)

    @property
    def succeeded(self) -> bool:
        # Ruling natural-two: a natural 2 fails any task, not only an attack.
        return not self.natural_two and self.total >= SUCCESS_TOTAL

    @property
    def margin(self) -> int:
        """How far the total is above (or, negative, below) 10."""
        return self.total - SUCCESS_TOTAL

    @property
    def band(self) -> OutcomeBand:
        band = band_for(self.total)
        if self.natural_two and band.succeeded:
            return OutcomeBand.FAILURE
        return band

    @property
    def category_shift(self) -> int:
        """Damage dice categories this result moves the weapon's die (table rows)."""
        return category_shift(self.total)


def check_score(value: int, *, name: str, low: int = -1, high: int = 6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low} to {high}.")
    return value


def roll_task(
    *,
    attribute: int,
    skill: int = 0,
    difficulty: int = 0,
    extra: tuple[Modifier, ...] = (),
    advantage: int = 0,
    disadvantage: int = 0,
    attribute_label: str = "attribute",
    skill_label: str = "skill",
    difficulty_label: str = "difficulty",
    dice: Dice,
) -> TaskResult:
    """Roll a task; ``difficulty`` is what the ladder adds (or minus the target's defense).

    Everything is checked before any die is rolled.
    """
    check_score(attribute, name=attribute_label.capitalize())
    check_score(skill, name=skill_label.capitalize(), low=0)
    mods = [
        Modifier(label=attribute_label, value=attribute),
        Modifier(label=skill_label, value=skill),
    ]
    if difficulty:
        mods.append(Modifier(label=difficulty_label, value=difficulty))
    mods.extend(m for m in extra if m.value)
    edge = net_edge(advantage, disadvantage)
    return TaskResult(roll=roll_d10s(edge, dice), modifiers=tuple(mods))


def judge(roll: D10Roll, modifiers: tuple[Modifier, ...]) -> TaskResult:
    """Judge dice already rolled with other modifiers (a stray shot against a new target)."""
    return TaskResult(roll=roll, modifiers=modifiers)
