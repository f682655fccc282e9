"""Hit points and applying damage (toughness, mettle, resistance, immunity).

The damage *pool* lives in ``damage_pool``; this module takes the amount a pool
produced and works out what the defender loses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.hocs.damage_pool import DamageType, Defense, covered_types

RESISTANCE_BONUS = 2


@dataclass(frozen=True)
class HitPoints:
    """A character's hit point state.

    ``threshold`` is the negative number beyond which the character dies
    (−(STR + 3)). ``nonlethal_taken`` counts the hit points currently missing
    because of non-lethal damage; rests and respites give them back.
    """

    current: int
    maximum: int
    threshold: int
    temporary: int = 0
    nonlethal_taken: int = 0

    def __post_init__(self) -> None:
        if self.maximum < 0:
            raise RulesError("maximum hit points cannot be negative")
        if self.current > self.maximum:
            raise RulesError(
                f"hit points ({self.current}) cannot exceed their maximum ({self.maximum})"
            )
        if self.threshold > 0:
            raise RulesError("a threshold is a negative number of hit points")
        if self.temporary < 0:
            raise RulesError("temporary hit points cannot be negative")
        if not 0 <= self.nonlethal_taken <= self.maximum - self.current:
            raise RulesError("non-lethal damage taken cannot exceed the hit points missing")

    @classmethod
    def for_strength(cls, strength: int) -> HitPoints:
        """Full hit points for a strength: max (STR × 2) + 6, threshold −(STR + 3)."""
        if strength < 0:
            raise RulesError("strength cannot be negative")
        maximum = strength * 2 + 6
        return cls(current=maximum, maximum=maximum, threshold=-(strength + 3))

    @property
    def is_beyond_threshold(self) -> bool:
        return self.current < self.threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "current": self.current,
            "maximum": self.maximum,
            "threshold": self.threshold,
            "temporary": self.temporary,
            "nonlethal_taken": self.nonlethal_taken,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HitPoints:
        return cls(**{k: int(v) for k, v in data.items()})


def heal(state: HitPoints, amount: int) -> HitPoints:
    """Regain ``amount`` hit points, never beyond the maximum.

    The non-lethal tally only shrinks when healing leaves fewer hit points
    missing than it counts, so a later rest cannot restore more than is missing.
    """
    if amount < 0:
        raise RulesError("healing cannot be negative")
    current = min(state.maximum, state.current + amount)
    nonlethal = min(state.nonlethal_taken, state.maximum - current)
    return replace(state, current=current, nonlethal_taken=nonlethal)


def with_maximum(state: HitPoints, maximum: int) -> HitPoints:
    """Change the maximum (wounds, healed wounds); current HP is capped to it."""
    if maximum < 0:
        raise RulesError("maximum hit points cannot be negative")
    current = min(state.current, maximum)
    nonlethal = min(state.nonlethal_taken, maximum - current)
    return replace(state, maximum=maximum, current=current, nonlethal_taken=nonlethal)


def restore_nonlethal(state: HitPoints) -> HitPoints:
    """Regain every hit point lost to non-lethal damage (rest, respite)."""
    return replace(state, current=state.current + state.nonlethal_taken, nonlethal_taken=0)


def gain_temporary_hp(state: HitPoints, amount: int) -> HitPoints:
    """Only one instance of temporary hit points is kept; keep the larger.

    The text lets the player choose which one to keep; keeping the smaller is
    never better, so the rules choose for them.
    """
    if amount < 0:
        raise RulesError("temporary hit points cannot be negative")
    return replace(state, temporary=max(state.temporary, amount))


@dataclass(frozen=True)
class DamageApplication:
    """What one instance of damage did.

    ``after_reductions`` is the "damage received after damage reductions" that
    sets the threshold test difficulty and the wound check (10+); temporary
    hit points absorb part of it but do not reduce it.
    """

    before: HitPoints
    after: HitPoints
    amount: int
    types: tuple[DamageType, ...]
    lethal: bool
    reduction: int
    after_reductions: int
    temporary_absorbed: int
    hp_lost: int
    immune: bool
    resisted: bool


def reduction_for(
    types: Sequence[DamageType],
    *,
    toughness: int,
    mettle: int,
    resistances: Iterable[DamageType] = (),
) -> tuple[int, bool]:
    """(reduction, whether a resistance applied) against damage of ``types``.

    Ruling: damage of both a toughness type and a mettle type (e.g. physical and
    mental) is reduced by the lower of the two; the text only shows mixes
    within one defence (a flaming arrow, physical and fire, uses toughness).
    A matching resistance adds +2 once, however many match.
    """
    defenses = {t.defense for t in types}
    values = {Defense.TOUGHNESS: toughness, Defense.METTLE: mettle}
    reduction = min(values[d] for d in defenses) if defenses else 0
    resisted = bool(covered_types(types, resistances)) if resistances else False
    return reduction + (RESISTANCE_BONUS if resisted else 0), resisted


def apply_damage(
    state: HitPoints,
    amount: int,
    *,
    types: Sequence[DamageType] = (DamageType.PHYSICAL,),
    lethal: bool = True,
    toughness: int = 0,
    mettle: int = 0,
    resistances: Iterable[DamageType] = (),
    immunities: Iterable[DamageType] = (),
) -> DamageApplication:
    """Reduce ``amount`` by toughness/mettle and take it from temp HP, then HP.

    Damage at or below the reduction still costs 1 hit point, unless the
    defender is immune to every type (0), or ``amount`` is 0 (nothing dealt).

    Ruling: non-lethal damage cannot take a character below 0 hit points; losing
    the last hit point to it leaves them unconscious and stable (see threshold).
    """
    if amount < 0:
        raise RulesError("damage cannot be negative")
    if toughness < 0 or mettle < 0:
        raise RulesError("toughness and mettle cannot be negative")
    if not types:
        raise RulesError("damage must have at least one type")
    if immunities:
        immune_types = set(covered_types(types, immunities))
        remaining = tuple(t for t in dict.fromkeys(types) if t not in immune_types)
    else:  # (most targets)
        remaining = tuple(dict.fromkeys(types))
    if not remaining or amount == 0:
        return DamageApplication(
            before=state,
            after=state,
            amount=amount,
            types=tuple(types),
            lethal=lethal,
            reduction=0,
            after_reductions=0,
            temporary_absorbed=0,
            hp_lost=0,
            immune=not remaining,
            resisted=False,
        )
    reduction, resisted = reduction_for(
        remaining, toughness=toughness, mettle=mettle, resistances=resistances
    )
    received = max(1, amount - reduction)
    absorbed = min(state.temporary, received)
    to_hp = received - absorbed
    if not lethal:
        to_hp = min(to_hp, max(0, state.current))
    # Every field of HitPoints, built directly: dataclasses.replace's walk over the fields
    # cost as much as the rest of this function.
    after = HitPoints(
        current=state.current - to_hp,
        maximum=state.maximum,
        threshold=state.threshold,
        temporary=state.temporary - absorbed,
        nonlethal_taken=state.nonlethal_taken + (0 if lethal else to_hp),
    )
    return DamageApplication(
        before=state,
        after=after,
        amount=amount,
        types=tuple(types),
        lethal=lethal,
        reduction=reduction,
        after_reductions=received,
        temporary_absorbed=absorbed,
        hp_lost=to_hp,
        immune=False,
        resisted=resisted,
    )
