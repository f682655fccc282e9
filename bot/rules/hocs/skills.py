"""The skill catalogue: each skill the rules text names, its attribute and category.

Skills tied to "mind or presence" (willpower, channeling, runecasting,
spellcasting) have ``attribute=None``; a character rolls them with the
attribute they chose for mettle (see ``character.py``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import Enum

from bot.rules.generic.names import normalise_name
from bot.rules.hocs.attributes import Attribute


class SkillCategory(Enum):
    GENERAL = "general"  # anyone may attempt
    COMBAT = "combat"
    SPECIAL = "special"  # only characters trained in it


@dataclass(frozen=True, kw_only=True)
class Skill:
    name: str
    attribute: Attribute | None  # None: mind or presence, as the character chose
    category: SkillCategory

    @property
    def key(self) -> str:
        return normalise_name(self.name)


_S, _A, _M, _P = Attribute.STRENGTH, Attribute.AGILITY, Attribute.MIND, Attribute.PRESENCE
_G, _C, _X = SkillCategory.GENERAL, SkillCategory.COMBAT, SkillCategory.SPECIAL

CATALOGUE: tuple[Skill, ...] = (
    Skill(name="Athletics", attribute=_S, category=_G),
    Skill(name="Physique", attribute=_S, category=_G),
    Skill(name="Acrobatics", attribute=_A, category=_G),
    Skill(name="Stealth", attribute=_A, category=_G),
    Skill(name="Analyze", attribute=_M, category=_G),
    Skill(name="Survival", attribute=_M, category=_G),
    Skill(name="Charisma", attribute=_P, category=_G),
    Skill(name="Coercion", attribute=_P, category=_G),
    Skill(name="Willpower", attribute=None, category=_G),
    Skill(name="Defense", attribute=_A, category=_C),
    Skill(name="Initiative", attribute=_A, category=_C),
    Skill(name="Melee Combat", attribute=_A, category=_C),
    Skill(name="Ranged Combat", attribute=_A, category=_C),
    Skill(name="Medicine", attribute=_M, category=_X),
    Skill(name="Forgery", attribute=_M, category=_X),
    Skill(name="Acting", attribute=_P, category=_X),
    Skill(name="Dancing", attribute=_P, category=_X),
    Skill(name="Channeling", attribute=None, category=_X),
    Skill(name="Runecasting", attribute=None, category=_X),
    Skill(name="Spellcasting", attribute=None, category=_X),
)

_BY_KEY: dict[str, Skill] = {s.key: s for s in CATALOGUE}


def find_skill(name: str, *, extra: tuple[Skill, ...] = ()) -> Skill | None:
    """The skill called ``name`` (any case), looking at ``extra`` (custom skills) too."""
    key = normalise_name(name)
    for skill in extra:
        if skill.key == key:
            return skill
    return _BY_KEY.get(key)


def match_names(query: str, names: tuple[str, ...], *, limit: int = 25) -> tuple[str, ...]:
    """Autocomplete: prefix matches, then substring matches, then close spellings."""
    text = normalise_name(query)
    if not text:
        return names[:limit]
    prefix = [n for n in names if normalise_name(n).startswith(text)]
    inner = [n for n in names if text in normalise_name(n) and n not in prefix]
    found = prefix + inner
    if not found:
        lowered = {normalise_name(n): n for n in names}
        found = [lowered[m] for m in difflib.get_close_matches(text, list(lowered), n=limit)]
    return tuple(found[:limit])


def match_skill_names(
    query: str, *, extra: tuple[Skill, ...] = (), include_attributes: bool = True, limit: int = 25
) -> tuple[str, ...]:
    """Skill (and attribute) names for autocomplete; custom skills come first."""
    names = [s.name for s in extra] + [s.name for s in CATALOGUE]
    if include_attributes:
        names += [a.value.title() for a in Attribute] + ["Instinct"]
    return match_names(query, tuple(dict.fromkeys(names)), limit=limit)
