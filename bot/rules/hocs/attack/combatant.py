"""The people involved: a hit's tracked vitals and a character as combat sees it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import NO_CONDITIONS, Condition, Conditions
from bot.rules.hocs.damage import HitPoints
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.effective import EffectiveValues, effective_values, overload_conditions
from bot.rules.hocs.pool import derived
from bot.rules.hocs.wounds import Wound

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
    load: int = 0  # item slots carried: overloaded rolls take banes

    @property
    def name(self) -> str:
        return self.sheet.name

    @derived  # (cached_property takes a lock on first read; a frozen value needs none)
    def effective(self) -> EffectiveValues:
        """The sheet with the wounds in ``vitals`` applied (``bot.rules.hocs.effective``)."""
        return effective_values(self.sheet, self.vitals.wounds, speed=self.speed, load=self.load)

    @property
    def wounded(self) -> EffectiveValues:
        """Alias of ``effective``: the values once every wound and injury is applied."""
        return self.effective

    @property
    def effective_sheet(self) -> CharacterSheet:
        """The sheet with wounded strength and agility (never below 1) for rolling."""
        return self.effective.sheet

    @property
    def max_hp(self) -> int:
        return self.effective.max_hp

    @property
    def threshold(self) -> int:
        return self.effective.threshold

    @property
    def toughness(self) -> int:
        return self.armor

    @property
    def mettle(self) -> int:
        return self.effective.mettle

    @property
    def hit_points(self) -> HitPoints:
        """The vitals as a rules ``HitPoints`` (values kept within the wounded maximum)."""
        vitals = self.vitals
        return self.effective.hit_points(
            vitals.hp, temporary=vitals.temp_hp, nonlethal=vitals.nonlethal
        )

    def with_vitals(self, vitals: Vitals) -> Combatant:
        return replace(self, vitals=vitals)

    def roll_banes(self, attribute: Attribute) -> tuple[tuple[str, int], ...]:
        """Banes every roll of ``attribute`` suffers, with where they come from."""
        return self.effective.roll_banes(attribute, self.vitals.conditions)

    def attack_attribute(self, kind: AttackKind) -> int:
        """The (wounded) attribute an attack of ``kind`` adds to its damage."""
        if kind is AttackKind.MELEE:
            attribute = Attribute.STRENGTH
        elif kind is AttackKind.RANGED:
            attribute = Attribute.AGILITY
        else:
            attribute = self.sheet.spirit_attribute
        return self.effective.attribute(attribute)


def apply_wound_list(combatant: Combatant, vitals: Vitals) -> tuple[Vitals, str | None]:
    """Recompute what the wound list implies for ``vitals``: HP within the wounded
    maximum, the wounded condition, the overloaded ones when wounded strength moves the
    carrying capacity past the load (or back), death (returns why). Used after a wound
    is gained or healed; ``combatant`` holds the vitals from before."""
    values = combatant.with_vitals(vitals).effective
    clamped = values.hit_points(vitals.hp, nonlethal=vitals.nonlethal)
    conditions = overload_conditions(
        vitals.conditions, was=combatant.effective.overloaded, now=values.overloaded
    )
    if vitals.wounds:
        conditions = conditions.add(Condition.WOUNDED)
    else:
        conditions = conditions.remove(Condition.WOUNDED)
    cause = None
    if values.dead:
        cause = (
            "maximum hit points reduced to 0"
            if values.max_hp <= 0
            else f"{len(vitals.wounds)} wounds and injuries, as many as strength"
            f" {combatant.sheet.strength}"
        )
        conditions = conditions.add(Condition.DEAD)
    after = replace(
        vitals, hp=clamped.current, nonlethal=clamped.nonlethal_taken, conditions=conditions
    )
    return after, cause
