"""Characters for the survival and resource tests, built straight from the sheet model."""

from __future__ import annotations

from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey, defense

PYROMANCY = SkillKey(skill=Skill.MYSTERIES, subfield="pyromancy")


def person(
    *,
    toughness: int = 2,
    tough_defense: int = 1,
    mind: int = 0,
    mysteries: int = 0,
    name: str = "Ada",
) -> Character:
    """A sheet with the numbers these rules read (toughness, its defense, mind, mysteries)."""
    skills = [(defense(Attribute.TOUGHNESS), tough_defense), (PYROMANCY, mysteries)]
    return Character(
        name=name,
        background="Physician",
        attributes=Attributes(toughness=toughness, mind=mind),
        skills=tuple(sorted(((k, v) for k, v in skills if v), key=lambda kv: kv[0].label)),
        feats=("Steady hands", "Fire speaker"),
    )
