"""The skill list, skills with a chosen attribute or subfield, and skill point budgets.

Rulings:

* ``background-relevance``: background points "must be placed into skills
  relevant to your background"; whether a skill is relevant is the GM's call,
  so the bot checks only the budgets (5 background points, 5 extra points, all
  spent) and the starting maximum of 2 for a skill's two pools together.
* ``several-subskills``: Defense, Mysteries and Knowledge may each be taken more
  than once, once per attribute or subfield (Defense (finesse) and Defense
  (toughness) are two skills).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute, parse_attribute

BACKGROUND_POINTS = 5
EXTRA_POINTS = 5
START_MAX = 2
FINAL_MAX = 6
MAX_SUBFIELD = 40


class Skill(Enum):
    ATHLETICS = "athletics"
    DECEPTION = "deception"
    HISTORY = "history"
    INSIGHT = "insight"
    INTIMIDATION = "intimidation"
    GEOGRAPHY = "geography"
    GATHER_INFORMATION = "gather information"
    MEDICINE = "medicine"
    NATURE = "nature"
    PERCEPTION = "perception"
    PERFORM = "perform"
    MANIPULATION = "manipulation"
    MACHINERY = "machinery"
    STEALTH = "stealth"
    MELEE = "melee"
    RANGED = "ranged"
    BRAWL = "brawl"
    DEFENSE = "defense"  # with an attribute
    MYSTERIES = "mysteries"  # with a subfield
    KNOWLEDGE = "knowledge"  # "Knowledge/occupation", with a subfield

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def needs_attribute(self) -> bool:
        return self is Skill.DEFENSE

    @property
    def needs_subfield(self) -> bool:
        return self in (Skill.MYSTERIES, Skill.KNOWLEDGE)


@dataclass(frozen=True, kw_only=True)
class SkillKey:
    """A skill on a sheet: Defense carries an attribute, Mysteries and Knowledge a subfield."""

    skill: Skill
    attribute: Attribute | None = None
    subfield: str | None = None

    def __post_init__(self) -> None:
        if self.skill.needs_attribute and self.attribute is None:
            raise RulesError("Defense needs an attribute, e.g. Defense (finesse).")
        if not self.skill.needs_attribute and self.attribute is not None:
            raise RulesError(f"{self.skill.label} takes no attribute.")
        if self.skill.needs_subfield:
            clean = re.sub(r"\s+", " ", self.subfield or "").strip().lower()
            if not clean:
                raise RulesError(
                    f"{self.skill.label} needs a subfield, e.g. {self.skill.label} (necromancy)."
                )
            if len(clean) > MAX_SUBFIELD:
                raise RulesError(f"Keep a subfield to {MAX_SUBFIELD} characters.")
            object.__setattr__(self, "subfield", clean)
        elif self.subfield is not None:
            raise RulesError(f"{self.skill.label} takes no subfield.")

    @property
    def label(self) -> str:
        if self.attribute is not None:
            return f"{self.skill.label} ({self.attribute.value})"
        if self.subfield is not None:
            return f"{self.skill.label} ({self.subfield})"
        return self.skill.label


def defense(attribute: Attribute) -> SkillKey:
    return SkillKey(skill=Skill.DEFENSE, attribute=attribute)


def parse_skill(text: str) -> SkillKey:
    """A skill from text: ``stealth``, ``defense (finesse)``, ``mysteries (runes)``."""
    match = re.fullmatch(r"\s*([a-zA-Z/ ]+?)\s*(?:[(:]\s*([^()]*?)\s*\)?)?\s*", text)
    if not match:
        raise RulesError("Name a skill such as Stealth, Defense (finesse) or Mysteries (runes).")
    name = re.sub(r"\s+", " ", match.group(1).lower())
    name = {"knowledge/occupation": "knowledge", "occupation": "knowledge"}.get(name, name)
    detail = match.group(2)
    for skill in Skill:
        if skill.value == name:
            if skill.needs_attribute:
                return SkillKey(skill=skill, attribute=parse_attribute(detail or ""))
            return SkillKey(skill=skill, subfield=detail if detail else None)
    raise RulesError(f"“{text.strip()[:30]}” is not a skill; /help lists the skill list.")


def check_budget(points: Mapping[SkillKey, int], *, budget: int, what: str) -> None:
    for key, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(f"{key.label} needs a whole number of points, 0 or more.")
    spent = sum(points.values())
    if spent != budget:
        if spent < budget:
            raise RulesError(f"Spend all {budget} {what} points; {budget - spent} left unspent.")
        raise RulesError(
            f"You have {budget} {what} points but spent {spent}; remove {spent - budget}."
        )


def combine(*pools: Mapping[SkillKey, int]) -> dict[SkillKey, int]:
    ranks: dict[SkillKey, int] = {}
    for pool in pools:
        for key, value in pool.items():
            ranks[key] = ranks.get(key, 0) + value
    return {k: v for k, v in ranks.items() if v}


def check_creation_skills(
    background: Mapping[SkillKey, int], extra: Mapping[SkillKey, int]
) -> dict[SkillKey, int]:
    """The starting ranks from both pools, or the reason they break the rules."""
    check_budget(background, budget=BACKGROUND_POINTS, what="background skill")
    check_budget(extra, budget=EXTRA_POINTS, what="extra skill")
    ranks = combine(background, extra)
    for key, value in ranks.items():
        if value > START_MAX:
            raise RulesError(
                f"{key.label} starts at most {START_MAX}; you gave it {value} "
                "(background and extra points together)."
            )
    return ranks
