"""Building and rolling a damage pool (Part 3, "Building a Damage Pool").

A pool is the source die (weapon or ability), the lethality d10 unless the
attacker declared non-lethal damage, the attacker's attribute die, size dice,
one d10 per triggered weakness and the impact combat advantage. Every die keeps
its role and damage types so the result can say where each face came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import attribute_die
from bot.rules.hocs.character import SizeCategory, SizeGroup
from bot.rules.hocs.many_dice import (
    ManyDiceResult,
    RolledPool,
    best_choice,
    resolve_choice,
    roll_pool,
)


class Defense(Enum):
    """Which defensive value reduces a damage type."""

    TOUGHNESS = "toughness"
    METTLE = "mettle"


class DamageType(Enum):
    """Damage types. Damage is physical unless an ability says otherwise.

    Slash, pierce and blunt are kinds of physical damage: a resistance, immunity
    or weakness to PHYSICAL covers them, one to BLUNT covers only blunt. Mettle
    reduces mental and spiritual damage; toughness reduces everything else (the
    text's example makes toughness cover fire).
    """

    PHYSICAL = "physical"
    SLASH = "slash"
    PIERCE = "pierce"
    BLUNT = "blunt"
    FIRE = "fire"
    COLD = "cold"
    LIGHTNING = "lightning"
    ACID = "acid"
    POISON = "poison"
    HOLY = "holy"
    UNHOLY = "unholy"
    MAGIC = "magic"
    MENTAL = "mental"
    SPIRITUAL = "spiritual"

    @property
    def is_physical(self) -> bool:
        return self in _PHYSICAL

    @property
    def defense(self) -> Defense:
        return Defense.METTLE if self in _METTLE else Defense.TOUGHNESS

    def covered_by(self, quality: DamageType) -> bool:
        """Whether a resistance/immunity/weakness to ``quality`` applies to this type."""
        return quality is self or (quality is DamageType.PHYSICAL and self.is_physical)


_PHYSICAL = frozenset({DamageType.PHYSICAL, DamageType.SLASH, DamageType.PIERCE, DamageType.BLUNT})
_METTLE = frozenset({DamageType.MENTAL, DamageType.SPIRITUAL})


def covered_types(
    types: Iterable[DamageType], qualities: Iterable[DamageType]
) -> tuple[DamageType, ...]:
    """The ``types`` that some quality (resistance, immunity, weakness) covers."""
    qualities = tuple(qualities)
    return tuple(t for t in types if any(t.covered_by(q) for q in qualities))


_GROUP_RANK = {SizeGroup.MINUSCULE: 0, SizeGroup.CONVENTIONAL: 1, SizeGroup.EXTRAORDINARY: 2}


class AttackKind(Enum):
    """Which attribute die an attack adds: melee STR, ranged AGI, magic MIND or PRES."""

    MELEE = "melee"
    RANGED = "ranged"
    MAGIC = "magic"


class Impact(Enum):
    """The impact combat advantage: [1d6] or [1d8] on the damage roll."""

    D6 = 6
    D8 = 8


class DieRole(Enum):
    SOURCE = "source"
    LETHALITY = "lethality"
    ATTRIBUTE = "attribute"
    SIZE = "size"
    WEAKNESS = "weakness"
    IMPACT = "impact"
    BONUS = "bonus"


@dataclass(frozen=True)
class PoolDie:
    sides: int
    role: DieRole
    types: tuple[DamageType, ...]

    @property
    def label(self) -> str:
        """``"source"``, ``"weakness:fire"`` …"""
        if self.role is DieRole.WEAKNESS:
            return f"weakness:{self.types[0].value}"
        return self.role.value


@dataclass(frozen=True)
class DamagePool:
    """The dice to roll, and the damage types the attack deals.

    ``immune`` is set when the target is immune to every type the attack deals;
    the pool is then empty and the attack does no damage.
    """

    dice: tuple[PoolDie, ...]
    types: tuple[DamageType, ...]
    lethal: bool
    immune: bool = False

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(d.sides for d in self.dice)


def size_dice(attacker: SizeCategory, target: SizeCategory) -> tuple[int, ...]:
    """+1d8 against a smaller target of the same group, +1d10 per smaller group."""
    if attacker.group is target.group:
        return (8,) if attacker.rank > target.rank else ()
    groups_smaller = _GROUP_RANK[attacker.group] - _GROUP_RANK[target.group]
    return (10,) * max(0, groups_smaller)


def _unique(types: Iterable[DamageType]) -> tuple[DamageType, ...]:
    return tuple(dict.fromkeys(types))


def build_damage_pool(
    *,
    source: Sequence[int],
    attack_kind: AttackKind,
    attribute: int,
    types: Sequence[DamageType] = (DamageType.PHYSICAL,),
    lethal: bool = True,
    attacker_size: SizeCategory = SizeCategory.MEDIUM,
    target_size: SizeCategory = SizeCategory.MEDIUM,
    target_weaknesses: Iterable[DamageType] = (),
    target_immunities: Iterable[DamageType] = (),
    impact: Impact | None = None,
    bonus_dice: Sequence[tuple[int, DamageType]] = (),
) -> DamagePool:
    """Assemble the pool for one attack.

    ``attribute`` is the attacker's value for ``attack_kind`` (STR for melee, AGI
    for ranged, MIND or PRES for magic, the attacker's choice). ``bonus_dice``
    are extra typed dice from talents or spells, e.g. ``[(6, DamageType.FIRE)]``.

    Rulings: the lethality, attribute, size and impact dice carry the attack's
    own types. Immunity is resolved first: immune types are struck from the
    attack and from every die, and a die left with no type (a weakness or bonus
    die of the immune type) is dropped. If the target is immune to every type
    the attack deals, nothing is left and the attack deals no damage.
    """
    if not source:
        raise RulesError("an attack needs at least one source die")
    for sides in source:
        if sides < 2:
            raise RulesError(f"a d{sides} cannot be a source die")
    if not types:
        raise RulesError("an attack must deal at least one type of damage")
    attack_types = _unique(types)
    immunities = tuple(target_immunities)

    def surviving(die_types: tuple[DamageType, ...]) -> tuple[DamageType, ...]:
        if not immunities:  # (most targets: every die keeps its types, already unique)
            return die_types
        immune = set(covered_types(die_types, immunities))
        return tuple(t for t in _unique(die_types) if t not in immune)

    remaining = surviving(attack_types)
    if not remaining:
        return DamagePool(dice=(), types=(), lethal=lethal, immune=True)

    wanted: list[tuple[int, DieRole, tuple[DamageType, ...]]] = []
    wanted += [(s, DieRole.SOURCE, attack_types) for s in source]
    if lethal:
        wanted.append((10, DieRole.LETHALITY, attack_types))
    wanted += [(s, DieRole.ATTRIBUTE, attack_types) for s in attribute_die(attribute)]
    wanted += [(s, DieRole.SIZE, attack_types) for s in size_dice(attacker_size, target_size)]
    # One d10 per weakness the attack triggers, of the weakness's own type
    # ("+1d10 holy and +1d10 blunt"). Bonus dice's types can trigger them too.
    all_types = _unique((*attack_types, *(t for _, t in bonus_dice)))
    for weakness in _unique(target_weaknesses):
        if any(t.covered_by(weakness) for t in all_types):
            wanted.append((10, DieRole.WEAKNESS, (weakness,)))
    if impact is not None:
        wanted.append((impact.value, DieRole.IMPACT, attack_types))
    for sides, damage_type in bonus_dice:
        if sides < 2:
            raise RulesError(f"a d{sides} cannot be a bonus die")
        wanted.append((sides, DieRole.BONUS, (damage_type,)))

    dice: list[PoolDie] = []
    for sides, role, die_types in wanted:
        kept = surviving(die_types)
        if kept:
            dice.append(PoolDie(sides, role, kept))
    pool_types = _unique(t for d in dice for t in d.types)
    return DamagePool(dice=tuple(dice), types=pool_types, lethal=lethal)


@dataclass(frozen=True)
class DamageRoll:
    """A rolled damage pool: the kept die, bonuses and the damage dealt.

    The damage counts as every type in the pool, whichever die was kept (a
    flaming arrow deals physical and fire damage whatever face is picked).
    """

    pool: DamagePool
    result: ManyDiceResult | None
    bonus: int = 0

    @property
    def amount(self) -> int:
        if self.result is None:
            return 0
        return max(0, self.result.total + self.bonus)

    @property
    def types(self) -> tuple[DamageType, ...]:
        return self.pool.types

    @property
    def lethal(self) -> bool:
        return self.pool.lethal

    @property
    def chosen_die(self) -> PoolDie | None:
        return None if self.result is None else self.pool.dice[self.result.chosen_index]


def roll_damage_pool(pool: DamagePool, dice: Dice) -> RolledPool | None:
    """Roll the faces (damage dice explode); None when immunity emptied the pool."""
    if not pool.dice:
        return None
    return roll_pool(pool.sizes, dice, exploding=True)


def resolve_damage(
    pool: DamagePool, rolled: RolledPool | None, index: int | None, dice: Dice, *, bonus: int = 0
) -> DamageRoll:
    """Keep die ``index`` (or the best) of ``rolled`` and roll its explosions."""
    if rolled is None:
        return DamageRoll(pool, None, bonus)
    if rolled.sizes != pool.sizes:
        raise RulesError("those dice were not rolled for this damage pool")
    chosen = best_choice(rolled) if index is None else index
    return DamageRoll(pool, resolve_choice(rolled, chosen, dice), bonus)


def roll_damage(
    pool: DamagePool, dice: Dice, *, choose: int | None = None, bonus: int = 0
) -> DamageRoll:
    """Roll and resolve in one step."""
    return resolve_damage(pool, roll_damage_pool(pool, dice), choose, dice, bonus=bonus)
