"""/character edit, skill, customskill, trait, fundamentals through the slash harness."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.hocs.characters import CharacterRepository
from tests.cogs.test_character_helpers import assert_refused, create, fields, stored
from tests.support.slash import SlashHarness


async def test_edit_lowers_strength_and_clamps_hp(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    result = await slash.run("character edit", strength=2, armor=3, manage_guild=False)
    assert not result.ephemeral
    assert result.content.splitlines() == [
        "Updated **Mira**:",
        "• STR: 3 → 2",
        "• Toughness (armor): 0 → 3",
        "• HP max: 12 → 10",
        "• HP: 12 → 10",
        "• Threshold: \u22126 → \u22125",
        "• Recovery max: 3 → 2",
        "• Recovery: 3 → 2",
        "• Carrying capacity: 11 → 10",
    ]
    mira = await stored(bot, "Mira")
    assert mira is not None
    assert (mira.state.hp, mira.state.recovery, mira.sheet.hit_points) == (10, 2, 10)
    raised = await slash.run("character edit", strength=4)
    assert "• HP max: 10 → 14" in raised.content
    assert "• HP:" not in raised.content  # current values never rise on an edit
    shown = await slash.run("character show")
    assert fields(shown)["Hit points"] == "10/14"
    await dpytest.empty_queue()


async def test_edit_rename_tier_exp_size_and_nothing(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    await create(slash, "Bram", user=slash.members[1])
    nothing = await slash.run("character edit")
    assert_refused(nothing, "Nothing to change")
    same = await slash.run("character edit", strength=3)
    assert_refused(same, "already")
    taken = await slash.run("character edit", new_name="bram")
    assert_refused(taken, "already a character called bram")
    result = await slash.run(
        "character edit", new_name="Mira Vell", tier=2, exp=30, size="small", instinct=True
    )
    assert "• Name: Mira → Mira Vell" in result.content
    assert "• Tier: 1 → 2" in result.content
    assert "• Exp: 0 → 30" in result.content
    assert "• Size: medium → small" in result.content
    assert "• Instinct: no → yes" in result.content
    assert "• Carrying capacity: 11 → 9" in result.content
    assert await stored(bot, "Mira") is None
    renamed = await stored(bot, "mira vell")
    assert renamed is not None and renamed.sheet.tier == 2 and renamed.sheet.uses_instinct
    await dpytest.empty_queue()


async def test_training_limited_by_tier(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    refused = await slash.run("character skill", skill="Athletics", training=2)
    assert_refused(refused, "tier 1", "at most 1 training")
    assert (await stored(bot, "Mira")).sheet.training == ()  # type: ignore[union-attr]
    ok = await slash.run("character skill", skill="athletics", training=1)
    assert ok.content.splitlines() == [
        "Updated **Mira**:",
        "• Athletics training: 0 → 1",
        "• Athletics skill value: 3 → 4",
    ]
    shown = await slash.run("character show")
    assert "Athletics (STR): training 1 → value 4" in fields(shown)["Skills"]
    # A tier can't drop below a skill's training.
    await slash.run("character edit", tier=2)
    await slash.run("character skill", skill="Athletics", training=2)
    lowered = await slash.run("character edit", tier=1)
    assert_refused(lowered, "Athletics has 2 training", "lower it first")
    assert (await stored(bot, "Mira")).sheet.tier == 2  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_expertise_moves_between_skills(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    first = await slash.run("character skill", skill="Stealth", expertise=True)
    assert "• Stealth expertise: no → yes" in first.content
    assert "• Stealth skill value: 2 → 3" in first.content
    moved = await slash.run("character skill", skill="Melee Combat", expertise=True)
    assert "• Melee Combat expertise: no → yes" in moved.content
    assert "Expertise moved from Stealth to Melee Combat" in moved.content
    mira = await stored(bot, "Mira")
    assert mira is not None and mira.sheet.expertise == "melee combat"
    shown = fields(await slash.run("character show"))["Skills"]
    assert "Melee Combat (AGI): expertise → value 3" in shown
    assert "Stealth" not in shown
    removed = await slash.run("character skill", skill="Melee Combat", expertise=False)
    assert "• Melee Combat expertise: yes → no" in removed.content
    nothing = await slash.run("character skill", skill="Stealth")
    assert_refused(nothing, "Nothing to change")
    unknown = await slash.run("character skill", skill="Athletix", training=1)
    assert_refused(unknown, "no skill called Athletix", "Athletics")
    attribute = await slash.run("character skill", skill="Strength", training=1)
    assert_refused(attribute, "attribute, not a skill")
    await dpytest.empty_queue()


async def test_custom_skill_add_train_remove(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    need = await slash.run("character customskill", skill_name="Alchemy")
    assert_refused(need, "Give the attribute")
    added = await slash.run("character customskill", skill_name="Alchemy", attribute="mind")
    assert "• Custom skill: — → Alchemy (mind, special)" in added.content
    choices = await slash.autocomplete("character skill", "skill", "alch")
    assert [c["value"] for c in choices] == ["Alchemy"]
    trained = await slash.run("character skill", skill="alchemy", training=1, expertise=True)
    assert "• Alchemy skill value: 2 → 4" in trained.content
    shown = fields(await slash.run("character show"))["Skills"]
    assert "Alchemy (MIND, custom): training 1 + expertise → value 4" in shown
    clash = await slash.run("character customskill", skill_name="Medicine", attribute="mind")
    assert_refused(clash, "already a skill")
    spirit = await slash.run(
        "character customskill", skill_name="alchemy", attribute="mind or presence"
    )
    assert "• Alchemy attribute: mind → mind or presence" in spirit.content
    removed = await slash.run("character customskill", skill_name="Alchemy", remove=True)
    assert "• Custom skill: Alchemy → removed" in removed.content
    assert "training and expertise were removed" in removed.content
    mira = await stored(bot, "Mira")
    assert mira is not None
    assert (mira.sheet.custom_skills, mira.sheet.training, mira.sheet.expertise) == ((), (), None)
    await dpytest.empty_queue()


async def test_traits_warn_beyond_three_but_allow(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    for trait in ("bold", "witty", "skeptical"):
        result = await slash.run("character trait add", trait=trait)
        assert "-# The rules give" not in result.content
    fourth = await slash.run("character trait add", trait="curious")
    assert "• Traits: bold, witty, skeptical → bold, witty, skeptical, curious" in fourth.content
    assert "The rules give 3 traits at tier 1" in fourth.content
    duplicate = await slash.run("character trait add", trait="BOLD")
    assert_refused(duplicate, "already has the trait bold")
    choices = await slash.autocomplete("character trait remove", "trait", "sk")
    assert [c["value"] for c in choices] == ["skeptical"]
    removed = await slash.run("character trait remove", trait="Skeptical")
    assert "→ bold, witty, curious" in removed.content
    missing = await slash.run("character trait remove", trait="brave")
    assert_refused(missing, "no trait brave", "bold, witty, curious")
    shown = fields(await slash.run("character show"))
    assert shown["Traits"] == "bold, witty, curious"
    await dpytest.empty_queue()


async def test_traits_capped_at_twelve(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    for number in range(12):
        await slash.run("character trait add", trait=f"trait {number}")
    refused = await slash.run("character trait add", trait="one too many")
    assert_refused(refused, "at most 12 traits")
    assert len((await stored(bot, "Mira")).details.traits) == 12  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_fundamentals_set_show_clear(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash)
    result = await slash.run(
        "character fundamentals",
        who="A merchant sailor from Tirus",
        believe="The world is ordinary",
        want="A peaceful, profitable life",
    )
    assert "• Who are you?: — → A merchant sailor from Tirus" in result.content
    shown = fields(await slash.run("character show"))
    assert shown["Who are you?"] == "A merchant sailor from Tirus"
    assert shown["What do you believe in?"] == "The world is ordinary"
    assert shown["What do you want?"] == "A peaceful, profitable life"
    assert "Fundamentals" not in shown
    cleared = await slash.run("character fundamentals", believe="-")
    assert "• What do you believe in?: The world is ordinary → —" in cleared.content
    nothing = await slash.run("character fundamentals")
    assert_refused(nothing, "Give who, believe or want")
    await dpytest.empty_queue()


async def test_players_cannot_change_others_sheets_gm_can(
    bot: TableBot, slash: SlashHarness
) -> None:
    await create(slash, "Mira", user=slash.members[0])
    before = await stored(bot, "Mira")
    intruder = slash.members[1]
    attempts = [
        ("character edit", {"strength": 1}),
        ("character skill", {"skill": "Athletics", "training": 1}),
        ("character customskill", {"skill_name": "Alchemy", "attribute": "mind"}),
        ("character trait add", {"trait": "cowardly"}),
        ("character fundamentals", {"who": "Nobody"}),
    ]
    for command, options in attempts:
        result = await slash.run(command, user=intruder, name="Mira", manage_guild=False, **options)
        assert_refused(result, "Mira isn't yours", "only its owner or the GM")
    assert await stored(bot, "Mira") == before
    gm = await slash.run(
        "character edit", user=intruder, name="Mira", strength=1, manage_guild=True
    )
    assert not gm.ephemeral and "• STR: 3 → 1" in gm.content
    async with bot.db.read() as conn:
        after = await CharacterRepository(conn).find(bot.guilds[0].id, "Mira")
    assert after is not None and after.sheet.strength == 1 and after.owner_id == before.owner_id  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_no_active_character_for_edits(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("character trait add", trait="bold")
    assert_refused(result, "no active character")
    await dpytest.empty_queue()


async def test_hostile_custom_skill_and_trait_text_is_escaped(
    bot: TableBot, slash: SlashHarness
) -> None:
    await create(slash)
    added = await slash.run("character customskill", skill_name="**Lore** @here", attribute="mind")
    added.assert_no_pings()
    assert "\\*\\*Lore\\*\\* @\u200bhere (mind, special)" in added.content
    trained = await slash.run("character skill", skill="**lore** @here", training=1)
    assert "• \\*\\*Lore\\*\\* @\u200bhere training: 0 → 1" in trained.content
    trait = await slash.run("character trait add", trait="<@123456789012345678>")
    assert "<@\u200b123456789012345678>" in trait.content
    shown = fields(await slash.run("character show"))
    assert shown["Skills"].startswith("\\*\\*Lore\\*\\* @\u200bhere (MIND, custom)")
    assert shown["Traits"] == "<@\u200b123456789012345678>"
    await dpytest.empty_queue()
