"""Character sheets to and from the JSON stored in ``characters.sheet``.

Fields added after the first version (weapons, resistances, immunities,
weaknesses, speed) have defaults, so older rows load unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.skills import Skill, SkillCategory

MAX_TRAITS = 12
MAX_TEXT = 200
MAX_WEAPONS = 10
MAX_WEAPON_NAME = 40
MAX_WEAPON_DICE = 4
WEAPON_DICE_SIZES = (4, 6, 8, 10, 12, 20)
# The text gives no base speed; 30 paces ("short" distance) is the default and
# the sheet can change it (/character defenses speed:).
DEFAULT_SPEED = 30
MAX_SPEED = 200


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A weapon on the sheet: its source dice, damage types, kind and lethality."""

    name: str
    dice: tuple[int, ...]
    types: tuple[DamageType, ...] = (DamageType.PHYSICAL,)
    kind: AttackKind = AttackKind.MELEE
    lethal: bool = True

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_WEAPON_NAME:
            raise RulesError(f"A weapon name is 1 to {MAX_WEAPON_NAME} characters.")
        if not 1 <= len(self.dice) <= MAX_WEAPON_DICE:
            raise RulesError(f"A weapon has 1 to {MAX_WEAPON_DICE} source dice, e.g. 1d12 or 2d6.")
        for sides in self.dice:
            if sides not in WEAPON_DICE_SIZES:
                raise RulesError(
                    f"Source dice are d4, d6, d8, d10, d12 or d20; d{sides} is not one of them."
                )
        if not self.types:
            raise RulesError("A weapon deals at least one type of damage.")

    @property
    def key(self) -> str:
        return normalise_name(self.name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dice": list(self.dice),
            "types": [t.value for t in self.types],
            "kind": self.kind.value,
            "lethal": self.lethal,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        return cls(
            name=data["name"],
            dice=tuple(int(d) for d in data["dice"]),
            types=tuple(DamageType(t) for t in data.get("types", ["physical"])),
            kind=AttackKind(data.get("kind", "melee")),
            lethal=bool(data.get("lethal", True)),
        )


@dataclass(frozen=True, kw_only=True)
class CharacterDetails:
    """What a sheet holds beyond the rules values: armor and personality."""

    armor: int = 0  # toughness
    traits: tuple[str, ...] = ()
    who: str = ""  # the three fundamentals
    believe: str = ""
    want: str = ""
    weapons: tuple[Weapon, ...] = ()
    resistances: tuple[DamageType, ...] = ()
    immunities: tuple[DamageType, ...] = ()
    weaknesses: tuple[DamageType, ...] = ()
    speed: int = DEFAULT_SPEED
    load: int = 0  # item slots carried (carrying capacity: bot.rules.hocs.effective)

    def weapon(self, name: str) -> Weapon | None:
        key = normalise_name(name)
        return next((w for w in self.weapons if w.key == key), None)


def _types(values: Iterable[str]) -> tuple[DamageType, ...]:
    return tuple(dict.fromkeys(DamageType(v) for v in values))


def sheet_to_dict(sheet: CharacterSheet, details: CharacterDetails) -> dict[str, Any]:
    return {
        "v": 1,
        "name": sheet.name,
        "strength": sheet.strength,
        "agility": sheet.agility,
        "mind": sheet.mind,
        "presence": sheet.presence,
        "tier": sheet.tier,
        "exp": sheet.exp,
        "size": sheet.size.value,
        "uses_instinct": sheet.uses_instinct,
        "spirit_attribute": sheet.spirit_attribute.value,
        "training": dict(sheet.training),
        "expertise": sheet.expertise,
        "custom_skills": [
            {"name": s.name, "attribute": s.attribute.value if s.attribute else None}
            for s in sheet.custom_skills
        ],
        "armor": details.armor,
        "traits": list(details.traits),
        "who": details.who,
        "believe": details.believe,
        "want": details.want,
        "weapons": [w.to_dict() for w in details.weapons],
        "resistances": [t.value for t in details.resistances],
        "immunities": [t.value for t in details.immunities],
        "weaknesses": [t.value for t in details.weaknesses],
        "speed": details.speed,
        "load": details.load,
    }


def sheet_from_dict(data: dict[str, Any]) -> tuple[CharacterSheet, CharacterDetails]:
    sheet = CharacterSheet(
        name=data["name"],
        strength=data["strength"],
        agility=data["agility"],
        mind=data["mind"],
        presence=data["presence"],
        tier=data.get("tier", 1),
        exp=data.get("exp", 0),
        size=SizeCategory(data.get("size", "medium")),
        uses_instinct=data.get("uses_instinct", False),
        spirit_attribute=Attribute(data.get("spirit_attribute", "mind")),
        training=data.get("training", {}),
        expertise=data.get("expertise"),
        custom_skills=tuple(
            Skill(
                name=s["name"],
                attribute=Attribute(s["attribute"]) if s.get("attribute") else None,
                category=SkillCategory.SPECIAL,
            )
            for s in data.get("custom_skills", [])
        ),
    )
    details = CharacterDetails(
        armor=data.get("armor", 0),
        traits=tuple(data.get("traits", [])),
        who=data.get("who", ""),
        believe=data.get("believe", ""),
        want=data.get("want", ""),
        weapons=tuple(Weapon.from_dict(w) for w in data.get("weapons", [])),
        resistances=_types(data.get("resistances", [])),
        immunities=_types(data.get("immunities", [])),
        weaknesses=_types(data.get("weaknesses", [])),
        speed=int(data.get("speed", DEFAULT_SPEED)),
        load=int(data.get("load", 0)),
    )
    return sheet, details
