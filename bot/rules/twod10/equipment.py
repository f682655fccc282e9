"""Weapons, armor, shields and improvised weapons from the document's tables.

Everything here is frozen data; look items up with ``weapon``, ``armor`` and
``shield`` (case and spacing forgiven).

Rulings:

* ``two-damage-forms``: the two-handed sword and blunt weapon read "2d6+2 or
  1d12+2" (and "2d6(4) or 1d12(4)"); each form is its own table entry and the
  player picks one, as they would pick a weapon.
* ``weapon-weights``: "one handed weapons and lower" weigh 1 and two-handed
  weapons 2; bows are held in two hands, so they weigh 2 like a heavy crossbow;
  hand and light crossbows and slings weigh 1; light armor weighs 1 (the text
  gives only medium 2 and heavy 3).
* ``large-light-shield``: "bucklers and light shields count as one item weight"
  but "a light large shield counts as two"; the named shield wins: 2.
* ``crossbow-range``: crossbows have no range in the text; the GM rules it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.categories import Category, DamageDice


class WeaponKind(Enum):
    """How an attack is made; decides the skill and what is added to damage."""

    MELEE = "melee"
    RANGED = "ranged"
    THROWN = "thrown"
    BRAWL = "brawl"
    IMPROVISED = "improvised"


class Family(Enum):
    SWORD = "sword"
    AXE = "axe"
    BLUNT = "blunt"
    POLEARM = "polearm"
    BOW = "bow"
    CROSSBOW = "crossbow"
    SLING = "sling"


class Size(Enum):
    CONCEALABLE = "concealable"
    LIGHT = "light"
    ONE_HANDED = "one-handed"
    TWO_HANDED = "two-handed"


@dataclass(frozen=True, kw_only=True)
class Weapon:
    name: str
    family: Family
    size: Size
    damage: DamageDice
    kind: WeaponKind  # MELEE or RANGED; a thrown weapon is a MELEE weapon thrown
    thrown: bool = False  # *t
    reach: bool = False  # *r: 10 feet, advantage on interrupts when a foe enters the range
    ignores_reduction: int = 0  # blunt (x), crossbow (x)
    extra_die_from: int | None = None  # natural roll from which one extra die is added
    range_feet: int | None = None
    weight: int = 1
    needs_loading: bool = False
    # Ruling ``cleave-weapons``: the tables' melee weapons and bows cleave; an unarmed or
    # improvised attack has no Weapon, so no kill of theirs grants the extra attack.
    endless_cleave: bool = False
    bonus_second_attack: bool = False  # sling
    one_hand_fire: bool = False  # hand crossbow

    @property
    def finesse_allowed(self) -> bool:
        """Any one handed, light or concealable melee weapon may be used with finesse."""
        return self.kind is WeaponKind.MELEE and self.size is not Size.TWO_HANDED

    @property
    def two_hand_grip_damage(self) -> DamageDice | None:
        """A one handed weapon held in two hands rolls a d10 instead (bonus kept)."""
        if self.kind is not WeaponKind.MELEE or self.size is not Size.ONE_HANDED:
            return None
        return DamageDice(count=1, category=Category.D10, bonus=self.damage.bonus)


def _d(count: int, sides: int, bonus: int = 0) -> DamageDice:
    return DamageDice(count=count, category=Category.for_sides(sides), bonus=bonus)


def _melee(name: str, family: Family, size: Size, damage: DamageDice, **extra: object) -> Weapon:
    two = size is Size.TWO_HANDED
    # "Two handed weapons and axes do an extra dice of damage on a roll of 19 and
    # 20. Two handed axes do an extra dice of damage on an 18."
    extra_from = None
    if two or family is Family.AXE:
        extra_from = 18 if (two and family is Family.AXE) else 19
    return Weapon(
        name=name,
        family=family,
        size=size,
        damage=damage,
        kind=WeaponKind.MELEE,
        extra_die_from=extra_from,
        weight=2 if two else 1,
        endless_cleave=True,
        **extra,  # type: ignore[arg-type]
    )


_S, _A, _B, _P = Family.SWORD, Family.AXE, Family.BLUNT, Family.POLEARM
_C, _L, _O, _T = Size.CONCEALABLE, Size.LIGHT, Size.ONE_HANDED, Size.TWO_HANDED

WEAPONS: tuple[Weapon, ...] = (
    _melee("Concealable sword", _S, _C, _d(1, 4, 1), thrown=True),
    _melee("Light sword", _S, _L, _d(1, 6, 1)),
    _melee("One-handed sword", _S, _O, _d(1, 8, 2)),
    _melee("Two-handed sword 2d6", _S, _T, _d(2, 6, 2)),
    _melee("Two-handed sword 1d12", _S, _T, _d(1, 12, 2)),
    _melee("Light axe", _A, _L, _d(1, 6), thrown=True),
    _melee("One-handed axe", _A, _O, _d(1, 8)),
    _melee("Two-handed axe", _A, _T, _d(1, 12)),
    _melee("Concealable blunt", _B, _C, _d(1, 4)),
    _melee("Light blunt", _B, _L, _d(1, 6), ignores_reduction=2),
    _melee("One-handed blunt", _B, _O, _d(1, 8), ignores_reduction=3),
    _melee("Two-handed blunt 2d6", _B, _T, _d(2, 6), ignores_reduction=4),
    _melee("Two-handed blunt 1d12", _B, _T, _d(1, 12), ignores_reduction=4),
    _melee("Light polearm", _P, _L, _d(1, 6), thrown=True),
    _melee("One-handed polearm", _P, _O, _d(1, 8), thrown=True, reach=True),
    _melee("Two-handed polearm", _P, _T, _d(1, 10), reach=True),
    Weapon(name="Shortbow", family=Family.BOW, size=_T, damage=_d(1, 6),
           kind=WeaponKind.RANGED, range_feet=60, weight=2, endless_cleave=True),
    Weapon(name="Longbow", family=Family.BOW, size=_T, damage=_d(1, 8),
           kind=WeaponKind.RANGED, range_feet=80, weight=2, endless_cleave=True),
    Weapon(name="Hand crossbow", family=Family.CROSSBOW, size=_O, damage=_d(1, 6),
           kind=WeaponKind.RANGED, ignores_reduction=3, needs_loading=True, one_hand_fire=True),
    Weapon(name="Light crossbow", family=Family.CROSSBOW, size=_T, damage=_d(1, 8),
           kind=WeaponKind.RANGED, ignores_reduction=4, needs_loading=True),
    Weapon(name="Heavy crossbow", family=Family.CROSSBOW, size=_T, damage=_d(1, 10),
           kind=WeaponKind.RANGED, ignores_reduction=5, needs_loading=True, weight=2),
    Weapon(name="Sling", family=Family.SLING, size=_O, damage=_d(1, 4),
           kind=WeaponKind.RANGED, range_feet=60, bonus_second_attack=True),
)  # fmt: skip


def thrown_range(strength: int) -> int:
    """A thrown weapon's range in feet: 20 + 5 per point of strength (never below 0)."""
    return max(0, 20 + 5 * strength)


class ArmorClass(Enum):
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"


@dataclass(frozen=True, kw_only=True)
class Armor:
    name: str
    weight_class: ArmorClass
    reduction: int
    penalty: int

    @property
    def weight(self) -> int:
        return {ArmorClass.LIGHT: 1, ArmorClass.MEDIUM: 2, ArmorClass.HEAVY: 3}[self.weight_class]


ARMORS: tuple[Armor, ...] = (
    Armor(name="Gambeson", weight_class=ArmorClass.LIGHT, reduction=1, penalty=0),
    Armor(name="Leather", weight_class=ArmorClass.LIGHT, reduction=2, penalty=1),
    Armor(name="Brigandine", weight_class=ArmorClass.MEDIUM, reduction=3, penalty=2),
    Armor(name="Chain shirt", weight_class=ArmorClass.MEDIUM, reduction=4, penalty=2),
    Armor(name="Hauberk", weight_class=ArmorClass.HEAVY, reduction=5, penalty=3),
    Armor(name="Lamellar", weight_class=ArmorClass.HEAVY, reduction=7, penalty=4),
    Armor(name="Plate", weight_class=ArmorClass.HEAVY, reduction=8, penalty=4),
)


@dataclass(frozen=True, kw_only=True)
class Shield:
    name: str
    reduction: int
    penalty: int
    blocks: int  # the "attacks" column: blocks before the shield breaks
    weight: int
    same_hand_weapon: bool = False  # buckler: a weapon in the same hand attacks at disadvantage


SHIELDS: tuple[Shield, ...] = (
    Shield(name="Buckler", reduction=2, penalty=0, blocks=1, weight=1, same_hand_weapon=True),
    Shield(name="Light round shield", reduction=3, penalty=1, blocks=2, weight=1),
    Shield(name="Heavy round shield", reduction=3, penalty=1, blocks=3, weight=2),
    Shield(name="Light large shield", reduction=4, penalty=2, blocks=2, weight=2),
    Shield(name="Heavy large shield", reduction=4, penalty=2, blocks=4, weight=3),
)


@dataclass(frozen=True, kw_only=True)
class Improvised:
    """An improvised weapon by size; the concealable one is unarmed damage +1."""

    size: Size
    damage: DamageDice | None  # None: the wielder's unarmed damage
    bonus: int = 0


IMPROVISED: tuple[Improvised, ...] = (
    Improvised(size=Size.CONCEALABLE, damage=None, bonus=1),
    Improvised(size=Size.LIGHT, damage=_d(1, 3)),
    Improvised(size=Size.ONE_HANDED, damage=_d(1, 4)),
    Improvised(size=Size.TWO_HANDED, damage=_d(1, 6)),
)


def _key(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def _lookup(table: tuple, text: str, what: str) -> object:  # type: ignore[type-arg]
    key = _key(text)
    for item in table:
        if _key(item.name) == key:
            return item
    names = ", ".join(item.name for item in table)
    raise RulesError(f"“{text.strip()[:40]}” is not a {what}; choose one of: {names}.")


def weapon(name: str) -> Weapon:
    return _lookup(WEAPONS, name, "weapon in the table")  # type: ignore[return-value]


def armor(name: str) -> Armor:
    return _lookup(ARMORS, name, "suit of armor")  # type: ignore[return-value]


def shield(name: str) -> Shield:
    return _lookup(SHIELDS, name, "shield")  # type: ignore[return-value]


def improvised(size: Size) -> Improvised:
    return next(item for item in IMPROVISED if item.size is size)


@dataclass(frozen=True, kw_only=True)
class BlockSpent:
    used: int
    left: int

    @property
    def broken(self) -> bool:
        """The block that used the last of the shield's "attacks" breaks it."""
        return self.left == 0


def spend_block(item: Shield, used: int) -> BlockSpent:
    """One block (a reaction, never declared): refused once the shield is broken."""
    if isinstance(used, bool) or not isinstance(used, int) or used < 0:
        raise RulesError("Blocks used must be a whole number, 0 or more.")
    if used >= item.blocks:
        raise RulesError(f"This {item.name.lower()} is broken; it can't block again.")
    return BlockSpent(used=used + 1, left=item.blocks - used - 1)
