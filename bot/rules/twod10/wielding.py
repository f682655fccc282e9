"""What an attack is made with: a table weapon, bare hands, an improvised weapon.

Unarmed damage follows the brawl table (1: 1, 2: 1d2, 3: 1d3, 4: 1d4, 5: 1d6).
Ruling ``brawl-table-ends``: brawl 0 hits for 1 like brawl 1, and brawl 6 (the
final maximum) goes one step further along the ladder, to 1d8.

Ruling ``thrown-skill``: the text says a thrown weapon uses finesse for the
attack but names no skill; it is the ranged skill, as for any missile.

Improvised weapons gain one category at brawl 2 and another at brawl 4. Ruling
``improvised-concealable``: the concealable one is unarmed damage +1 (its "+1 (as
unarmed)"), also moved by those steps. An opponent used as a weapon is one category larger.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.errors import RulesError
from bot.rules.twod10.categories import CAP, Category, DamageDice
from bot.rules.twod10.equipment import Family, Size, Weapon, WeaponKind, improvised

_UNARMED = {
    0: Category.ONE,
    1: Category.ONE,
    2: Category.D2,
    3: Category.D3,
    4: Category.D4,
    5: Category.D6,
    6: Category.D8,
}


@dataclass(frozen=True, kw_only=True)
class Wielded:
    name: str
    kind: WeaponKind
    dice: DamageDice
    weapon: Weapon | None = None
    offhand: bool = False
    living: bool = False  # an opponent wielded as a weapon takes half the damage it deals

    @property
    def finesse_allowed(self) -> bool:
        if self.kind in (WeaponKind.RANGED, WeaponKind.THROWN):
            return True
        if self.kind is WeaponKind.MELEE:
            return self.weapon is not None and self.weapon.finesse_allowed
        return True  # brawl and improvised: "strength or finesse+brawl"

    @property
    def extra_die_from(self) -> int | None:
        return self.weapon.extra_die_from if self.weapon is not None else None

    @property
    def is_axe(self) -> bool:
        return self.weapon is not None and self.weapon.family is Family.AXE

    @property
    def armor_piercing(self) -> int:
        return self.weapon.ignores_reduction if self.weapon is not None else 0


def _step(dice: DamageDice, steps: int) -> DamageDice:
    category = Category(min(int(dice.category) + steps, int(CAP)))
    return DamageDice(count=dice.count, category=category, bonus=dice.bonus)


def wield(
    weapon: Weapon, *, thrown: bool = False, two_handed_grip: bool = False, offhand: bool = False
) -> Wielded:
    """A table weapon as used for this attack (thrown, held in two hands, in the offhand)."""
    dice = weapon.damage
    kind = weapon.kind
    if thrown:
        if not weapon.thrown:
            raise RulesError(f"A {weapon.name.lower()} can't be thrown; attack in melee.")
        kind = WeaponKind.THROWN
    if two_handed_grip:
        grip = weapon.two_hand_grip_damage
        if grip is None:
            raise RulesError("Only a one-handed melee weapon gains from a two-handed grip.")
        dice = grip
    if offhand:
        if weapon.kind is not WeaponKind.MELEE or weapon.size is not Size.LIGHT:
            raise RulesError("Only a light melee weapon can be held in the offhand.")
        if thrown or two_handed_grip:
            raise RulesError("An offhand weapon is swung in one hand, not thrown or gripped.")
    return Wielded(name=weapon.name, kind=kind, dice=dice, weapon=weapon, offhand=offhand)


def _check_brawl(brawl: int) -> int:
    if isinstance(brawl, bool) or not isinstance(brawl, int) or not 0 <= brawl <= 6:
        raise RulesError("Brawl must be a whole number from 0 to 6.")
    return brawl


def unarmed_dice(brawl: int) -> DamageDice:
    return DamageDice(count=1, category=_UNARMED[_check_brawl(brawl)])


def unarmed(brawl: int) -> Wielded:
    return Wielded(name="Unarmed", kind=WeaponKind.BRAWL, dice=unarmed_dice(brawl))


def improvised_steps(brawl: int) -> int:
    """Categories improvised weapons gain: one at brawl 2, another at brawl 4."""
    brawl = _check_brawl(brawl)
    return (brawl >= 2) + (brawl >= 4)


def improvised_weapon(size: Size, brawl: int, *, living: bool = False) -> Wielded:
    """An improvised weapon of ``size``; ``living``: an opponent wielded, one category larger."""
    item = improvised(size)
    base = item.damage or DamageDice(
        count=1, category=unarmed_dice(brawl).category, bonus=item.bonus
    )
    dice = _step(base, improvised_steps(brawl) + (1 if living else 0))
    name = f"Improvised ({size.value})" if not living else f"Opponent as weapon ({size.value})"
    return Wielded(name=name, kind=WeaponKind.IMPROVISED, dice=dice, living=living)
