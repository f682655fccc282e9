"""/character in a 2d10 guild: create (valid and refused builds), show, list, select, delete."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.twod10.skills import Skill, SkillKey
from tests.cogs.twod10.helpers import (
    create,
    gm,
    make_twod10,
    player,
    refused,
    stored,
    text,
)
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)


async def test_a_valid_build_is_stored_with_hp_and_death_threshold(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await create(
        slash, "Brann", armor="Leather", shield="Buckler",
        weapons="One-handed axe, Shortbow", positive='finesse"manual dexterity"',
        negative="social: lying",
    )  # fmt: skip
    assert not result.ephemeral, result.content
    assert "Created **Brann**. It is now your active character." in result.content
    shown = text(result)
    # toughness 1: (1 x 5) + 15 = 20 HP; death at min(-2, -1) = -2.
    assert "20/20 HP · death at -2" in shown
    # finesse 1 + defense (finesse) 2 - (leather 1 + buckler 0 - strength 2 -> 0) = 3
    assert "**Finesse** +1 · defense +3" in shown
    assert "One-handed axe: 1d8 (axe, one-handed, extra die on 19+)" in shown
    assert "Damage reduction 4, armor penalty 0" in shown
    sheet = await stored(bot, "brann")
    assert sheet.character.skill(SkillKey(skill=Skill.ATHLETICS)) == 2
    assert sheet.character.skill(SkillKey(skill=Skill.KNOWLEDGE, subfield="metallurgy")) == 2
    assert sheet.character.positive is not None and sheet.character.negative is not None
    assert sheet.character.positive.text == "manual dexterity"  # the rules text's own form
    assert sheet.character.negative.attribute.value == "social"
    assert (sheet.hp, sheet.owner_id) == (20, slash.members[1].id)
    await dpytest.empty_queue()


async def test_the_penalty_point_buys_a_fifth_point(bot: TableBot, slash: SlashHarness) -> None:
    result = await create(slash, "Vex", finesse=3, strength=2, toughness=0, mind=-1, social=0)
    assert not result.ephemeral, result.content
    assert "**Mind** -1" in text(result)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"finesse": 2}, "You have 4 attribute points but spent 5; remove 1."),
        ({"strength": 1}, "Spend all 4 attribute points; 1 left unspent."),
        ({"mind": -1, "social": -1, "finesse": 3}, "Only one attribute may take the -1 penalty"),
        ({"strength": 4, "finesse": -1, "toughness": 0, "mind": 1, "social": 0},
         "Strength starts at most 3"),
        ({"background_skills": "melee 2, machinery 2"},
         "Spend all 5 background skill points; 1 left unspent."),
        ({"extra_skills": "melee 1, defense (finesse) 2, knowledge (metallurgy) 2"},
         "Melee starts at most 2; you gave it 3"),
        ({"extra_skills": "defense 2, knowledge (metallurgy) 2, athletics 1"},
         "is not an attribute"),
        ({"extra_skills": "knowledge 2, defense (finesse) 2, athletics 1"},
         "Knowledge needs a subfield"),
        ({"extra_skills": "juggling 2, defense (finesse) 2, athletics 1"}, "is not a skill"),
        ({"extra_skills": "athletics, defense (finesse) 2"}, "needs a skill and its points"),
        ({"extra_skills": "athletics 1, athletics 1, defense (finesse) 2, stealth 1"},
         "Athletics is listed twice in extra skills"),
        ({"positive": "finesse: lockpicking"}, "A positive specialisation needs a negative one"),
        ({"positive": "lockpicking"}, "Write the positive specialisation as attribute: words"),
        ({"armor": "Mithril"}, "is not a suit of armor"),
        ({"weapons": "Light sword, Light axe, Sling, Longbow"}, "at most 3 weapons"),
        ({"kind": "antagonist"}, "Only the GM can create allies and antagonists"),
    ],
)  # fmt: skip
async def test_invalid_builds_are_refused_with_the_reason(
    bot: TableBot, slash: SlashHarness, changes: dict, reason: str
) -> None:
    result = await create(slash, "Broken", **changes)
    refused(result, reason)
    assert result.content.count(".") >= 1 and "\n" not in result.content
    async with bot.db.read() as conn, conn.execute("SELECT COUNT(*) FROM twod10_characters") as c:
        assert (await c.fetchone())[0] == 0


async def test_names_are_unique_ignoring_case(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Brann")
    refused(await create(slash, "  BRANN "), "There is already a character called BRANN")


async def test_gm_builds_npcs_past_the_starting_budgets(bot: TableBot, slash: SlashHarness) -> None:
    result = await create(
        slash, "Warlord", gm(slash), kind="antagonist", strength=5, toughness=4, finesse=3,
        mind=1, social=2, background_skills="melee 6, intimidation 4", extra_skills="none",
    )  # fmt: skip
    assert not result.ephemeral, result.content
    # toughness 4: (4 x 5) + 15 = 35 HP; death at -2 x 4 = -8.
    assert "Antagonist" in text(result) and "35/35 HP · death at -8" in text(result)
    refused(
        await create(slash, "Giant", gm(slash), kind="ally", background_skills="melee 7"),
        "Melee must be from 1 to 6; it is 7.",
    )


async def test_show_list_select(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Brann")
    await create(slash, "Ada", background_skills="stealth 2, perception 2, insight 1")
    await create(slash, "Gob", gm(slash), kind="antagonist")
    shown = await slash.run("character show", **player(slash))
    assert shown.embeds[0]["title"] == "Brann ★"  # the first one stays active
    listed = text(await slash.run("character list", **player(slash)))
    assert "**Ada** ·" in listed and "**Brann** ★ ·" in listed
    gm_id = slash.members[0].id
    assert f"**Gob** (antagonist) · <@{gm_id}>\n" in listed + "\n"  # no HP: hidden
    gob = await slash.run("character show", name="gob", **player(slash))
    assert "Hit points: hidden by the GM" in text(gob)
    assert "20/20 HP" in text(await slash.run("character show", name="gob", **gm(slash)))
    selected = await slash.run("character select", name="ada", **player(slash))
    assert selected.ephemeral and "**Ada** is now your active character" in selected.content
    assert (await slash.run("character show", **player(slash))).embeds[0]["title"] == "Ada ★"
    refused(await slash.run("character select", name="Gob", **player(slash)), "isn't yours")
    refused(await slash.run("character show", name="Nobody", **player(slash)), "no character")
    refused(await slash.run("character show", **player(slash, 2)), "no active character")


async def test_delete_needs_confirm_and_the_owner_or_gm(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Brann")
    refused(
        await slash.run("character delete", name="Brann", confirm=False, **player(slash)),
        "can't be undone",
    )
    refused(
        await slash.run("character delete", name="Brann", confirm=True, **player(slash, 2)),
        "isn't yours",
    )
    done = await slash.run("character delete", name="Brann", confirm=True, **gm(slash))
    assert "Deleted **Brann**. Its owner has no active character now" in done.content
    refused(await slash.run("character show", **player(slash)), "no active character")


async def test_autocomplete_offers_table_names_and_characters(
    bot: TableBot, slash: SlashHarness
) -> None:
    await create(slash, "Brann")
    armor = await slash.autocomplete("character create", "armor", "chain", user=slash.members[1])
    assert [c["value"] for c in armor] == ["Chain shirt"]
    weapons = await slash.autocomplete(
        "character create", "weapons", "Shortbow, light c", user=slash.members[1]
    )
    assert [c["value"] for c in weapons] == ["Shortbow, Light crossbow"]
    names = await slash.autocomplete("character show", "name", "bra", user=slash.members[1])
    assert [c["value"] for c in names] == ["Brann"]


async def test_the_2d10_commands_fit_discords_limits(bot: TableBot) -> None:
    from bot.rulesets import Ruleset
    from tests.support.discord_schema import command_limit_errors

    payload = bot.command_sets.catalogues[Ruleset.TWOD10].payload(bot.tree)
    names = {command["name"] for command in payload}
    assert {"character", "task"} <= names
    for command in payload:
        assert command_limit_errors(command) == [], command["name"]


async def test_select_offers_only_your_own_characters(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Brann")
    await create(slash, "Bryn", player(slash, 2))
    offered = await slash.autocomplete("character select", "name", "br", user=slash.members[2])
    assert [c["value"] for c in offered] == ["Bryn"]
