"""Ammo points: spent on a ranged attack's 1s, held in quivers, scavenged after.

"When a one is rolled on either dice when making a ranged attack, ammo points
are reduced by one. A pouch or quiver counts as one item weight and holds 2
ammo points. An ammo point is equivalent to 10 arrows or bullets. When
scavenging used ammo roll a 1d10. On a 1, gain 1/2 ammo points. Additional
exploration turns can bring the chance of gaining ammo points up to either a 2
or perception."

Rulings:

* ``ammo-ones``: only the kept dice count, and one point goes per attack even
  when both show 1; an archer with no ammo points can't shoot; thrown weapons
  use no ammo points.
* ``ammo-capacity``: ammo points live in pouches or quivers, 2 each; scavenged
  points beyond that room are left behind.
* ``scavenge-gain``: "gain 1/2 ammo points" is half the points spent since the
  last scavenge, rounded up; one scavenge per lot of spent ammo, succeeding on
  a d10 at or under the turns spent, at most the higher of 2 and perception.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackResult
from bot.rules.twod10.equipment import WeaponKind
from bot.rules.twod10.tasks import D10Roll
from bot.rules.twod10.wielding import Wielded

POINTS_PER_QUIVER = 2
ARROWS_PER_POINT = 10
MAX_QUIVERS = 10
MAX_SCAVENGE_TURNS = 10
MAX_SPENT = 1000  # a bound for storage; only half of it could ever come back anyway
SCAVENGE_DIE = 10
BASE_SCAVENGE_CHANCE = 2


@dataclass(frozen=True, kw_only=True)
class AmmoState:
    points: int
    quivers: int
    spent: int = 0  # points spent since the last scavenge

    def __post_init__(self) -> None:
        for name, value, high in (
            ("Quivers", self.quivers, MAX_QUIVERS),
            ("Ammo points", self.points, self.capacity),
            ("Spent ammo", self.spent, MAX_SPENT),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise RulesError(f"{name} must be a whole number from 0 to {high}.")

    @property
    def capacity(self) -> int:
        return self.quivers * POINTS_PER_QUIVER

    @property
    def weight(self) -> int:
        """Each pouch or quiver is one item weight."""
        return self.quivers


def check_can_shoot(state: AmmoState) -> None:
    if state.points <= 0:
        raise RulesError("You have no ammo points left; scavenge or restock first.")


def spends_ammo(roll: D10Roll) -> bool:
    """A 1 on either kept die (ruling ammo-ones)."""
    return 1 in roll.kept


@dataclass(frozen=True, kw_only=True)
class AmmoSpend:
    before: AmmoState
    after: AmmoState

    @property
    def spent(self) -> int:
        return self.before.points - self.after.points


def after_ranged_attack(state: AmmoState, roll: D10Roll) -> AmmoSpend:
    """Take the attack's ammo point, if its dice showed a 1."""
    check_can_shoot(state)
    if not spends_ammo(roll):
        return AmmoSpend(before=state, after=state)
    after = replace(state, points=state.points - 1, spent=min(state.spent + 1, MAX_SPENT))
    return AmmoSpend(before=state, after=after)


def uses_ammo(wielded: Wielded) -> bool:
    """Bows, crossbows and slings use ammo points; thrown weapons don't (ruling ammo-ones)."""
    return wielded.kind is WeaponKind.RANGED


def after_attack(state: AmmoState, result: AttackResult) -> AmmoSpend:
    """The ammo an attack the bot already rolled costs (nothing unless ranged with a 1).

    An attack hard cover stopped rolled no dice, so it rolled no 1 either.
    """
    if not uses_ammo(result.wielded) or result.roll is None:
        return AmmoSpend(before=state, after=state)
    return after_ranged_attack(state, result.roll.roll)


def scavenge_chance(turns: int, perception: int) -> int:
    """The highest d10 face that finds ammo after ``turns`` exploration turns."""
    return min(turns, max(BASE_SCAVENGE_CHANCE, perception))


@dataclass(frozen=True, kw_only=True)
class Scavenge:
    face: int
    chance: int
    before: AmmoState
    after: AmmoState
    left_behind: int  # found but no room in a quiver

    @property
    def found(self) -> bool:
        return self.face <= self.chance


def scavenge(state: AmmoState, *, turns: int = 1, perception: int = 0, dice: Dice) -> Scavenge:
    """One d10 for the spent ammo (ruling scavenge-gain)."""
    if (
        isinstance(turns, bool)
        or not isinstance(turns, int)
        or not 1 <= turns <= MAX_SCAVENGE_TURNS
    ):
        raise RulesError(f"Scavenge for 1 to {MAX_SCAVENGE_TURNS} exploration turns.")
    if isinstance(perception, bool) or not isinstance(perception, int) or not 0 <= perception <= 6:
        raise RulesError("Perception must be a whole number from 0 to 6.")
    if state.spent == 0:
        raise RulesError("No ammo has been spent since the last scavenge; there is none to find.")
    chance = scavenge_chance(turns, perception)
    face = dice.roll(SCAVENGE_DIE)
    found = -(-state.spent // 2) if face <= chance else 0
    kept = min(found, state.capacity - state.points)
    after = replace(state, points=state.points + kept, spent=0)
    return Scavenge(face=face, chance=chance, before=state, after=after, left_behind=found - kept)


def restock(state: AmmoState, *, points: int) -> AmmoState:
    """Add bought or found ammo points, refusing what no quiver can hold."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise RulesError("Add 1 or more ammo points.")
    if state.points + points > state.capacity:
        raise RulesError(
            f"Your {state.quivers} {'quiver holds' if state.quivers == 1 else 'quivers hold'}"
            f" {state.capacity} ammo {'point' if state.capacity == 1 else 'points'}; "
            f"there is room for {state.capacity - state.points}."
        )
    return replace(state, points=state.points + points)
