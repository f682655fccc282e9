"""/character edit and /character advance in a 2d10 guild, and /help's rulings."""

from __future__ import annotations

import pytest

from bot.client import TableBot
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.skills import Skill, SkillKey
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    assert not (await create(slash, "Brann")).ephemeral  # toughness 1: 20 HP, death at -2


async def test_owner_changes_equipment_feats_and_name(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run(
        "character edit", armor="Plate", shield="Heavy large shield",
        weapons="Two-handed axe, Light sword, Sling, Longbow", add_feat="Shield wall",
        remove_feat="iron lungs", new_name="Brann Ironhand", **player(slash),
    )  # fmt: skip
    assert not result.ephemeral, result.content
    assert result.content == (
        "Updated **Brann Ironhand**: name Brann Ironhand, equipment, feats. Now 20/20 HP · death"
        " at -2."
    )
    sheet = await stored(bot, "brann ironhand")
    c = sheet.character
    assert (c.armor.name, c.shield.name, len(c.weapons)) == ("Plate", "Heavy large shield", 4)
    assert c.feats == ("Strong grip", "Shield wall")
    # plate 4 + heavy large shield 2 - strength 2 = 4 off finesse 1 + defense 2.
    assert (c.armor_penalty, c.defense_value(Attribute.FINESSE), c.damage_reduction) == (4, -1, 12)
    cleared = await slash.run("character edit", armor="none", weapons="none", **player(slash))
    assert not cleared.ephemeral
    assert (await stored(bot, "Brann Ironhand")).character.weapons == ()


async def test_edit_refusals(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("character edit", **player(slash)), "Give at least one option")
    refused(await slash.run("character edit", hp=5, **player(slash)), "Only the GM")
    refused(
        await slash.run("character edit", name="Brann", armor="Plate", **player(slash, 2)),
        "isn't yours",
    )
    refused(await slash.run("character edit", remove_feat="Flying", **player(slash)), "no feat")
    refused(
        await slash.run("character edit", positive="mind: puzzles", **player(slash)),
        "needs a negative one",
    )
    refused(await slash.run("character edit", shield="Tower", **player(slash)), "is not a shield")
    await create(slash, "Ada", player(slash, 2))
    refused(
        await slash.run("character edit", new_name="ada", **player(slash)),
        "already a character called ada",
    )
    assert (await stored(bot, "Brann")).revision == 1  # nothing written


async def test_gm_sets_hp_within_the_range(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("character edit", name="Brann", hp=-2, kind="ally", **gm(slash))
    assert "Now -2/20 HP · death at -2." in result.content
    assert (await stored(bot, "Brann")).kind.value == "ally"
    clamped = await slash.run("character edit", name="Brann", hp=45, **gm(slash))
    assert "Now 20/20 HP" in clamped.content


async def test_gm_advances_up_to_the_final_maximum(bot: TableBot, slash: SlashHarness) -> None:
    refused(
        await slash.run("character advance", attribute="strength", **player(slash)), "Only the GM"
    )
    up = await slash.run(
        "character advance", name="Brann", attribute="toughness", by=5, **gm(slash)
    )
    # toughness 6: (6 x 5) + 15 = 45 HP max; current HP stays 20; death at -12.
    assert up.content == "Advanced **Brann**: Toughness +6. Now 20/45 HP · death at -12."
    refused(
        await slash.run("character advance", name="Brann", attribute="toughness", **gm(slash)),
        "the final maximum is 6, so it can rise by at most 0",
    )
    learned = await slash.run(
        "character advance", name="Brann", skill="mysteries (runes)", by=6, **gm(slash)
    )
    assert learned.content.startswith("Advanced **Brann**: Mysteries (runes) 6.")
    melee = await slash.run("character advance", name="Brann", skill="melee", by=5, **gm(slash))
    refused(melee, "Melee is 2; the final maximum is 6, so it can rise by at most 4.")
    refused(
        await slash.run("character advance", name="Brann", **gm(slash)), "Give either attribute"
    )
    sheet = await stored(bot, "Brann")
    assert sheet.character.skill(SkillKey(skill=Skill.MYSTERIES, subfield="runes")) == 6


async def test_help_shows_the_rulings(bot: TableBot, slash: SlashHarness) -> None:
    create_help = text(await slash.run("help", command="character create", **player(slash)))
    assert "Only one attribute may take the -1 penalty" in create_help
    assert "not held to the starting budgets" in create_help
    task_help = text(await slash.run("help", command="task", **player(slash)))
    assert "Kept dice showing 1 and 1 fail any task" in task_help and "heroic" in task_help
    advance_help = text(await slash.run("help", command="character advance", **player(slash)))
    assert "Only the GM advances a character" in advance_help


async def test_remove_feat_offers_the_sheets_feats(bot: TableBot, slash: SlashHarness) -> None:
    offered = await slash.autocomplete("character edit", "remove_feat", "", user=slash.members[1])
    assert [c["value"] for c in offered] == ["Strong grip", "Iron lungs"]
    skills = await slash.autocomplete("character advance", "skill", "def", user=slash.members[1])
    assert [c["value"] for c in skills][:2] == ["defense (finesse)", "defense (strength)"]


async def test_help_lists_the_2d10_commands_only(bot: TableBot, slash: SlashHarness) -> None:
    listed = text(await slash.run("help", **player(slash)))
    assert "`/task`" in listed
    assert "`/character` advance · create · delete · edit · list · select · show" in listed
    assert "/hero" not in listed and "/check" not in listed
