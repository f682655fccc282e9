"""A character sheet: creation under the starting rules, advancement under the final maxima.

Rulings:

* ``armor-penalty``: armor penalty is "applied to defense(finesse)" with
  strength "subtracted from this penalty": the shield's penalty adds to the
  armor's, a positive strength lowers the sum (a -1 strength adds nothing, so an
  unarmored character never has a penalty), and what is left (never below 0)
  comes off the finesse defense.
* ``advancement``: the text sets no price for advancement (experience buys only
  rituals), so the GM grants it and the bot enforces only the final maximum of
  6 for attributes and skills.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import (
    FINAL_MAX,
    Attribute,
    Attributes,
    Specialisation,
    check_creation_attributes,
    check_specialisations,
    death_threshold,
    max_hit_points,
)
from bot.rules.twod10.equipment import Armor, Shield, Weapon
from bot.rules.twod10.skills import (
    FINAL_MAX as SKILL_FINAL_MAX,
)
from bot.rules.twod10.skills import (
    SkillKey,
    check_creation_skills,
    defense,
)
from bot.rules.twod10.tasks import Modifier, TaskResult, roll_task

FEATS = 2
MAX_FEATS = 20  # feats granted later (by the GM) join the two from creation
MAX_FEAT = 300
MAX_NAME = 64
MAX_BACKGROUND = 60
START_WEAPONS = 3


def _clean(text: str, *, what: str, limit: int) -> str:
    clean = re.sub(r"\s+", " ", text or "").strip()
    if not clean:
        raise RulesError(f"Give the character's {what}.")
    if len(clean) > limit:
        raise RulesError(f"Keep the {what} to {limit} characters; yours has {len(clean)}.")
    return clean


@dataclass(frozen=True, kw_only=True)
class Character:
    name: str
    background: str
    attributes: Attributes
    skills: tuple[tuple[SkillKey, int], ...]  # sorted by label, no zero ranks
    feats: tuple[str, ...]
    positive: Specialisation | None = None
    negative: Specialisation | None = None
    armor: Armor | None = None
    shield: Shield | None = None
    weapons: tuple[Weapon, ...] = ()

    def __post_init__(self) -> None:
        # A sheet loaded or edited outside create_character still obeys the final maxima.
        for key, value in self.skills:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{key.label} must be a whole number.")
            if not 1 <= value <= SKILL_FINAL_MAX:
                raise RulesError(f"{key.label} must be from 1 to {SKILL_FINAL_MAX}; it is {value}.")
        if len({key for key, _ in self.skills}) != len(self.skills):
            raise RulesError("A skill is listed twice on this sheet; merge its points.")
        if len(self.feats) > MAX_FEATS:
            raise RulesError(f"A sheet holds at most {MAX_FEATS} feats.")

    def skill(self, key: SkillKey) -> int:
        return dict(self.skills).get(key, 0)

    def attribute(self, attribute: Attribute) -> int:
        return self.attributes[attribute]

    @property
    def max_hp(self) -> int:
        return max_hit_points(self.attributes.toughness)

    @property
    def death_threshold(self) -> int:
        return death_threshold(self.attributes.toughness)

    @property
    def armor_penalty(self) -> int:
        """Armor and shield penalty left after strength (ruling armor-penalty)."""
        total = (self.armor.penalty if self.armor else 0) + (
            self.shield.penalty if self.shield else 0
        )
        return max(0, total - max(self.attributes.strength, 0))

    def defense_value(self, attribute: Attribute = Attribute.FINESSE) -> int:
        """Attribute + Defense (attribute), less the armor penalty for finesse."""
        value = self.attribute(attribute) + self.skill(defense(attribute))
        if attribute is Attribute.FINESSE:
            value -= self.armor_penalty
        return value

    @property
    def damage_reduction(self) -> int:
        return (self.armor.reduction if self.armor else 0) + (
            self.shield.reduction if self.shield else 0
        )


def _ranks(ranks: Mapping[SkillKey, int]) -> tuple[tuple[SkillKey, int], ...]:
    return tuple(sorted(((k, v) for k, v in ranks.items() if v), key=lambda kv: kv[0].label))


def create_character(
    *,
    name: str,
    background: str,
    attributes: Attributes,
    background_skills: Mapping[SkillKey, int],
    extra_skills: Mapping[SkillKey, int],
    feats: tuple[str, ...],
    positive: Specialisation | None = None,
    negative: Specialisation | None = None,
    armor: Armor | None = None,
    shield: Shield | None = None,
    weapons: tuple[Weapon, ...] = (),
) -> Character:
    """A new character, or RulesError naming the first creation rule the build breaks."""
    clean_name = _clean(name, what="name", limit=MAX_NAME)
    clean_background = _clean(background, what="background", limit=MAX_BACKGROUND)
    check_creation_attributes(attributes)
    check_specialisations(positive, negative)
    ranks = check_creation_skills(background_skills, extra_skills)
    if len(feats) != FEATS:
        raise RulesError(f"A new character has exactly {FEATS} feats; you gave {len(feats)}.")
    clean_feats = tuple(_clean(f, what="feat", limit=MAX_FEAT) for f in feats)
    if len(weapons) > START_WEAPONS:
        raise RulesError(f"A new character starts with at most {START_WEAPONS} weapons.")
    return Character(
        name=clean_name,
        background=clean_background,
        attributes=attributes,
        skills=_ranks(ranks),
        feats=clean_feats,
        positive=positive,
        negative=negative,
        armor=armor,
        shield=shield,
        weapons=tuple(weapons),
    )


def advance_attribute(character: Character, attribute: Attribute, *, by: int = 1) -> Character:
    """Raise an attribute (ruling advancement): never past the final maximum of 6."""
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise RulesError("Advance by 1 or more.")
    value = character.attribute(attribute) + by
    if value > FINAL_MAX:
        raise RulesError(
            f"{attribute.label} is {character.attribute(attribute)}; the final maximum is "
            f"{FINAL_MAX}, so it can rise by at most {FINAL_MAX - character.attribute(attribute)}."
        )
    return replace(character, attributes=character.attributes.with_value(attribute, value))


def advance_skill(character: Character, key: SkillKey, *, by: int = 1) -> Character:
    """Raise (or learn) a skill: never past the final maximum of 6."""
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise RulesError("Advance by 1 or more.")
    current = character.skill(key)
    if current + by > SKILL_FINAL_MAX:
        raise RulesError(
            f"{key.label} is {current}; the final maximum is {SKILL_FINAL_MAX}, so it can "
            f"rise by at most {SKILL_FINAL_MAX - current}."
        )
    ranks = dict(character.skills)
    ranks[key] = current + by
    return replace(character, skills=_ranks(ranks))


def edit_equipment(
    character: Character,
    *,
    armor: Armor | None,
    shield: Shield | None,
    weapons: tuple[Weapon, ...],
) -> Character:
    """Change what a character carries; after creation only the GM limits the weapon count."""
    return replace(character, armor=armor, shield=shield, weapons=tuple(weapons))


def roll_character_task(
    character: Character,
    attribute: Attribute,
    skill: SkillKey | None = None,
    *,
    difficulty: int = 0,
    target_defense: int | None = None,
    extra: tuple[Modifier, ...] = (),
    advantage: int = 0,
    disadvantage: int = 0,
    dice: Dice,
) -> TaskResult:
    """2d10 + attribute + skill against a ladder difficulty or (instead) a target's defense."""
    if target_defense is not None and difficulty:
        raise RulesError("Roll against a difficulty or a target's defense, not both.")
    modifier, label = (difficulty, "difficulty")
    if target_defense is not None:
        modifier, label = (-target_defense, "target's defense")
    return roll_task(
        attribute=character.attribute(attribute),
        skill=character.skill(skill) if skill is not None else 0,
        difficulty=modifier,
        extra=extra,
        advantage=advantage,
        disadvantage=disadvantage,
        attribute_label=attribute.value,
        skill_label=skill.label if skill is not None else "no skill",
        difficulty_label=label,
        dice=dice,
    )
