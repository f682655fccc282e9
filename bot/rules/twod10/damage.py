"""Damage: the weapon's dice moved along the categories, extra dice, then the target's defenses.

Order (every step is recorded in ``DamageResult``):

1. a natural 2 deals nothing (ruling ``natural-two``: "always miss" is a clean
   miss, without the reduced damage other misses keep);
2. the die moves by the to-hit table's categories plus any bonus or penalty
   (a maneuver's −1, brawl's improvised steps), capped at d12; a miss that
   lands below a d4 deals nothing;
3. extra dice of the moved category: two on a natural 20, one when the weapon's
   high-roll feature triggers. Ruling ``extra-dice``: "a roll of 19 and 20" is
   the natural roll (the kept dice), extra dice come only with a hit, and a
   two-handed weapon's natural 20 gets both (three extra dice);
4. an axe against an unarmored target rolls one damage die twice and keeps the
   higher (ruling ``axe-unarmored``: "any one damage dice" is the weapon's own
   die; a shield is not armor);
5. the weapon's flat bonus, the attribute the attack kind adds, a bluff's extra;
6. a shield block halves what was rolled (rounded down) before reduction
   (ruling ``block-order``: it halves "the damage of an attack", i.e. the roll);
7. damage reduction (armor plus shield) less armor piercing (blunt weapons and
   crossbows ignore their (x)), never below 0;
8. ruling ``reduction-floor``: "This amount cannot be reduced below one" is read
   as the damage taken: an attack that deals damage always deals at least 1,
   whatever the reduction, block or strength penalty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.categories import Category, DamageDice, Shifted, shift

NATURAL_TWENTY_DICE = 2
MIN_DAMAGE = 1


class AttackOutcome(Protocol):
    """What damage reads from an attack: a ``TaskResult`` or a flipped ``DefendingRoll``."""

    @property
    def total(self) -> int: ...
    @property
    def natural(self) -> int: ...
    @property
    def natural_two(self) -> bool: ...
    @property
    def natural_twenty(self) -> bool: ...
    @property
    def category_shift(self) -> int: ...


@dataclass(frozen=True, kw_only=True)
class DamageSpec:
    """What the attack brings to the damage roll, before the target's defenses."""

    dice: DamageDice
    attribute_bonus: int = 0  # strength, 0 or nothing, by attack kind (see ``attack``)
    attribute_label: str = "strength"
    category_bonus: int = 0  # maneuver −1, improvised weapon steps, …
    extra_die_from: int | None = None  # the weapon's high-roll extra die
    is_axe: bool = False
    armor_piercing: int = 0
    extra_flat: int = 0  # a bluff's +3 per 4 above 10
    extra_flat_label: str = "bluff"


@dataclass(frozen=True, kw_only=True)
class Defenses:
    """The target's side of the damage roll."""

    reduction: int = 0
    armored: bool = False
    block: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.reduction <= 40:
            raise RulesError("Damage reduction must be from 0 to 40.")


@dataclass(frozen=True, kw_only=True)
class DieFace:
    sides: int
    face: int
    other: int | None = None  # the axe's second throw; the higher of the two is ``face``
    extra: bool = False


@dataclass(frozen=True, kw_only=True)
class DamageResult:
    spec: DamageSpec
    defenses: Defenses
    shifted: Shifted | None  # None on a natural 2
    faces: tuple[DieFace, ...]
    natural_twenty_dice: int
    weapon_extra_dice: int
    rending_dice: int = 0  # one more die a successful rending on a living foe added

    @property
    def deals_damage(self) -> bool:
        return self.shifted is not None and self.shifted.category is not None

    @property
    def dice_total(self) -> int:
        return sum(f.face for f in self.faces)

    @property
    def rolled(self) -> int:
        """Dice, weapon bonus, attribute and bluff extra: the damage before the target acts."""
        if not self.deals_damage:
            return 0
        return (
            self.dice_total
            + self.spec.dice.bonus
            + self.spec.attribute_bonus
            + self.spec.extra_flat
        )

    @property
    def after_block(self) -> int:
        rolled = max(self.rolled, 0)
        return rolled // 2 if self.defenses.block else rolled

    @property
    def reduction(self) -> int:
        """Damage reduction left after armor piercing."""
        return max(0, self.defenses.reduction - self.spec.armor_piercing)

    @property
    def total(self) -> int:
        if not self.deals_damage:
            return 0
        return max(self.after_block - self.reduction, MIN_DAMAGE)


def _face(category: Category, dice: Dice) -> int:
    face = dice.roll(category.sides)
    if not 1 <= face <= category.sides:
        raise RulesError(f"The dice gave an impossible d{category.sides} face; roll again.")
    return face


def add_damage_die(result: DamageResult, dice: Dice) -> DamageResult:
    """One more die of the attack's (moved) category: a successful rending on a live foe."""
    if not result.deals_damage or result.shifted is None or result.shifted.category is None:
        raise RulesError("This attack dealt no damage, so there is no die to add.")
    face = _throw(result.shifted.category, dice, extra=True)
    return replace(result, faces=(*result.faces, face), rending_dice=result.rending_dice + 1)


def _throw(category: Category, dice: Dice, *, twice: bool = False, extra: bool = False) -> DieFace:
    if category is Category.ONE:
        return DieFace(sides=1, face=1, extra=extra)  # a flat point: nothing to roll
    first = _face(category, dice)
    if not twice:
        return DieFace(sides=category.sides, face=first, extra=extra)
    second = _face(category, dice)
    return DieFace(
        sides=category.sides, face=max(first, second), other=min(first, second), extra=extra
    )


def roll_damage(
    spec: DamageSpec, attack: AttackOutcome, defenses: Defenses, *, dice: Dice
) -> DamageResult:
    """Roll the damage of ``attack`` (already judged against the defense)."""
    if attack.natural_two:
        return DamageResult(
            spec=spec,
            defenses=defenses,
            shifted=None,
            faces=(),
            natural_twenty_dice=0,
            weapon_extra_dice=0,
        )
    miss = attack.total < 10
    moved = shift(spec.dice.category, attack.category_shift + spec.category_bonus, miss=miss)
    if moved.category is None:
        return DamageResult(
            spec=spec,
            defenses=defenses,
            shifted=moved,
            faces=(),
            natural_twenty_dice=0,
            weapon_extra_dice=0,
        )
    hit = not miss
    nat20 = NATURAL_TWENTY_DICE if hit and attack.natural_twenty else 0
    weapon_extra = (
        1
        if hit and spec.extra_die_from is not None and attack.natural >= spec.extra_die_from
        else 0
    )
    axe_twice = spec.is_axe and not defenses.armored
    faces = [_throw(moved.category, dice, twice=axe_twice)]
    faces += [_throw(moved.category, dice) for _ in range(spec.dice.count - 1)]
    faces += [_throw(moved.category, dice, extra=True) for _ in range(nat20 + weapon_extra)]
    return DamageResult(
        spec=spec,
        defenses=defenses,
        shifted=moved,
        faces=tuple(faces),
        natural_twenty_dice=nat20,
        weapon_extra_dice=weapon_extra,
    )
