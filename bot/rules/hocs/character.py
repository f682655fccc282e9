"""A character sheet as a pure value, its derived values, and skill pools from it.

Derived values are computed, never typed: hit points, threshold, recovery and
determination points, carrying capacity, mettle, attribute dice, skill values.

Rulings:
* Skills of "mind or presence" (willpower, channeling, runecasting,
  spellcasting) use ``spirit_attribute``, the one the character chose for mettle.
* Carrying capacity: the text gives a size value only for small (6), medium (8)
  and large (10). Minuscule categories use 6 (the smallest given) and
  extraordinary ones 10 (the largest given), rather than inventing new numbers.
* Special skills need training (or expertise) to be attempted: an untrained
  special skill check is refused; the GM can still roll a raw pool.
* ``uses_instinct`` only renames mind to Instinct (creatures); nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from bot.rules.errors import RulesError
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.attributes import Attribute, attribute_die, check_attribute, parse_attribute
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.skills import CATALOGUE, Skill, SkillCategory, find_skill, match_skill_names

MAX_TIER = 3
MAX_TRAINING = 3
MAX_EXP = 1_000_000


class SizeGroup(Enum):
    MINUSCULE = "minuscule"
    CONVENTIONAL = "conventional"
    EXTRAORDINARY = "extraordinary"


class SizeCategory(Enum):
    FINE = "fine"
    DIMINUTIVE = "diminutive"
    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"
    COLOSSAL = "colossal"

    @property
    def rank(self) -> int:
        """Position from fine (0) to colossal (8)."""
        return _RANK[self]

    @property
    def group(self) -> SizeGroup:
        return _GROUP[self]

    @property
    def carrying_size(self) -> int:
        """The "character size" term of carrying capacity (see the module ruling)."""
        return _CARRYING_SIZE.get(self) or _GROUP_CARRYING_SIZE[self.group]


_GROUPS = (SizeGroup.MINUSCULE, SizeGroup.CONVENTIONAL, SizeGroup.EXTRAORDINARY)
# Looked up rather than found with list(SizeCategory).index: every attack asks several times.
_RANK = {size: rank for rank, size in enumerate(SizeCategory)}
_GROUP = {size: _GROUPS[rank // 3] for size, rank in _RANK.items()}
_CARRYING_SIZE = {SizeCategory.SMALL: 6, SizeCategory.MEDIUM: 8, SizeCategory.LARGE: 10}
_GROUP_CARRYING_SIZE = {SizeGroup.MINUSCULE: 6, SizeGroup.EXTRAORDINARY: 10}


def skill_value(attribute: int, training: int = 0, *, expertise: bool = False) -> int:
    """Attribute + training bonuses + 1 with expertise (AGI 3, 1 training → 4; expertise → 5)."""
    return attribute + training + (1 if expertise else 0)


def _bounded(value: int, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{what} must be a whole number from {low} to {high}; you gave {value!r}.")
    return value


@dataclass(frozen=True, kw_only=True)
class CharacterSheet:
    name: str
    strength: int
    agility: int
    mind: int
    presence: int
    tier: int = 1
    exp: int = 0
    size: SizeCategory = SizeCategory.MEDIUM
    uses_instinct: bool = False
    spirit_attribute: Attribute = Attribute.MIND
    # Skill name → training bonuses (a mapping is accepted and stored sorted).
    training: tuple[tuple[str, int], ...] = field(default=())
    expertise: str | None = None  # the one skill with expertise, if any
    custom_skills: tuple[Skill, ...] = ()  # special skills the text leaves open

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError("A character needs a name.")
        for attribute in Attribute:
            check_attribute(getattr(self, attribute.value), name=self.attribute_label(attribute))
        _bounded(self.tier, 1, MAX_TIER, "Tier")
        _bounded(self.exp, 0, MAX_EXP, "Exp")
        if self.spirit_attribute not in (Attribute.MIND, Attribute.PRESENCE):
            raise RulesError("Mettle uses mind or presence; pick one of those.")
        customs = tuple(self._check_custom(s) for s in self.custom_skills)
        object.__setattr__(self, "custom_skills", customs)
        raw = dict(self.training) if not isinstance(self.training, Mapping) else self.training
        training: dict[str, int] = {}
        for name, bonus in raw.items():
            skill = self._known_skill(name)
            if skill.key in training:
                raise RulesError(f"{skill.name} is listed twice; give its training once.")
            limit = min(self.tier, MAX_TRAINING)
            _bounded(bonus, 0, limit, f"Training in {skill.name} (at tier {self.tier})")
            if bonus:
                training[skill.key] = bonus
        object.__setattr__(self, "training", tuple(sorted(training.items())))
        if self.expertise is not None:
            object.__setattr__(self, "expertise", self._known_skill(self.expertise).key)

    def _check_custom(self, skill: Skill) -> Skill:
        key = skill.key
        if not key or find_skill(key) is not None or parse_attribute(key) is not None:
            raise RulesError(f"“{skill.name}” is already a skill or attribute; pick another name.")
        if skill.category is not SkillCategory.SPECIAL:
            return Skill(name=skill.name, attribute=skill.attribute, category=SkillCategory.SPECIAL)
        return skill

    def _known_skill(self, name: str) -> Skill:
        skill = find_skill(name, extra=self.custom_skills)
        if skill is None:
            raise RulesError(f"There is no skill called “{name[:40]}”; {_suggest(name, self)}")
        return skill

    # Attributes and derived values ------------------------------------------------

    def attribute(self, attribute: Attribute) -> int:
        return getattr(self, attribute.value)

    def attribute_short(self, attribute: Attribute) -> str:
        return "INS" if attribute is Attribute.MIND and self.uses_instinct else attribute.short

    def attribute_label(self, attribute: Attribute) -> str:
        if attribute is Attribute.MIND and self.uses_instinct:
            return "Instinct"
        return attribute.value.title()

    @property
    def hit_points(self) -> int:
        return self.strength * 2 + 6

    @property
    def threshold(self) -> int:
        return -(self.strength + 3)

    @property
    def recovery_points(self) -> int:
        return self.strength

    @property
    def determination_points(self) -> int:
        return self.mind + self.presence

    @property
    def mettle(self) -> int:
        return self.attribute(self.spirit_attribute)

    @property
    def carrying_capacity(self) -> int:
        return self.size.carrying_size + self.strength

    def attribute_die(self, attribute: Attribute) -> tuple[int, ...]:
        return attribute_die(self.attribute(attribute))

    # Skills ------------------------------------------------------------------------

    def skill_attribute(self, skill: Skill) -> Attribute:
        return skill.attribute if skill.attribute is not None else self.spirit_attribute

    def training_in(self, skill: Skill) -> int:
        return dict(self.training).get(skill.key, 0)

    def has_expertise(self, skill: Skill) -> bool:
        return self.expertise == skill.key

    def skill_value(self, skill: Skill) -> int:
        return skill_value(
            self.attribute(self.skill_attribute(skill)),
            self.training_in(skill),
            expertise=self.has_expertise(skill),
        )


@dataclass(frozen=True, kw_only=True)
class SkillPool:
    """How many d6 a named roll uses, with a label showing where they come from."""

    dice: int
    label: str
    attribute: Attribute
    skill: Skill | None  # None for a plain attribute roll

    def spec(self, **modifiers: int | bool) -> PoolSpec:
        """A ``PoolSpec`` on these dice with boons, banes, focus… as keywords."""
        return PoolSpec(base=self.dice, **modifiers)  # type: ignore[arg-type]


def _suggest(name: str, sheet: CharacterSheet | None) -> str:
    extra = sheet.custom_skills if sheet else ()
    close = match_skill_names(name, extra=extra, limit=3)
    if close:
        return f"did you mean {', '.join(close)}?"
    return "pick one from the list."


# Pure, of an immutable sheet and a name (about 10 µs: the skill's lookup and its label),
# asked for each side of every attack, clash and check: worked out once per pair.
@lru_cache(maxsize=4096)
def skill_pool(sheet: CharacterSheet, name: str) -> SkillPool:
    """Dice for a skill or plain attribute roll by name (any case); RulesError if impossible."""
    attribute = parse_attribute(name)
    if attribute is not None:
        label = sheet.attribute_label(attribute)
        value = sheet.attribute(attribute)
        return SkillPool(dice=value, label=f"{label} {value}", attribute=attribute, skill=None)
    skill = sheet._known_skill(name)
    attribute = sheet.skill_attribute(skill)
    training = sheet.training_in(skill)
    expertise = sheet.has_expertise(skill)
    if skill.category is SkillCategory.SPECIAL and not training and not expertise:
        raise RulesError(
            f"{skill.name} is a special skill and {sheet.name} is not trained in it; "
            "ask the GM to roll a raw pool instead."
        )
    parts = [f"{sheet.attribute_short(attribute)} {sheet.attribute(attribute)}"]
    if training:
        parts.append(f"{training} training")
    if expertise:
        parts.append("expertise")
    dice = sheet.skill_value(skill)
    return SkillPool(
        dice=dice,
        label=f"{skill.name} ({' + '.join(parts)})",
        attribute=attribute,
        skill=skill,
    )


def match_sheet_names(
    query: str, sheet: CharacterSheet | None = None, *, limit: int = 25
) -> tuple[str, ...]:
    """Autocomplete for skill rolls: the sheet's custom skills, catalogue skills, attributes."""
    return match_skill_names(query, extra=sheet.custom_skills if sheet else (), limit=limit)


__all__ = [
    "CATALOGUE",
    "Attribute",
    "CharacterSheet",
    "SizeCategory",
    "SizeGroup",
    "Skill",
    "SkillCategory",
    "SkillPool",
    "match_sheet_names",
    "normalise_name",
    "skill_pool",
    "skill_value",
]
