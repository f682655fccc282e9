"""Option text for 2d10 commands: skill lists, specialisations, equipment lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import UserError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.skills import Skill, SkillKey
from cogs.twod10.options import (
    parse_skill_points,
    parse_specialisation,
    parse_weapons,
)

SUBFIELDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=20).filter(
    lambda s: s.strip()
)


@st.composite
def skill_keys(draw: st.DrawFn) -> SkillKey:
    skill = draw(st.sampled_from(list(Skill)))
    if skill.needs_attribute:
        return SkillKey(skill=skill, attribute=draw(st.sampled_from(list(Attribute))))
    if skill.needs_subfield:
        return SkillKey(skill=skill, subfield=draw(SUBFIELDS))
    return SkillKey(skill=skill)


@given(st.dictionaries(skill_keys(), st.integers(0, 6), max_size=8))
def test_a_written_skill_list_parses_back(points: dict[SkillKey, int]) -> None:
    text = ", ".join(f"{key.label} {rank}" for key, rank in points.items())
    assert parse_skill_points(text, what="extra skills") == points


def test_compact_forms() -> None:
    parsed = parse_skill_points(
        "athletics 2; defense(finesse) 1, Knowledge/occupation (Herbs): 1, gather information=1",
        what="extra skills",
    )
    assert parsed == {
        SkillKey(skill=Skill.ATHLETICS): 2,
        SkillKey(skill=Skill.DEFENSE, attribute=Attribute.FINESSE): 1,
        SkillKey(skill=Skill.KNOWLEDGE, subfield="herbs"): 1,
        SkillKey(skill=Skill.GATHER_INFORMATION): 1,
    }
    assert parse_skill_points("none", what="extra skills") == {}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("athletics", "needs a skill and its points"),
        ("2", "needs a skill and its points"),
        ("flying 2", "is not a skill"),
        ("melee 1, Melee 1", "Melee is listed twice in extra skills"),
        ("defense (luck) 1", "is not an attribute"),
    ],
)
def test_bad_skill_lists_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(UserError, match=words):
        parse_skill_points(text, what="extra skills")


def test_specialisations_and_weapons() -> None:
    spec = parse_specialisation("mind“languages”", what="positive")
    assert spec is not None and (spec.attribute, spec.text) == (Attribute.MIND, "languages")
    assert parse_specialisation("none", what="positive") is None
    with pytest.raises(UserError, match="is not an attribute"):
        parse_specialisation("luck: dice", what="positive")
    assert [w.name for w in parse_weapons("light sword, light sword")] == ["Light sword"] * 2
    with pytest.raises(UserError, match="is not a weapon in the table"):
        parse_weapons("light sword, laser")
