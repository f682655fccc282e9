"""What the attacker uses: combat advantages, the weapon, and the damage pools."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack.combatant import Combatant
from bot.rules.hocs.attack.stored import HitInputs
from bot.rules.hocs.character import SizeCategory
from bot.rules.hocs.damage_pool import (
    AttackKind,
    DamagePool,
    DamageType,
    DieRole,
    Impact,
    PoolDie,
    build_damage_pool,
    covered_types,
    roll_damage_pool,
)


class Advantage(Enum):
    """Combat advantages an attacker can take on a hit by 2+ (counter is the defender's)."""

    IMPACT_D6 = "impact_d6"
    IMPACT_D8 = "impact_d8"
    TEMPO = "tempo"
    AEGIS = "aegis"

    @property
    def impact(self) -> Impact | None:
        return {Advantage.IMPACT_D6: Impact.D6, Advantage.IMPACT_D8: Impact.D8}.get(self)

    @property
    def text(self) -> str:
        return _ADVANTAGE_TEXT[self]


_ADVANTAGE_TEXT = {
    Advantage.IMPACT_D6: "impact: +1d6 on the damage roll",
    Advantage.IMPACT_D8: "impact: +1d8 on the damage roll",
    Advantage.TEMPO: "tempo: no bane on further attacks until the end of the turn",
    Advantage.AEGIS: "aegis: 1 reroll on a defense roll until the end of the next turn",
}
DEFAULT_ADVANTAGE = Advantage.IMPACT_D8


@dataclass(frozen=True, kw_only=True)
class WeaponUse:
    """The source of an attack: a weapon from the sheet or typed dice."""

    name: str | None
    dice: tuple[int, ...]
    types: tuple[DamageType, ...] = (DamageType.PHYSICAL,)
    kind: AttackKind = AttackKind.MELEE
    lethal: bool = True

    def __post_init__(self) -> None:
        if not self.dice:
            raise RulesError("An attack needs at least one source die.")
        if not self.types:
            raise RulesError("An attack must deal at least one type of damage.")


def raw_damage_pool(
    sizes: Sequence[int],
    *,
    types: Sequence[DamageType],
    lethal: bool,
    target_weaknesses: Iterable[DamageType] = (),
    target_immunities: Iterable[DamageType] = (),
) -> DamagePool:
    """Typed dice exactly as given (/damage 1d10 1d8 2d6), plus the target's
    weakness d10s; immunity strikes its types as in ``build_damage_pool``."""
    if not sizes:
        raise RulesError("A damage roll needs at least one die, such as 1d8.")
    attack_types = tuple(dict.fromkeys(types))
    immunities = tuple(target_immunities)
    immune = set(covered_types(attack_types, immunities))
    remaining = tuple(t for t in attack_types if t not in immune)
    if not remaining:
        return DamagePool(dice=(), types=(), lethal=lethal, immune=True)
    dice = [PoolDie(s, DieRole.SOURCE, remaining) for s in sizes]
    for weakness in dict.fromkeys(target_weaknesses):
        if weakness not in immune and any(t.covered_by(weakness) for t in remaining):
            dice.append(PoolDie(10, DieRole.WEAKNESS, (weakness,)))
    return DamagePool(dice=tuple(dice), types=remaining, lethal=lethal)


def weapon_pool(
    attacker: Combatant,
    target: Combatant | None,
    weapon: WeaponUse,
    *,
    impact: Impact | None = None,
) -> DamagePool:
    """The damage pool of ``weapon`` in ``attacker``'s hands against ``target``."""
    return _weapon_pool(
        tuple(weapon.dice),
        weapon.kind,
        attacker.attack_attribute(weapon.kind),
        tuple(weapon.types),
        weapon.lethal,
        attacker.sheet.size,
        target.sheet.size if target else attacker.sheet.size,
        tuple(target.weaknesses) if target else (),
        tuple(target.immunities) if target else (),
        impact,
    )


# Pure, of these hashable values alone, and about a tenth of an attack's rules time:
# the same weapon against the same kind of target builds the same (frozen) pool.
@lru_cache(maxsize=4096, typed=True)  # (typed: a lethal 1 is not a lethal True)
def _weapon_pool(
    source: tuple[int, ...],
    kind: AttackKind,
    attribute: int,
    types: tuple[DamageType, ...],
    lethal: bool,
    attacker_size: SizeCategory,
    target_size: SizeCategory,
    weaknesses: tuple[DamageType, ...],
    immunities: tuple[DamageType, ...],
    impact: Impact | None,
) -> DamagePool:
    return build_damage_pool(
        source=source,
        attack_kind=kind,
        attribute=attribute,
        types=types,
        lethal=lethal,
        attacker_size=attacker_size,
        target_size=target_size,
        target_weaknesses=weaknesses,
        target_immunities=immunities,
        impact=impact,
    )


def roll_inputs(
    pool: DamagePool,
    types: Sequence[DamageType],
    dice: Dice,
    bonus: int = 0,
    *,
    threshold_skill: str | None = None,
    threshold_determination: bool = False,
) -> HitInputs:
    return HitInputs(
        pool=pool,
        rolled=roll_damage_pool(pool, dice),
        types=tuple(types),
        bonus=bonus,
        threshold_skill=threshold_skill,
        threshold_determination=threshold_determination,
    )
