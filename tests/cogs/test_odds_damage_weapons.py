"""/odds damage with a weapon from a sheet: the distribution of the pool the attack rolls."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_combat_helpers import arm, gm, npc, pc, player
from tests.support.slash import SlashHarness, SlashResult


def fields(result: SlashResult) -> dict[str, Any]:
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    return {f["name"]: f["value"] for f in embed["fields"]}


async def test_the_rules_greatsword_pool(bot: TableBot, slash: SlashHarness) -> None:
    # The rules' example: a warrior with strength 3 and a greatsword rolls 1d8 (the
    # attribute die), 1d12 (the source) and 1d10 (lethality), and keeps one.
    await pc(slash, "Warrior", strength=3)
    await arm(slash, player(slash), "Warrior", "Greatsword", "1d12", damage_type="slash")
    bot.dice = ScriptedDice([])  # nothing may be rolled
    weapon = await slash.run("odds damage", dice="Greatsword", **player(slash))
    [embed] = weapon.embeds
    assert embed["title"] == "Odds: damage Warrior's Greatsword"
    assert embed["description"] == "Pool: d12 source, d10 lethality, d8 attribute"
    typed = await slash.run("odds damage", dice="1d12 1d10 1d8", **player(slash))
    assert fields(weapon) == fields(typed)
    lines = fields(weapon)["Damage dealt"].splitlines()
    # The least it deals is 1, when every die shows 1: 1/(12·10·8) = 1/960.
    assert lines[0] == "1: 0.10%"
    assert weapon.message.files == ["odds.png"]
    weapon.assert_no_pings()
    await dpytest.empty_queue()


async def test_a_nonlethal_weapon_rolls_no_lethality_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Warrior", strength=3)
    await arm(slash, player(slash), "Warrior", "Greatsword", "1d12")
    weapon = await slash.run("odds damage", dice="greatsword", nonlethal=True, **player(slash))
    assert weapon.embeds[0]["description"] == "Pool: d12 source, d8 attribute"
    typed = await slash.run("odds damage", dice="1d12 1d8", nonlethal=True, **player(slash))
    assert fields(weapon) == fields(typed)
    # 1d12 and 1d8, the higher kept (+1 if the other die is at its maximum): 1 needs
    # both 1s, 1/96; the most without an explosion is 12 + 1 for an 8 beside it.
    lines = fields(weapon)["Damage dealt"].splitlines()
    assert lines[0] == "1: 1.04%"
    await dpytest.empty_queue()


async def test_a_weapon_against_a_target_adds_its_weakness_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    await npc(slash, "Troll", armor=2)
    defenses = await slash.run("character defenses", name="Troll", weaknesses="slash", **gm(slash))
    assert not defenses.ephemeral, defenses.content
    await pc(slash, "Warrior", strength=1)
    await arm(slash, player(slash), "Warrior", "Axe", "1d8", damage_type="slash")
    weapon = await slash.run("odds damage", dice="Axe", target="Troll", **gm(slash),
                             character="Warrior")  # fmt: skip
    assert weapon.embeds[0]["title"] == "Odds: damage Warrior's Axe vs Troll"
    assert weapon.embeds[0]["description"] == (
        "Pool: d8 source, d10 lethality, d4 attribute, d10 weakness (slash)"
    )
    typed = await slash.run(
        "odds damage", dice="1d8 1d10 1d4", damage_type="slash", target="Troll", **gm(slash)
    )
    assert "+1d10 for Troll's weakness." in typed.embeds[0]["description"]
    assert fields(weapon) == fields(typed)
    assert fields(weapon)["Reduced by"] == "2 (at least 1 HP is lost)"
    await dpytest.empty_queue()


async def test_weapon_refusals(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Warrior", strength=3)
    await pc(slash, "Other", number=2)
    await arm(slash, player(slash), "Warrior", "Greatsword", "1d12")
    missing = await slash.run("odds damage", dice="Halberd", character="Warrior", **player(slash))
    assert missing.ephemeral
    assert missing.content == (
        "Warrior has no weapon called Halberd: give dice such as 1d8, or add the weapon"
        " with /character weapon add."
    )
    # Someone else's character: the same permission as rolling its weapons.
    theirs = await slash.run(
        "odds damage", dice="Greatsword", character="Warrior", **player(slash, 2)
    )
    assert theirs.ephemeral and "Warrior" in theirs.content
    # Not a weapon of the active character: read as dice, and refused as dice.
    words = await slash.run("odds damage", dice="Greatsword", **player(slash, 2))
    assert words.ephemeral
    await dpytest.empty_queue()


async def test_dice_autocomplete_offers_the_weapons(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Warrior", strength=3)
    await arm(slash, player(slash), "Warrior", "Greatsword", "1d12")
    await arm(slash, player(slash), "Warrior", "Dagger", "1d6")
    choices = await slash.autocomplete("odds damage", "dice", "gre", user=slash.members[1])
    assert choices == [{"name": "Greatsword", "value": "Greatsword"}]
    await dpytest.empty_queue()
