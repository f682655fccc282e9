"""Character sheets to and from the JSON stored in ``characters.sheet``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.skills import Skill, SkillCategory

MAX_TRAITS = 12
MAX_TEXT = 200


@dataclass(frozen=True, kw_only=True)
class CharacterDetails:
    """What a sheet holds beyond the rules values: armor and personality."""

    armor: int = 0  # toughness
    traits: tuple[str, ...] = ()
    who: str = ""  # the three fundamentals
    believe: str = ""
    want: str = ""


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
    )
    return sheet, details
