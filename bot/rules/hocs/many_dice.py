"""Many dice, one result: damage, healing, temporary hit points and resting.

Rolling and choosing are separate pure steps so that a player can look at the
faces (e.g. behind a Discord button) and pick a die other than the suggested one:

    rolled = roll_pool((8, 12, 10), dice)          # faces only, no explosions yet
    index = best_choice(rolled)                    # a suggestion
    result = resolve_choice(rolled, index, dice)   # rolls the chosen die's explosions

Total = the chosen die (with its explosion chain) + 1 for every *discarded* die
showing its maximum face.

Explosions: "Rolling 10s on damage rolls explodes them ... roll another die of
the same type". We read that literally: any die whose face is 10 explodes (a d10,
but also a d12 or d20 showing 10), and a d12 showing 12 does not. Only the one
chosen die is exploded, and its explosion dice are rolled only after the choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError

EXPLODING_FACE = 10
# A runaway chain is astronomically unlikely (10⁻⁵⁰ on a d10); the cap only
# guarantees termination with broken or adversarial dice sources.
MAX_EXPLOSIONS = 50


def _check_sides(sides: int) -> None:
    if sides < 2:
        raise RulesError(f"a d{sides} is not a die that can be rolled")


@dataclass(frozen=True)
class RolledDie:
    """One die of the pool: its size, its face and (once chosen) its explosion chain."""

    sides: int
    face: int
    explosions: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_sides(self.sides)
        for value in (self.face, *self.explosions):
            if not 1 <= value <= self.sides:
                raise RulesError(f"a d{self.sides} cannot show {value}")

    @property
    def total(self) -> int:
        return self.face + sum(self.explosions)

    @property
    def at_maximum(self) -> bool:
        return self.face == self.sides

    @property
    def can_explode(self) -> bool:
        return self.sides >= EXPLODING_FACE and self.face == EXPLODING_FACE

    def to_dict(self) -> dict[str, Any]:
        # Always the full form, unlike a skill die's: a hero reroll of an open damage
        # choice compares the stored inputs text with this re-encoding, so a shorter
        # form would refuse every choice stored before it.
        return {"sides": self.sides, "face": self.face, "explosions": list(self.explosions)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RolledDie:
        return cls(int(data["sides"]), int(data["face"]), tuple(data.get("explosions", ())))


@dataclass(frozen=True)
class RolledPool:
    """The faces of a pool before a die is chosen."""

    dice: tuple[RolledDie, ...]
    exploding: bool = True

    def __post_init__(self) -> None:
        if not self.dice:
            raise RulesError("a roll needs at least one die")

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(d.sides for d in self.dice)

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)

    def max_bonus(self, index: int) -> int:
        """+1 for every die other than ``index`` that shows its maximum face."""
        return sum(1 for i, d in enumerate(self.dice) if i != index and d.at_maximum)

    def to_dict(self) -> dict[str, Any]:
        return {"dice": [d.to_dict() for d in self.dice], "exploding": self.exploding}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RolledPool:
        return cls(
            tuple(RolledDie.from_dict(d) for d in data["dice"]),
            exploding=bool(data.get("exploding", True)),
        )


@dataclass(frozen=True)
class ManyDiceResult:
    """A resolved roll: which die was kept, its explosions, and the total."""

    pool: RolledPool
    chosen_index: int
    explosions: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_index(self.pool, self.chosen_index)
        if self.explosions:
            die = self.pool.dice[self.chosen_index]
            if not (self.pool.exploding and die.can_explode):
                raise RulesError(f"a d{die.sides} showing {die.face} does not explode")
            if len(self.explosions) > MAX_EXPLOSIONS or any(
                e != EXPLODING_FACE for e in self.explosions[:-1]
            ):
                raise RulesError("an explosion chain continues only while it rolls 10s")
            RolledDie(die.sides, die.face, self.explosions)  # checks each face fits the die

    @property
    def chosen(self) -> RolledDie:
        die = self.pool.dice[self.chosen_index]
        return RolledDie(die.sides, die.face, self.explosions)

    @property
    def max_bonus(self) -> int:
        return self.pool.max_bonus(self.chosen_index)

    @property
    def total(self) -> int:
        # What ``chosen.total`` adds up, without building (and checking) that die again.
        return self.pool.dice[self.chosen_index].face + sum(self.explosions) + self.max_bonus

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool.to_dict(),
            "chosen_index": self.chosen_index,
            "explosions": list(self.explosions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ManyDiceResult:
        return cls(
            RolledPool.from_dict(data["pool"]),
            int(data["chosen_index"]),
            tuple(int(x) for x in data.get("explosions", ())),
        )


def _check_index(pool: RolledPool, index: int) -> None:
    if not 0 <= index < len(pool.dice):
        raise RulesError(f"there is no die number {index + 1}; the roll has {len(pool.dice)}")


def roll_pool(sizes: Sequence[int], dice: Dice, *, exploding: bool = True) -> RolledPool:
    """Roll one die of each size. Pass ``exploding=False`` for non-damage rolls
    (healing, resting), which the text never makes explode."""
    if not sizes:
        raise RulesError("a roll needs at least one die")
    for sides in sizes:
        _check_sides(sides)
    rolled = []
    for sides in sizes:
        face = dice.roll(sides)
        # A face is a value of its die size alone: the usual sizes' dice are shared
        # (frozen; explosions make a new one), any other is built and checked as ever.
        die = _FRESH.get((sides, face)) if type(face) is int else None
        rolled.append(die if die is not None else RolledDie(sides, face))
    return RolledPool(tuple(rolled), exploding=exploding)


_FRESH = {(s, f): RolledDie(s, f) for s in (4, 6, 8, 10, 12, 20) for f in range(1, s + 1)}


def expected_explosion(sides: int) -> Fraction:
    """E[value of the die that a 10 makes you roll], chain included.

    E = mean + P(10)·E, so E = mean / (1 − 1/sides). The cap at 50 is ignored:
    its effect is far below any difference between two totals.
    """
    _check_sides(sides)
    if sides < EXPLODING_FACE:
        return Fraction(0)
    mean = Fraction(sides + 1, 2)
    return mean / (1 - Fraction(1, sides))


def expected_total(pool: RolledPool, index: int) -> Fraction:
    """What keeping die ``index`` is worth on average, before its explosions are rolled."""
    _check_index(pool, index)
    die = pool.dice[index]
    value = Fraction(die.face)
    if pool.exploding and die.can_explode:
        value += expected_explosion(die.sides)
    return value + pool.max_bonus(index)


def best_choice(rolled: RolledPool) -> int:
    """The index with the best expected total.

    Ties go to the earliest die in the pool; tied choices are worth the same on
    average. (A pending explosion makes the expectation a non-whole number, so
    it can only tie another die of the same size also showing 10.)
    """
    # Each die is worth its face plus the other dice showing their maximum, plus the
    # expected chain if it explodes: whole numbers except for that chain, so a Fraction
    # is made only for a pending explosion (ints and Fractions compare exactly).
    dice = rolled.dice
    exploding = rolled.exploding
    at_max = sum(1 for d in dice if d.face == d.sides)
    best_index, best_total = 0, None
    for index, die in enumerate(dice):
        total: int | Fraction = die.face + at_max - (1 if die.face == die.sides else 0)
        if exploding and die.can_explode:
            total += _explosion_value(die.sides)
        if best_total is None or total > best_total:
            best_index, best_total = index, total
    return best_index


@lru_cache(maxsize=32)
def _explosion_value(sides: int) -> Fraction:
    # Of the die size alone (a handful of sizes), and a Fraction division each time.
    return expected_explosion(sides)


def resolve_choice(rolled: RolledPool, index: int, dice: Dice) -> ManyDiceResult:
    """Keep die ``index``; if it shows a 10 on an exploding roll, roll its chain."""
    _check_index(rolled, index)
    die = rolled.dice[index]
    chain: list[int] = []
    if rolled.exploding and die.can_explode:
        while len(chain) < MAX_EXPLOSIONS:
            face = dice.roll(die.sides)
            chain.append(face)
            if face != EXPLODING_FACE:
                break
    return ManyDiceResult(rolled, index, tuple(chain))


def roll_one_result(
    sizes: Sequence[int], dice: Dice, *, exploding: bool = True, choose: int | None = None
) -> ManyDiceResult:
    """Roll and resolve at once, keeping ``choose`` or else the best die."""
    rolled = roll_pool(sizes, dice, exploding=exploding)
    index = best_choice(rolled) if choose is None else choose
    return resolve_choice(rolled, index, dice)
