"""Character creation and advancement: valid builds pass, each broken rule is named."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import (
    Attribute,
    Attributes,
    Specialisation,
    death_threshold,
    is_dead,
    max_hit_points,
    parse_attribute,
)
from bot.rules.twod10.character import (
    Character,
    advance_attribute,
    advance_skill,
    create_character,
    edit_equipment,
    roll_character_task,
)
from bot.rules.twod10.equipment import armor, shield, weapon
from bot.rules.twod10.sheet_codec import character_from_dict, character_to_dict
from bot.rules.twod10.skills import Skill, SkillKey, defense, parse_skill

STEALTH = SkillKey(skill=Skill.STEALTH)
MELEE = SkillKey(skill=Skill.MELEE)
ATHLETICS = SkillKey(skill=Skill.ATHLETICS)
PERCEPTION = SkillKey(skill=Skill.PERCEPTION)
LORE = SkillKey(skill=Skill.MYSTERIES, subfield="Necromancy")
LAW = SkillKey(skill=Skill.KNOWLEDGE, subfield="law")


def build(**changes: object) -> Character:
    options: dict[str, object] = {
        "name": "Mira",
        "background": "Hunter",
        "attributes": Attributes(finesse=2, strength=1, toughness=1),
        "background_skills": {STEALTH: 2, PERCEPTION: 2, ATHLETICS: 1},
        "extra_skills": {MELEE: 2, defense(Attribute.FINESSE): 2, LORE: 1},
        "feats": ("Keen eyes", "Silent step"),
    }
    options.update(changes)
    return create_character(**options)  # type: ignore[arg-type]


def test_valid_build() -> None:
    mira = build(
        armor=armor("leather"),
        shield=shield("buckler"),
        weapons=(weapon("light sword"), weapon("shortbow")),
        positive=Specialisation(attribute=Attribute.FINESSE, text="manual  dexterity"),
        negative=Specialisation(attribute=Attribute.SOCIAL, text="blunt"),
    )
    assert mira.skill(STEALTH) == 2 and mira.skill(LORE) == 1
    assert mira.skill(SkillKey(skill=Skill.MYSTERIES, subfield="necromancy")) == 1
    assert mira.positive is not None and mira.positive.text == "manual dexterity"
    # HP: (1 * 5) + 15 = 20; death at min(-2, -1) = -2.
    assert mira.max_hp == 20 and mira.death_threshold == -2
    # Defense (finesse): 2 + 2 - max(0, leather 1 + buckler 0 - strength 1) = 4.
    assert mira.armor_penalty == 0 and mira.defense_value() == 4
    assert mira.damage_reduction == 2 + 2


def test_penalty_point_buys_a_fifth_point() -> None:
    # -1 social gives 5 points: 3 + 2 = 5, total still 4.
    hero = build(attributes=Attributes(finesse=3, strength=2, social=-1))
    assert hero.attributes.total == 4


@pytest.mark.parametrize(
    ("attrs", "reason"),
    [
        (Attributes(finesse=4), "Finesse starts at most 3"),
        (Attributes(finesse=2, strength=1), "1 left unspent"),
        (Attributes(finesse=3, strength=2), "spent 5; remove 1"),
        (Attributes(finesse=3, strength=3, mind=-1, social=-1), "Only one attribute"),
        (Attributes(finesse=3, strength=1, social=-1), "1 left unspent"),
    ],
)
def test_invalid_attributes_refused_with_reason(attrs: Attributes, reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        build(attributes=attrs)


def test_attribute_range() -> None:
    with pytest.raises(RulesError, match="from -1 to 6"):
        Attributes(mind=-2)
    with pytest.raises(RulesError, match="from -1 to 6"):
        Attributes(mind=7)
    with pytest.raises(RulesError, match="whole number"):
        Attributes(mind=True)


def test_specialisations_come_in_pairs() -> None:
    pos = Specialisation(attribute=Attribute.MIND, text="languages")
    with pytest.raises(RulesError, match="needs a negative one"):
        build(positive=pos)
    with pytest.raises(RulesError, match="comes with a positive one"):
        build(negative=pos)
    with pytest.raises(RulesError, match="Describe"):
        Specialisation(attribute=Attribute.MIND, text="  ")


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"background_skills": {STEALTH: 2, PERCEPTION: 2}}, "1 left unspent"),
        ({"extra_skills": {MELEE: 2, LORE: 2, LAW: 2}}, "spent 6; remove 1"),
        ({"background_skills": {STEALTH: 3, PERCEPTION: 2}}, "Stealth starts at most 2"),
        (
            {"extra_skills": {STEALTH: 1, MELEE: 2, LORE: 2}},
            "Stealth starts at most 2; you gave it 3",
        ),
        ({"feats": ("Only one",)}, "exactly 2 feats"),
        ({"feats": ("One", "  ")}, "feat"),
        ({"name": ""}, "name"),
        ({"weapons": (weapon("sling"),) * 4}, "at most 3 weapons"),
    ],
)
def test_invalid_builds_refused_with_reason(changes: dict[str, object], reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        build(**changes)


def test_skill_keys_and_parsing() -> None:
    assert parse_skill("Defense (finesse)") == defense(Attribute.FINESSE)
    assert parse_skill("mysteries (Runes)") == SkillKey(skill=Skill.MYSTERIES, subfield="runes")
    assert parse_skill("Knowledge/occupation: law") == LAW
    assert parse_skill("gather information") == SkillKey(skill=Skill.GATHER_INFORMATION)
    assert defense(Attribute.TOUGHNESS).label == "Defense (toughness)"
    with pytest.raises(RulesError, match="Defense needs an attribute"):
        SkillKey(skill=Skill.DEFENSE)
    with pytest.raises(RulesError, match="needs a subfield"):
        parse_skill("mysteries")
    with pytest.raises(RulesError, match="takes no subfield"):
        parse_skill("stealth (quiet)")
    with pytest.raises(RulesError, match="not a skill"):
        parse_skill("juggling")
    with pytest.raises(RulesError, match="not an attribute"):
        parse_attribute("luck")
    assert len(Skill) == 20


@pytest.mark.parametrize(
    ("toughness", "hp", "death"),
    [(-1, 12, -1), (0, 15, -1), (1, 20, -2), (2, 25, -4), (3, 30, -6), (6, 45, -12)],
)
def test_hit_points_and_death_threshold(toughness: int, hp: int, death: int) -> None:
    # (toughness*5)+15 or 12, whichever is higher; death at -2*toughness or -1, the lower.
    assert max_hit_points(toughness) == hp
    assert death_threshold(toughness) == death
    assert is_dead(death, toughness) and not is_dead(death + 1, toughness)


def test_advancement_to_final_maxima() -> None:
    mira = build()
    stronger = advance_attribute(mira, Attribute.TOUGHNESS, by=5)
    assert stronger.attributes.toughness == 6 and stronger.max_hp == 45
    with pytest.raises(RulesError, match="can rise by at most 0"):
        advance_attribute(stronger, Attribute.TOUGHNESS)
    with pytest.raises(RulesError, match="can rise by at most 4"):
        advance_skill(mira, STEALTH, by=5)
    learned = advance_skill(mira, LAW, by=6)
    assert learned.skill(LAW) == 6
    assert advance_skill(mira, STEALTH, by=4).skill(STEALTH) == 6
    with pytest.raises(RulesError, match="1 or more"):
        advance_skill(mira, STEALTH, by=0)


def test_armor_penalty_comes_off_finesse_defense_less_strength() -> None:
    mira = build()  # finesse 2, strength 1, Defense (finesse) 2
    plated = edit_equipment(mira, armor=armor("plate"), shield=shield("light large shield"),
                            weapons=())  # fmt: skip
    # plate 4 + large 2 - strength 1 = 5 off a defense of 4.
    assert plated.armor_penalty == 5 and plated.defense_value() == -1
    assert plated.defense_value(Attribute.TOUGHNESS) == 1
    weak = replace(plated, attributes=Attributes(finesse=3, strength=-1, toughness=2))
    assert weak.armor_penalty == 6  # a -1 strength adds nothing to the penalty
    bare = replace(weak, armor=None, shield=None)
    assert bare.armor_penalty == 0


def test_character_task_against_difficulty_or_defense() -> None:
    mira = build()  # finesse 2, Stealth 2
    result = roll_character_task(mira, Attribute.FINESSE, STEALTH, difficulty=-5,
                                 dice=ScriptedDice([6, 5]))  # fmt: skip
    assert result.total == 11 - 5 + 2 + 2 == 10 and result.succeeded
    assert [m.label for m in result.modifiers] == ["finesse", "Stealth", "difficulty"]
    vs = roll_character_task(mira, Attribute.MIND, None, target_defense=3,
                             dice=ScriptedDice([6, 5]))  # fmt: skip
    assert vs.total == 11 + 0 + 0 - 3 and vs.modifiers[-1].label == "target's defense"
    with pytest.raises(RulesError, match="not both"):
        roll_character_task(mira, Attribute.MIND, difficulty=-5, target_defense=3,
                            dice=ScriptedDice([1, 1]))  # fmt: skip


def test_loaded_sheet_obeys_final_maxima() -> None:
    mira = build()
    with pytest.raises(RulesError, match="Stealth must be from 1 to 6"):
        replace(mira, skills=((STEALTH, 7),))
    with pytest.raises(RulesError, match="listed twice"):
        replace(mira, skills=((STEALTH, 1), (STEALTH, 2)))


def test_sheet_round_trips_through_stored_data() -> None:
    mira = build(
        armor=armor("leather"), shield=shield("buckler"),
        weapons=(weapon("light sword"), weapon("shortbow")),
        positive=Specialisation(attribute=Attribute.FINESSE, text="manual dexterity"),
        negative=Specialisation(attribute=Attribute.SOCIAL, text="blunt"),
    )  # fmt: skip
    data = character_to_dict(mira)
    assert json.loads(json.dumps(data)) == data
    assert character_from_dict(data) == mira
    with pytest.raises(RulesError, match="damaged"):
        character_from_dict({**data, "armor": "mithril"})
    with pytest.raises(RulesError, match="damaged"):
        character_from_dict({**data, "attributes": {"finesse": 9}})
    with pytest.raises(RulesError, match="newer bot"):
        character_from_dict({**data, "version": 2})
