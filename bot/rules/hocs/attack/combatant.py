"""The people involved: a hit's tracked vitals and a character as combat sees it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import (
    NO_CONDITIONS,
    Condition,
    Conditions,
)
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.damage_pool import (
    AttackKind,
    DamageType,
)
from bot.rules.hocs.wounds import (
    BaneScope,
    Wound,
    WoundedValues,
    apply_wound_effects,
    wounds_are_fatal,
)

DEFAULT_SPEED = 30


@dataclass(frozen=True, kw_only=True)
class Vitals:
    """The tracked values a hit changes."""

    hp: int
    temp_hp: int = 0
    nonlethal: int = 0
    conditions: Conditions = NO_CONDITIONS
    wounds: tuple[Wound, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "hp": self.hp,
            "temp_hp": self.temp_hp,
            "nonlethal": self.nonlethal,
            "conditions": self.conditions.to_dict(),
            "wounds": [w.to_dict() for w in self.wounds],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vitals:
        return cls(
            hp=int(data["hp"]),
            temp_hp=int(data.get("temp_hp", 0)),
            nonlethal=int(data.get("nonlethal", 0)),
            conditions=Conditions.from_dict(data.get("conditions", {})),
            wounds=tuple(Wound.from_dict(w) for w in data.get("wounds", ())),
        )


@dataclass(frozen=True, kw_only=True)
class Combatant:
    """A character as combat sees it: the sheet, its defences and its vitals."""

    sheet: CharacterSheet
    vitals: Vitals
    armor: int = 0
    resistances: tuple[DamageType, ...] = ()
    immunities: tuple[DamageType, ...] = ()
    weaknesses: tuple[DamageType, ...] = ()
    speed: int = DEFAULT_SPEED

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def wounded(self) -> WoundedValues:
        return apply_wound_effects(
            strength=self.sheet.strength,
            agility=self.sheet.agility,
            max_hp=self.sheet.hit_points,
            speed=self.speed,
            wounds=self.vitals.wounds,
        )

    @property
    def effective_sheet(self) -> CharacterSheet:
        """The sheet with wounded strength and agility (never below 1) for rolling."""
        values = self.wounded
        return replace(self.sheet, strength=max(1, values.strength), agility=max(1, values.agility))

    @property
    def max_hp(self) -> int:
        values = self.wounded
        reductions = sum(w.effect.max_hp for w in self.vitals.wounds)
        return max(0, values.strength * 2 + 6 + reductions)

    @property
    def threshold(self) -> int:
        return -(self.wounded.strength + 3)

    @property
    def toughness(self) -> int:
        return self.armor

    @property
    def mettle(self) -> int:
        return self.sheet.mettle

    @property
    def hit_points(self) -> HitPoints:
        """The vitals as a rules ``HitPoints`` (values kept within the wounded maximum)."""
        maximum = self.max_hp
        current = min(self.vitals.hp, maximum)
        nonlethal = max(0, min(self.vitals.nonlethal, maximum - current))
        return HitPoints(
            current=current,
            maximum=maximum,
            threshold=self.threshold,
            temporary=self.vitals.temp_hp,
            nonlethal_taken=nonlethal,
        )

    def with_vitals(self, vitals: Vitals) -> Combatant:
        return replace(self, vitals=vitals)

    def roll_banes(self, attribute: Attribute) -> tuple[tuple[str, int], ...]:
        """Banes every roll of ``attribute`` suffers, with where they come from."""
        conditions = self.vitals.conditions
        parts: list[tuple[str, int]] = []
        if Condition.STAGGERED in conditions:
            parts.append(("staggered", 2))
        if conditions.value(Condition.FATIGUED):
            parts.append(("fatigued", conditions.value(Condition.FATIGUED)))
        for scope, banes in self.wounded.banes:
            if scope is BaneScope.MOST or (
                scope is BaneScope.STRENGTH_AND_AGILITY
                and attribute in (Attribute.STRENGTH, Attribute.AGILITY)
            ):
                parts.append(("injury", banes))
        return tuple(parts)

    def attack_attribute(self, kind: AttackKind) -> int:
        sheet = self.effective_sheet
        if kind is AttackKind.MELEE:
            return sheet.strength
        if kind is AttackKind.RANGED:
            return sheet.agility
        return sheet.attribute(sheet.spirit_attribute)


def apply_wound_list(combatant: Combatant, vitals: Vitals) -> tuple[Vitals, str | None]:
    """Recompute what the wound list implies for ``vitals``: HP within the wounded
    maximum, the wounded condition, death (returns why). Used after a wound is
    gained or healed."""
    updated = combatant.with_vitals(vitals)
    maximum = updated.max_hp
    hp = min(vitals.hp, maximum)
    nonlethal = max(0, min(vitals.nonlethal, maximum - hp))
    conditions = vitals.conditions
    if vitals.wounds:
        conditions = conditions.add(Condition.WOUNDED)
    else:
        conditions = conditions.remove(Condition.WOUNDED)
    cause = None
    if vitals.wounds and wounds_are_fatal(
        base_strength=combatant.sheet.strength, wounds=vitals.wounds, max_hp=maximum
    ):
        cause = (
            "maximum hit points reduced to 0"
            if maximum <= 0
            else f"{len(vitals.wounds)} wounds and injuries, as many as strength"
            f" {combatant.sheet.strength}"
        )
        conditions = conditions.add(Condition.DEAD)
    return replace(vitals, hp=hp, nonlethal=nonlethal, conditions=conditions), cause
