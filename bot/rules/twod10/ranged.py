"""Cover, firing into melee, seeing through soft cover, darkness.

The look through soft cover is rolled by ``soft_cover`` (its rulings are there).

Rulings:

* ``hard-cover``: "If the number rolled is equal to the amount of cover … the
  attack misses" would make 1/4 and 3/4 cover equally good; the bot reads it as
  equal to or below, so 1/4 cover stops a quarter of attacks, 1/2 half, 3/4
  three quarters, and total cover every attack (no roll).
* ``stray-shot``: on a missed shot into melee the d8 picks another combatant
  (numbered from 1 in the order the GM lists them); that combatant becomes the
  target and the same dice are judged against their defense. A face above the
  number of other combatants hits nobody else and the miss stands.
* ``darkness``: low light gives ranged and thrown attacks disadvantage (those
  "outside melee range"); complete darkness gives every attack disadvantage and
  −2 more.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.tasks import TaskResult

MAX_COVER = 4  # quarters: 4 is total cover
STRAY_DIE = 8


class Light(Enum):
    NORMAL = "normal"
    LOW = "low light"
    DARK = "complete darkness"


DARKNESS_PENALTY = -2


def _check_quarters(quarters: int, what: str) -> int:
    if isinstance(quarters, bool) or not isinstance(quarters, int) or not 0 <= quarters <= 4:
        raise RulesError(f"{what} goes from 0 to {MAX_COVER} (quarters; 4 is total cover).")
    return quarters


@dataclass(frozen=True, kw_only=True)
class HardCoverCheck:
    quarters: int
    face: int | None  # None: no roll (no cover, or total cover)

    @property
    def blocked(self) -> bool:
        if self.quarters >= MAX_COVER:
            return True
        return self.face is not None and self.face <= self.quarters


def check_hard_cover(quarters: int, dice: Dice) -> HardCoverCheck:
    """Roll the d4 for hard cover (ruling hard-cover: equal to or below the quarters misses)."""
    quarters = _check_quarters(quarters, "Hard cover")
    if quarters in (0, MAX_COVER):
        return HardCoverCheck(quarters=quarters, face=None)
    return HardCoverCheck(quarters=quarters, face=dice.roll(4))


@dataclass(frozen=True, kw_only=True)
class StrayShot:
    face: int
    others: int

    @property
    def new_target(self) -> int | None:
        """1-based number of the combatant hit instead, or None."""
        return self.face if self.face <= self.others else None


def roll_stray(others: int, dice: Dice) -> StrayShot:
    if isinstance(others, bool) or not isinstance(others, int) or not 0 <= others <= 50:
        raise RulesError("Count the other combatants in the melee: 0 to 50.")
    return StrayShot(face=dice.roll(STRAY_DIE), others=others)


@dataclass(frozen=True, kw_only=True)
class SoftCoverSight:
    """The perception roll against soft cover and what it leaves (rolled by
    ``soft_cover.roll_look``, before the attack's dice)."""

    cover: int
    roll: TaskResult
    disadvantages: tuple[str, ...] = ()  # why the look itself had disadvantage (the light)

    @property
    def removed(self) -> int:
        if not self.roll.succeeded:
            return 0
        return min(self.cover, 1 + self.roll.margin // 5)

    @property
    def remaining(self) -> int:
        return self.cover - self.removed

    @property
    def disadvantage(self) -> bool:
        """Below 10 the attack also has disadvantage."""
        return not self.roll.succeeded


def see_through_soft_cover(cover: int, roll: TaskResult) -> SoftCoverSight:
    """Judge a perception + mind roll made with the enemy's stealth + finesse subtracted.

    10 removes a point of soft cover and every 5 more another.
    """
    return SoftCoverSight(cover=_check_quarters(cover, "Soft cover"), roll=roll)
