"""Torches and lanterns: secret burn time, counting down, dropping, oil.

"The GM rolls 2d6 take the highest in secret for a torch. This amount of
exploration actions/encounters/rooms explored until the torch goes out." A
lantern "lasts 3d8 take the highest, goes out on a 1 in 12 if dropped"; a torch
has "a one in four chance of going out when dropped". A lantern needs a unit of
oil to relight after it goes out, and none if it went out from being dropped.

Rulings:

* ``burn-time``: "take the highest" keeps the single highest die: a torch burns
  1-6 turns, a lantern 1-8, and each exploration action, encounter or room the
  GM advances is one turn.
* ``light-drop``: "one in four" / "1 in 12" is a d4 / d12 showing 1; a light
  that goes out when dropped keeps its remaining time and relights free.
* ``torch-spent``: a torch that burns out is spent (oil relights only lanterns);
  a relit lantern rolls a fresh burn time.
* ``light-warning``: the party is warned when a light has one turn left, in
  words that never give the number; the GM alone sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError

MAX_ADVANCE = 50
WARN_AT = 1


class LightKind(Enum):
    TORCH = "torch"
    LANTERN = "lantern"

    @property
    def burn_dice(self) -> tuple[int, int]:
        """(count, sides) rolled, keeping the highest (ruling burn-time)."""
        return (2, 6) if self is LightKind.TORCH else (3, 8)

    @property
    def drop_die(self) -> int:
        return 4 if self is LightKind.TORCH else 12

    @property
    def lights(self) -> str:
        if self is LightKind.TORCH:
            return "the bearer and 2 others, or 30 feet"
        return "the bearer and 3 others, or 40 feet"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class LightStatus(Enum):
    LIT = "lit"
    DROPPED_OUT = "out (dropped)"  # relights free with its remaining time
    BURNED_OUT = "burned out"


@dataclass(frozen=True, kw_only=True)
class Light:
    kind: LightKind
    remaining: int  # secret: turns left before it goes out
    status: LightStatus = LightStatus.LIT
    burn_roll: tuple[int, ...] = ()  # the faces of the last burn-time roll

    def __post_init__(self) -> None:
        high = self.kind.burn_dice[1]
        if isinstance(self.remaining, bool) or not 0 <= self.remaining <= high:
            raise RulesError(f"A {self.kind.value} burns from 0 to {high} turns.")
        if (self.remaining == 0) != (self.status is LightStatus.BURNED_OUT):
            raise RulesError("A light burns out exactly when its time runs out.")

    @property
    def lit(self) -> bool:
        return self.status is LightStatus.LIT


def roll_burn_time(kind: LightKind, dice: Dice) -> tuple[int, tuple[int, ...]]:
    count, sides = kind.burn_dice
    faces = tuple(dice.roll(sides) for _ in range(count))
    return max(faces), faces


def light(kind: LightKind, *, dice: Dice) -> Light:
    """Light a fresh torch or lantern: the GM's secret roll sets its burn time."""
    turns, faces = roll_burn_time(kind, dice)
    return Light(kind=kind, remaining=turns, burn_roll=faces)


@dataclass(frozen=True, kw_only=True)
class Advance:
    before: Light
    after: Light

    @property
    def went_out(self) -> bool:
        return self.before.lit and self.after.status is LightStatus.BURNED_OUT


def advance(source: Light, *, turns: int = 1) -> Advance:
    """The GM advances exploration time; only a lit light burns."""
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_ADVANCE:
        raise RulesError(f"Advance from 1 to {MAX_ADVANCE} turns at a time.")
    if not source.lit:
        return Advance(before=source, after=source)
    remaining = max(source.remaining - turns, 0)
    status = LightStatus.BURNED_OUT if remaining == 0 else LightStatus.LIT
    return Advance(before=source, after=replace(source, remaining=remaining, status=status))


@dataclass(frozen=True, kw_only=True)
class Drop:
    face: int
    sides: int
    before: Light
    after: Light

    @property
    def went_out(self) -> bool:
        return self.before.lit and not self.after.lit


def drop(source: Light, *, dice: Dice) -> Drop:
    """A dropped torch goes out on a d4 showing 1, a lantern on a d12 showing 1 (light-drop)."""
    if not source.lit:
        raise RulesError(f"The {source.kind.value} is not lit; dropping it changes nothing.")
    sides = source.kind.drop_die
    face = dice.roll(sides)
    after = replace(source, status=LightStatus.DROPPED_OUT) if face == 1 else source
    return Drop(face=face, sides=sides, before=source, after=after)


@dataclass(frozen=True, kw_only=True)
class Relight:
    after: Light
    oil_used: int


def relight(source: Light, *, oil: bool = False, dice: Dice) -> Relight:
    """Relight a dropped light free, or a burned-out lantern with a unit of oil (torch-spent)."""
    if source.lit:
        raise RulesError(f"The {source.kind.value} is already lit.")
    if source.status is LightStatus.DROPPED_OUT:
        return Relight(after=replace(source, status=LightStatus.LIT), oil_used=0)
    if source.kind is LightKind.TORCH:
        raise RulesError("A burned-out torch is spent; light a new one.")
    if not oil:
        raise RulesError("A burned-out lantern needs a unit of oil to relight.")
    return Relight(after=light(LightKind.LANTERN, dice=dice), oil_used=1)


def warning(source: Light) -> str | None:
    """What the party may hear about a light, never its number (ruling light-warning)."""
    if source.status is LightStatus.BURNED_OUT:
        return f"The {source.kind.value} has gone out."
    if source.status is LightStatus.DROPPED_OUT:
        return f"The dropped {source.kind.value} went out."
    if source.remaining <= WARN_AT:
        return f"The {source.kind.value} gutters: it is about to go out."
    return None
