"""Special maneuvers: an attack at disadvantage and one damage category lower, with effects.

The attacker picks which defense the maneuver targets among those the text
lists (trip: finesse or strength; force back: mind or strength; bluff: mind;
disarm: finesse or mind); effects grow with each full step above 10.

Rulings:

* ``maneuver-effects``: the effects need a total of 10 or more; "every 4 above
  10" counts full steps (14 is one step, 13 none). A successful force back
  pushes 5 feet plus 5 per step, so that it does something at 10 as trip,
  disarm and throw do.
* ``maneuver-ranged``: ranged and thrown attacks may use every maneuver but
  force back, and disarm counts steps of 6 for them. Pin, throw and use as
  weapon are brawl's own (unarmed attacks); the text gives them no defense, so
  they target finesse or strength.
* ``brawl-hands``: a brawl maneuver with one hand free is made at −2 (the
  milder of "disadvantage or -2"); with both hands occupied it has disadvantage
  and, since "the disadvantage also applies to damage", one more category off.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import WeaponKind

_F, _S, _M = Attribute.FINESSE, Attribute.STRENGTH, Attribute.MIND


class Maneuver(Enum):
    TRIP = "trip"
    FORCE_BACK = "force back"
    BLUFF = "bluff"
    DISARM = "disarm"
    PIN = "pin"
    THROW = "throw"
    USE_AS_WEAPON = "use as weapon"

    @property
    def targets(self) -> tuple[Attribute, ...]:
        return _TARGETS[self]

    @property
    def brawl_only(self) -> bool:
        return self in (Maneuver.PIN, Maneuver.THROW, Maneuver.USE_AS_WEAPON)


_TARGETS = {
    Maneuver.TRIP: (_F, _S),
    Maneuver.FORCE_BACK: (_M, _S),
    Maneuver.BLUFF: (_M,),
    Maneuver.DISARM: (_F, _M),
    Maneuver.PIN: (_F, _S),
    Maneuver.THROW: (_F, _S),
    Maneuver.USE_AS_WEAPON: (_F, _S),
}

CATEGORY_PENALTY = -1
ONE_HAND_PENALTY = -2
_RANGED = (WeaponKind.RANGED, WeaponKind.THROWN)


class Hands(Enum):
    """Free hands for a brawl maneuver."""

    BOTH_FREE = "both free"
    ONE_FREE = "one free"
    NONE_FREE = "none free"


def check_maneuver(maneuver: Maneuver, kind: WeaponKind, target: Attribute) -> None:
    """Refuse a maneuver the attack kind can't make or a defense it can't target."""
    if maneuver.brawl_only and kind is not WeaponKind.BRAWL:
        raise RulesError(f"{maneuver.value.capitalize()} is a brawl maneuver; attack unarmed.")
    if maneuver is Maneuver.FORCE_BACK and kind in _RANGED:
        raise RulesError("A ranged or thrown attack can't force back; pick another maneuver.")
    if target not in maneuver.targets:
        names = " or ".join(a.value for a in maneuver.targets)
        raise RulesError(f"{maneuver.value.capitalize()} targets {names}; pick one of those.")


@dataclass(frozen=True, kw_only=True)
class ManeuverEffect:
    maneuver: Maneuver
    succeeded: bool
    steps: int = 0
    prone: bool = False
    movement_lost_feet: int = 0
    pushed_feet: int = 0
    thrown_feet: int = 0
    defense_disadvantage: bool = False
    extra_damage: int = 0
    items_dropped: int = 0
    extra_item_steps: int = 0  # each: another item dropped or the item moved 5 feet
    pinned: bool = False
    rounds: int = 0

    @property
    def summary(self) -> str:
        if not self.succeeded:
            return "no effect (below 10)"
        m = self.maneuver
        if m is Maneuver.TRIP:  # ruling ``trip-movement``: the lost feet are announced only
            text = "knocked prone"
            if self.movement_lost_feet:
                text += f", movement −{self.movement_lost_feet} ft"
            return text
        if m is Maneuver.FORCE_BACK:
            return f"pushed back {self.pushed_feet} ft"
        if m is Maneuver.BLUFF:
            text = "disadvantage on its defense roll"
            return text + (f", +{self.extra_damage} damage" if self.extra_damage else "")
        if m is Maneuver.DISARM:
            text = "drops 1 item"
            if self.extra_item_steps:
                steps = self.extra_item_steps
                items = "more item" if steps == 1 else "more items"
                moves = "a 5 ft move" if steps == 1 else "5 ft moves"
                text += f", plus {steps} {items} dropped or {moves} of it"
            return text
        if m is Maneuver.PIN:
            return "pinned: no movement, its attacks at disadvantage, attacks on it at advantage"
        if m is Maneuver.THROW:
            return f"thrown {self.thrown_feet} ft and prone"
        rounds = "1 round" if self.rounds == 1 else f"{self.rounds} rounds"
        return f"wielded as an improvised weapon for {rounds}"


def maneuver_effect(maneuver: Maneuver, total: int, *, kind: WeaponKind) -> ManeuverEffect:
    """The maneuver's effects for an attack total (after the defense is subtracted)."""
    if total < 10:
        return ManeuverEffect(maneuver=maneuver, succeeded=False)
    above = total - 10
    if maneuver is Maneuver.TRIP:
        steps = above // 4
        return ManeuverEffect(
            maneuver=maneuver, succeeded=True, steps=steps, prone=True,
            movement_lost_feet=5 * steps,
        )  # fmt: skip
    if maneuver is Maneuver.FORCE_BACK:
        steps = above // 4
        return ManeuverEffect(
            maneuver=maneuver, succeeded=True, steps=steps, pushed_feet=5 + 5 * steps
        )
    if maneuver is Maneuver.BLUFF:
        steps = above // 4
        return ManeuverEffect(
            maneuver=maneuver, succeeded=True, steps=steps, defense_disadvantage=True,
            extra_damage=3 * steps,
        )  # fmt: skip
    if maneuver is Maneuver.DISARM:
        steps = above // (6 if kind in _RANGED else 4)
        return ManeuverEffect(
            maneuver=maneuver, succeeded=True, steps=steps, items_dropped=1,
            extra_item_steps=steps,
        )  # fmt: skip
    if maneuver is Maneuver.PIN:
        return ManeuverEffect(maneuver=maneuver, succeeded=True, pinned=True)
    steps = above // 2
    if maneuver is Maneuver.THROW:
        return ManeuverEffect(
            maneuver=maneuver, succeeded=True, steps=steps, prone=True,
            thrown_feet=5 + 5 * steps,
        )  # fmt: skip
    return ManeuverEffect(maneuver=maneuver, succeeded=True, steps=steps, rounds=1 + steps)
