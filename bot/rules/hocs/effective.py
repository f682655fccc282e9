"""A character's effective values: the sheet with its wounds and injuries applied.

This is the one place the values used in play are computed. The sheet holds base
values; everything that plays with a character (the sheet shown, skill pools,
rest and respite, /hp, the initiative tracker, combat) reads them from here, so a
wounded character heals only to the wounded maximum and rolls wounded attributes.

Rulings:
* Wounds change strength and agility first and the derived values follow the
  wounded strength: maximum HP = STR×2+6, threshold −(STR+3), recovery points =
  STR, carrying capacity = size + STR. The wound table's maximum-HP reductions
  then apply on top. None of these goes below 0.
* Attributes used for rolling (skill pools, attribute dice) never go below 1:
  the attribute die table starts at 1.
* No wound changes mind or presence, so determination points (mind + presence)
  and mettle keep their base values.
* Banes on rolls: staggered 2, fatigued 1 per instance; injuries' banes on "most
  rolls" always, and on "strength and agility rolls" when the roll uses STR or
  AGI. Arm and leg injuries depend on the limb used: the GM adds those.
* Overloaded (a load above the carrying capacity, which follows wounded strength):
  3 banes on every strength and agility roll, and hindered, slow and defenseless
  (``overload_conditions``: gained when the sheet's load or capacity changes to
  overloaded, an edit or a wound lowering strength alike, lost when it fits again,
  since the load caused them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import MIN_ATTRIBUTE, Attribute, attribute_die
from bot.rules.hocs.character import CharacterSheet, SkillPool, skill_pool
from bot.rules.hocs.conditions import NO_CONDITIONS, Condition, Conditions
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.pool import derived
from bot.rules.hocs.skills import Skill
from bot.rules.hocs.wounds import BaneScope, Wound, apply_wound_effects, wounds_are_fatal

STAGGERED_BANES = 2
OVERLOAD_BANES = 3
OVERLOAD_CONDITIONS = (Condition.HINDERED, Condition.SLOW, Condition.DEFENSELESS)
_WOUNDED_ATTRIBUTES = (Attribute.STRENGTH, Attribute.AGILITY)
_SKILL_POOLS_KEPT = 16


def max_hit_points(strength: int, max_hp_change: int = 0) -> int:
    """(STR × 2) + 6, then the wound table's changes; never below 0."""
    return max(0, HitPoints.for_strength(strength).maximum + max_hp_change)


@dataclass(frozen=True, kw_only=True)
class EffectiveValues:
    """What a character plays with. ``base`` is the sheet as written; ``sheet`` is
    the one to roll with (wounded strength and agility, never below 1)."""

    base: CharacterSheet
    sheet: CharacterSheet
    wounds: tuple[Wound, ...]
    strength: int  # wounded, may be 0: the derived values follow it
    agility: int
    max_hp: int
    threshold: int
    recovery_max: int
    determination_max: int
    carrying_capacity: int
    mettle: int
    speed: int
    base_speed: int
    threshold_difficulty: int  # added to threshold tests' difficulty
    resting_value: int  # added to a rest's value
    injury_banes: tuple[tuple[BaneScope, int], ...]
    strength_damage: int  # on strength-based damage rolls with an injured arm
    bleeding: int
    out_of_game: bool
    dead: bool  # the wounds alone kill (see wounds.wounds_are_fatal)
    load: int = 0  # item slots the character carries (the sheet's value)

    @property
    def wounded(self) -> bool:
        return bool(self.wounds)

    @property
    def overloaded(self) -> bool:
        """Carrying "a greater load than what their capacity allows"."""
        return self.load > self.carrying_capacity

    @property
    def unwounded(self) -> EffectiveValues:
        """The same character without wounds: the base values a sheet shows alongside."""
        if not self.wounds:
            return self
        return effective_values(self.base, speed=self.base_speed, load=self.load)

    def attribute(self, attribute: Attribute) -> int:
        """The attribute to roll with (wounded, never below 1)."""
        return self.sheet.attribute(attribute)

    def attribute_die(self, attribute: Attribute) -> tuple[int, ...]:
        return attribute_die(self.attribute(attribute))

    def skill_value(self, skill: Skill) -> int:
        return self.sheet.skill_value(skill)

    def skill_pool(self, name: str) -> SkillPool:
        """Dice for a skill or attribute roll with wounded attributes; RulesError if impossible."""
        # Remembered on this value (the same instance serves every read of an unchanged
        # character, see _effective_values): no sheet hashed per roll. A refusal is not
        # remembered, and the few names kept are capped as a typed name may vary.
        pools = self._skill_pools
        pool = pools.get(name)
        if pool is None:
            pool = skill_pool(self.sheet, name)
            if len(pools) < _SKILL_POOLS_KEPT:
                pools[name] = pool
        return pool

    @derived
    def _skill_pools(self) -> dict[str, SkillPool]:
        return {}

    def roll_banes(
        self, attribute: Attribute, conditions: Conditions = NO_CONDITIONS
    ) -> tuple[tuple[str, int], ...]:
        """Banes a roll of ``attribute`` suffers from ``conditions`` and injuries, by source."""
        parts: list[tuple[str, int]] = []
        if Condition.STAGGERED in conditions:
            parts.append(("staggered", STAGGERED_BANES))
        fatigued = conditions.value(Condition.FATIGUED)
        if fatigued:
            parts.append(("fatigued", fatigued))
        if self.overloaded and attribute in _WOUNDED_ATTRIBUTES:
            parts.append(("overloaded", OVERLOAD_BANES))
        for scope, banes in self.injury_banes:
            if scope is BaneScope.MOST or (
                scope is BaneScope.STRENGTH_AND_AGILITY and attribute in _WOUNDED_ATTRIBUTES
            ):
                parts.append(("injury", banes))
        return tuple(parts)

    def hit_points(self, current: int, *, temporary: int = 0, nonlethal: int = 0) -> HitPoints:
        """Tracked hit points as a rules ``HitPoints``, kept within the wounded maximum."""
        current = min(current, self.max_hp)
        return HitPoints(
            current=current,
            maximum=self.max_hp,
            threshold=self.threshold,
            temporary=temporary,
            nonlethal_taken=max(0, min(nonlethal, self.max_hp - current)),
        )


def effective_values(
    sheet: CharacterSheet, wounds: Iterable[Wound] = (), *, speed: int, load: int = 0
) -> EffectiveValues:
    """``sheet`` with ``wounds`` applied; ``speed`` is the base speed and ``load`` the
    item slots carried, from the sheet's details.

    Raises RulesError for a negative base speed or load.
    """
    return _effective_values(sheet, tuple(wounds), speed, load)


# Pure, of immutable values, and the costliest step of reading a character (it rebuilds
# and re-validates the wounded sheet): worked out once per distinct input.
@lru_cache(maxsize=8192)
def _effective_values(
    sheet: CharacterSheet, wounds: tuple[Wound, ...], speed: int, load: int
) -> EffectiveValues:
    if speed < 0:
        raise RulesError("Speed cannot be negative.")
    if load < 0:
        raise RulesError("A load cannot be negative.")
    applied = apply_wound_effects(
        strength=sheet.strength,
        agility=sheet.agility,
        max_hp=max_hit_points(sheet.strength),
        speed=speed,
        wounds=wounds,
    )
    strength = applied.strength
    max_hp = max_hit_points(strength, sum(w.effect.max_hp for w in wounds))
    rolling_strength = max(MIN_ATTRIBUTE, strength)
    rolling_agility = max(MIN_ATTRIBUTE, applied.agility)
    # Unwounded (most characters) the sheet to roll with is the sheet itself: a replace
    # would rebuild and re-validate an equal one, a first read's largest cost.
    rolling = (
        sheet
        if rolling_strength == sheet.strength and rolling_agility == sheet.agility
        else replace(sheet, strength=rolling_strength, agility=rolling_agility)
    )
    return EffectiveValues(
        base=sheet,
        sheet=rolling,
        wounds=wounds,
        strength=strength,
        agility=applied.agility,
        max_hp=max_hp,
        threshold=HitPoints.for_strength(strength).threshold,
        recovery_max=strength,
        determination_max=sheet.determination_points,
        carrying_capacity=sheet.size.carrying_size + strength,
        mettle=sheet.mettle,
        speed=applied.speed,
        base_speed=speed,
        threshold_difficulty=applied.threshold_difficulty,
        resting_value=applied.resting_value,
        injury_banes=applied.banes,
        strength_damage=applied.strength_damage,
        bleeding=applied.bleeding,
        out_of_game=applied.out_of_game,
        dead=bool(wounds)
        and wounds_are_fatal(base_strength=sheet.strength, wounds=wounds, max_hp=max_hp),
        load=load,
    )


def overload_conditions(conditions: Conditions, *, was: bool, now: bool) -> Conditions:
    """Hindered, slow and defenseless gained on becoming overloaded, lost when the load
    fits again (see the module's rulings); unchanged otherwise."""
    if now and not was:
        for condition in OVERLOAD_CONDITIONS:
            conditions = conditions.add(condition)
    elif was and not now:
        for condition in OVERLOAD_CONDITIONS:
            conditions = conditions.remove(condition)
    return conditions
