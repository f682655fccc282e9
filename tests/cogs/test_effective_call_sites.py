"""Every place that plays with a character uses its effective (wounded) values:
rest, respite, skill rolls, the sheet, edits, the initiative tracker, the wounds list."""

from __future__ import annotations

import json

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.effective import effective_values
from bot.rules.hocs.wounds import InjuryKind, Wound, WoundKind
from bot.storage.hocs.characters import Character, CharacterKind
from cogs.hocs.initiative.service import initiative_stats
from tests.cogs.test_character_helpers import fields
from tests.cogs.test_check import make_character
from tests.cogs.test_init_commands import stored as stored_encounter
from tests.cogs.test_roll_buttons import fresh, set_points
from tests.support.slash import SlashHarness


async def wound(bot: TableBot, character: Character, *kinds: WoundKind | InjuryKind) -> Character:
    """Give the character these wounds (recovery 5 days each) straight in the row."""
    data = json.dumps([Wound(kind, 5).to_dict() for kind in kinds])
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE characters SET wounds = ? WHERE id = ?", (data, character.id))
    return await fresh(bot, character)


async def test_repository_loads_wounds_and_effective_values(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3: 12 HP
    assert mira.wounds == () and mira.effective.max_hp == 12
    mira = await wound(bot, mira, WoundKind.MAX_HP_MINUS_4, WoundKind.STRENGTH_MINUS_1)
    assert [w.kind for w in mira.wounds] == [WoundKind.MAX_HP_MINUS_4, WoundKind.STRENGTH_MINUS_1]
    assert mira.effective.max_hp == 6  # (2×2+6) − 4
    await dpytest.empty_queue()


async def test_rest_heals_only_to_the_wounded_maximum(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3: 12 HP
    await wound(bot, mira, WoundKind.MAX_HP_MINUS_4)
    await set_points(bot, mira, hp=2)
    bot.dice = ScriptedDice([6, 6, 6, 6, 6])  # value +5: 6 +4 for the other sixes = 10 points
    result = await slash.run("rest", place="beneficial", resources="good", time="beneficial")
    assert "HP 2 → 8/8" in result.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hp == 8  # max 12 − 4
    await dpytest.empty_queue()


async def test_rest_recovery_maximum_follows_wounded_strength(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3: 3 recovery points
    await wound(bot, mira, WoundKind.STRENGTH_MINUS_1)  # STR 2: 10 HP, 2 recovery
    await set_points(bot, mira, recovery=0)
    bot.dice = ScriptedDice([5, 1, 1])  # value +3: 5 points
    result = await slash.run("rest", place="good", resources="good", time="good", recovery=5)
    assert "recovery 0 → 2/2" in result.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.recovery == 2
    await dpytest.empty_queue()


async def test_respite_rolls_the_wounded_strength_die_to_the_wounded_maximum(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3 rolls 1d8
    await wound(bot, mira, WoundKind.STRENGTH_MINUS_1, WoundKind.MAX_HP_MINUS_2)  # 1d6, max 8
    await set_points(bot, mira, hp=4)
    bot.dice = ScriptedDice([6])
    result = await slash.run("respite", regain="hp")
    assert "[1d STR] 1d6: **6** = **6**" in result.embeds[0]["description"]
    assert bot.dice.requests == [6]
    assert (await fresh(bot, mira)).state.hp == 8  # 4 + 6, capped at (2×2+6) − 2
    full = await slash.run("respite", regain="hp")
    assert full.ephemeral and "already at full hit points" in (full.content or "")
    await dpytest.empty_queue()


async def test_check_rolls_wounded_attributes(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await wound(bot, mira, WoundKind.STRENGTH_MINUS_1)
    bot.dice = ScriptedDice([4, 5, 6])  # STR 2 + 1 training: 3 dice, not 4
    result = await slash.run("check", user=slash.members[0], skill="athletics")
    [embed] = result.embeds
    assert embed["title"] == "Mira rolls Athletics (STR 2 + 1 training)"
    assert "3 base = **3d6**" in embed["description"]
    assert bot.dice.remaining == 0
    bot.dice = ScriptedDice([4, 4])
    strength = await slash.run("check", user=slash.members[0], skill="strength")
    assert strength.embeds[0]["title"] == "Mira rolls Strength 2"
    await dpytest.empty_queue()


async def test_check_adds_injury_banes_to_strength_rolls_only(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await wound(bot, mira, InjuryKind.BROKEN_TORSO)  # 5 banes on STR and AGI rolls
    await set_points(bot, mira, conditions=json.dumps({"fatigued": 1}))
    bot.dice = ScriptedDice([5])
    result = await slash.run("check", user=slash.members[0], skill="athletics")
    assert "6 banes (1 fatigued, 5 injury) → −3d6 = **1d6**" in result.embeds[0]["description"]
    bot.dice = ScriptedDice([4, 4])
    mind = await slash.run("check", user=slash.members[0], skill="mind")
    assert "1 bane (1 fatigued) → −1d6 = **1d6**" in mind.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_clash_opponent_rolls_its_wounded_pool(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])  # STR 3
    bram = await make_character(bot, slash.members[1], "Bram", active=False)
    await wound(bot, bram, WoundKind.STRENGTH_AND_AGILITY_MINUS_1)
    bot.dice = ScriptedDice([6, 6, 6, 1, 1])
    result = await slash.run("clash", user=slash.members[0], skill="strength", opponent="Bram")
    text = json.dumps(result.embeds[0], ensure_ascii=False)
    assert "Strength 3" in text and "Strength 2" in text
    assert bot.dice.remaining == 0  # 3 dice for Mira, 2 for Bram
    await dpytest.empty_queue()


async def test_sheet_shows_effective_values_with_the_base(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await wound(bot, mira, WoundKind.STRENGTH_MINUS_1, WoundKind.MAX_HP_MINUS_4)
    await set_points(bot, mira, hp=6, recovery=2)
    sheet = fields(await slash.run("character show"))
    assert sheet["Attributes"] == "STR 2 (1d6, base 3) · AGI 2 (1d6) · MIND 2 (1d6) · PRES 1 (1d4)"
    assert sheet["Hit points"].startswith("6/6 (base 12)")
    assert sheet["Threshold"] == "\u22125 (base \u22126)"
    assert sheet["Recovery"] == "2/2 (base 3)"
    assert sheet["Determination"] == "3/3"
    assert sheet["Carrying capacity"] == "10 slots (base 11)"
    assert sheet["Speed"] == "30"
    assert "Athletics (STR): training 1 → value 3 (base 4)" in sheet["Skills"]
    await dpytest.empty_queue()


async def test_sheet_shows_wounded_speed(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await wound(bot, mira, WoundKind.SPEED_HALVED)
    assert fields(await slash.run("character show"))["Speed"] == "15 (base 30)"
    await dpytest.empty_queue()


async def test_edit_clamps_to_the_wounded_maxima(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3: 12 HP
    await wound(bot, mira, WoundKind.MAX_HP_MINUS_4)  # max 8
    await set_points(bot, mira, hp=8)
    result = await slash.run("character edit", strength=2)
    lines = (result.content or "").splitlines()
    assert "• HP max: 8 → 6" in lines and "• HP: 8 → 6" in lines
    after = await fresh(bot, mira)
    assert (after.state.hp, after.state.recovery) == (6, 2)
    raised = await slash.run("character edit", strength=4)
    assert "• HP max: 6 → 10" in (raised.content or "")
    assert (await fresh(bot, mira)).state.hp == 6  # current values never rise on an edit
    await dpytest.empty_queue()


async def test_initiative_uses_wounded_pool_maximum_and_threshold(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], agility=3)
    await wound(bot, mira, WoundKind.STRENGTH_AND_AGILITY_MINUS_1, WoundKind.MAX_HP_MINUS_2)
    gm = {"user": slash.members[2], "manage_guild": True}
    await slash.run("init begin", **gm)
    await slash.run("init join", user=slash.members[0])
    [joined] = (await stored_encounter(bot, slash.channel.id)).state.participants
    assert (joined.max_hp, joined.threshold, joined.stats.agility) == (8, -5, 2)
    # A wound healed later shows on the next change: linked characters are refreshed.
    await wound(bot, mira)
    await slash.run("init add", name="Goblin", **gm)
    refreshed = (await stored_encounter(bot, slash.channel.id)).state.participants[0]
    assert (refreshed.max_hp, refreshed.threshold, refreshed.stats.agility) == (12, -6, 3)
    await dpytest.empty_queue()


async def test_initiative_rolls_with_injury_banes(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], agility=5)
    await wound(bot, mira, InjuryKind.BROKEN_TORSO)  # 5 banes on STR and AGI rolls
    gm = {"user": slash.members[2], "manage_guild": True}
    await slash.run("init begin", **gm)
    await slash.run("init join", user=slash.members[0])
    [joined] = (await stored_encounter(bot, slash.channel.id)).state.participants
    assert (joined.stats.injury_banes, joined.stats.social_injury_banes) == (5, 0)
    bot.dice = ScriptedDice([6, 6])  # AGI 5 − ⌈5 banes / 2⌉ = 2 dice
    await slash.run("init next", **gm)
    assert bot.dice.requests == [6, 6]
    [rolled] = (await stored_encounter(bot, slash.channel.id)).state.participants
    assert rolled.roll is not None and rolled.roll.banes == 5
    # Healed: the next change refreshes the participant without the banes.
    await wound(bot, mira)
    await slash.run("init add", name="Goblin", **gm)
    refreshed = (await stored_encounter(bot, slash.channel.id)).state.participants[0]
    assert refreshed.stats.injury_banes == 0
    await dpytest.empty_queue()


def test_a_fractured_skull_hinders_every_initiative_roll() -> None:
    sheet = CharacterSheet(name="Mira", strength=3, agility=2, mind=2, presence=1)
    values = effective_values(sheet, [Wound(InjuryKind.FRACTURED_SKULL, 5)], speed=30)
    stats = initiative_stats(values)
    assert (stats.injury_banes, stats.social_injury_banes) == (5, 5)
    assert initiative_stats(values.unwounded).injury_banes == 0


async def test_wounds_list_shows_the_wounded_maximum(bot: TableBot, slash: SlashHarness) -> None:
    bram = await make_character(
        bot, slash.members[1], "Bram", kind=CharacterKind.ALLY, active=False
    )
    await wound(bot, bram, WoundKind.STRENGTH_MINUS_1)
    # By its owner: an NPC's wounds are hidden from other players (cogs/hocs/visibility.py).
    listed = await slash.run("character wounds list", name="Bram", user=slash.members[1])
    text = json.dumps(listed.embeds[0], ensure_ascii=False)
    assert "maximum HP 10" in text
    await dpytest.empty_queue()
