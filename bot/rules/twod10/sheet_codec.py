"""A character sheet as plain JSON-ready data (equipment stored by table name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute, Attributes, Specialisation
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import armor, shield, weapon
from bot.rules.twod10.skills import Skill, SkillKey

VERSION = 1


def _spec(s: Specialisation | None) -> dict[str, str] | None:
    return None if s is None else {"attribute": s.attribute.value, "text": s.text}


def _spec_from(data: Mapping[str, str] | None) -> Specialisation | None:
    if data is None:
        return None
    return Specialisation(attribute=Attribute(data["attribute"]), text=data["text"])


def character_to_dict(c: Character) -> dict[str, Any]:
    return {
        "version": VERSION,
        "name": c.name,
        "background": c.background,
        "attributes": {a.value: c.attributes[a] for a in Attribute},
        "skills": [
            {
                "skill": k.skill.value,
                "attribute": k.attribute.value if k.attribute else None,
                "subfield": k.subfield,
                "rank": rank,
            }
            for k, rank in c.skills
        ],
        "feats": list(c.feats),
        "positive": _spec(c.positive),
        "negative": _spec(c.negative),
        "armor": c.armor.name if c.armor else None,
        "shield": c.shield.name if c.shield else None,
        "weapons": [w.name for w in c.weapons],
    }


def character_from_dict(data: Mapping[str, Any]) -> Character:
    """Rebuild a sheet; RulesError (one sentence) if the stored data is damaged."""
    try:
        if data["version"] != VERSION:
            raise RulesError("This sheet was saved by a newer bot; update the bot.")
        skills = tuple(
            (
                SkillKey(
                    skill=Skill(s["skill"]),
                    attribute=Attribute(s["attribute"]) if s["attribute"] else None,
                    subfield=s["subfield"],
                ),
                int(s["rank"]),
            )
            for s in data["skills"]
        )
        return Character(
            name=str(data["name"]),
            background=str(data["background"]),
            attributes=Attributes(**{k: int(v) for k, v in data["attributes"].items()}),
            skills=skills,
            feats=tuple(str(f) for f in data["feats"]),
            positive=_spec_from(data["positive"]),
            negative=_spec_from(data["negative"]),
            armor=armor(data["armor"]) if data["armor"] else None,
            shield=shield(data["shield"]) if data["shield"] else None,
            weapons=tuple(weapon(w) for w in data["weapons"]),
        )
    except RulesError as exc:
        if "newer bot" in str(exc):
            raise
        raise RulesError("This stored sheet is damaged; ask the GM to fix it.") from exc
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError("This stored sheet is damaged; ask the GM to fix it.") from exc
