"""Character sheets: derived values, attribute die, skill values and pools, lookups."""

from __future__ import annotations

import pytest

from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import Attribute, attribute_die, parse_attribute
from bot.rules.hocs.character import (
    CharacterSheet,
    SizeCategory,
    SizeGroup,
    match_sheet_names,
    skill_pool,
    skill_value,
)
from bot.rules.hocs.skills import CATALOGUE, Skill, SkillCategory, find_skill


def sheet(**overrides: object) -> CharacterSheet:
    values: dict[str, object] = {
        "name": "Mira",
        "strength": 2,
        "agility": 3,
        "mind": 2,
        "presence": 1,
    }
    values.update(overrides)
    return CharacterSheet(**values)  # type: ignore[arg-type]


def test_skill_value_example() -> None:
    # Agility 3 + 1 training in acrobatics = 4; with expertise 5.
    assert skill_value(3, 1) == 4
    assert skill_value(3, 1, expertise=True) == 5
    mira = sheet(training={"Acrobatics": 1})
    acrobatics = find_skill("acrobatics")
    assert acrobatics is not None
    assert mira.skill_value(acrobatics) == 4
    assert sheet(training={"Acrobatics": 1}, expertise="acrobatics").skill_value(acrobatics) == 5


@pytest.mark.parametrize(
    ("value", "dice"), [(1, (4,)), (2, (6,)), (3, (8,)), (4, (8, 8)), (5, (10,))]
)
def test_attribute_die_table(value: int, dice: tuple[int, ...]) -> None:
    assert attribute_die(value) == dice


def test_respite_example_strength_three_rolls_d8() -> None:
    assert sheet(strength=3).attribute_die(Attribute.STRENGTH) == (8,)


@pytest.mark.parametrize("strength", [1, 2, 3, 4, 5])
def test_derived_values(strength: int) -> None:
    s = sheet(strength=strength, mind=2, presence=3)
    assert s.hit_points == strength * 2 + 6
    assert s.threshold == -(strength + 3)
    assert s.recovery_points == strength
    assert s.determination_points == 5
    assert s.carrying_capacity == 8 + strength


def test_carrying_capacity_by_size() -> None:
    # "a small-sized character with strength 2 would have 8 equipped item slots"
    assert sheet(strength=2, size=SizeCategory.SMALL).carrying_capacity == 8
    assert sheet(strength=2, size=SizeCategory.LARGE).carrying_capacity == 12
    assert sheet(strength=2, size=SizeCategory.FINE).carrying_capacity == 8  # ruling: as small
    assert sheet(strength=2, size=SizeCategory.COLOSSAL).carrying_capacity == 12  # as large


def test_size_groups() -> None:
    groups = [c.group for c in SizeCategory]
    assert (
        groups
        == [SizeGroup.MINUSCULE] * 3 + [SizeGroup.CONVENTIONAL] * 3 + [SizeGroup.EXTRAORDINARY] * 3
    )


def test_catalogue_attributes() -> None:
    by_name = {s.name: s for s in CATALOGUE}
    assert by_name["Athletics"].attribute is Attribute.STRENGTH
    assert by_name["Melee Combat"].category is SkillCategory.COMBAT
    assert by_name["Medicine"].category is SkillCategory.SPECIAL
    assert by_name["Willpower"].attribute is None
    assert len(CATALOGUE) == 20


def test_skill_pool_labels_and_case() -> None:
    mira = sheet(training={"melee combat": 1}, expertise="Melee Combat", tier=2)
    pool = skill_pool(mira, "MELEE_combat")
    assert pool.dice == 5 and pool.label == "Melee Combat (AGI 3 + 1 training + expertise)"
    assert skill_pool(mira, "athletics").dice == 2
    assert skill_pool(mira, "Presence").dice == 1 and skill_pool(mira, "pres").skill is None
    assert pool.spec(boons=1).dice_count == 6


def test_mind_or_presence_skills_use_spirit_attribute() -> None:
    assert skill_pool(sheet(), "willpower").dice == 2
    assert skill_pool(sheet(spirit_attribute=Attribute.PRESENCE), "Willpower").dice == 1
    assert sheet(spirit_attribute=Attribute.PRESENCE).mettle == 1
    with pytest.raises(RulesError):
        sheet(spirit_attribute=Attribute.STRENGTH)


def test_untrained_special_skill_refused_trained_allowed() -> None:
    with pytest.raises(RulesError, match="special skill"):
        skill_pool(sheet(), "Spellcasting")
    assert skill_pool(sheet(training={"spellcasting": 1}), "spellcasting").dice == 3


def test_custom_special_skill() -> None:
    lore = Skill(name="Occult Lore", attribute=Attribute.MIND, category=SkillCategory.GENERAL)
    s = sheet(custom_skills=(lore,), training={"occult lore": 1})
    assert s.custom_skills[0].category is SkillCategory.SPECIAL
    assert skill_pool(s, "Occult lore").dice == 3
    assert match_sheet_names("occ", s) == ("Occult Lore",)
    with pytest.raises(RulesError):
        sheet(
            custom_skills=(Skill(name="Stealth", attribute=None, category=SkillCategory.SPECIAL),)
        )


def test_instinct_renames_mind() -> None:
    beast = sheet(uses_instinct=True, training={"survival": 1})
    assert skill_pool(beast, "instinct").label == "Instinct 2"
    assert skill_pool(beast, "survival").label == "Survival (INS 2 + 1 training)"
    assert parse_attribute("Instinct") is Attribute.MIND


def test_training_limited_by_tier_and_three() -> None:
    with pytest.raises(RulesError):
        sheet(training={"stealth": 2})  # tier 1
    assert sheet(tier=3, training={"stealth": 3}).training == (("stealth", 3),)
    with pytest.raises(RulesError):
        sheet(tier=3, training={"stealth": 4})


@pytest.mark.parametrize(
    "bad",
    [
        {"strength": 0},
        {"agility": 6},
        {"tier": 4},
        {"exp": -1},
        {"name": " "},
        {"training": {"basket weaving": 1}},
        {"expertise": "nonsense"},
    ],
)
def test_impossible_sheets_refused(bad: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        sheet(**bad)


def test_unknown_skill_suggests() -> None:
    with pytest.raises(RulesError, match="Athletics"):
        skill_pool(sheet(), "atheltics")


def test_autocomplete() -> None:
    assert match_sheet_names("ath") == ("Athletics",)
    assert match_sheet_names("combat") == ("Melee Combat", "Ranged Combat")
    assert "Strength" in match_sheet_names("str")
    assert len(match_sheet_names("")) == 25
