"""/odds through the slash harness: exact figures in the embed, the chart attached."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_check import make_character
from tests.support.slash import SlashHarness
from tests.support.slash_payloads import DiscordWouldRefuse


async def test_odds_pool_against_a_difficulty(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([])  # nothing may be rolled
    result = await slash.run("odds pool", dice=3, difficulty="2")
    assert not result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Odds: 3d6"
    # 3 fair dice: P(>=2) = 1/2, P(>=4) = 0, P(0) = 1/8.
    lines = embed["fields"][0]["value"].splitlines()
    assert lines[0] == "Success: **50.00%**"
    assert lines[1] == "Success with advantage: 0.00%"
    assert lines[3] == "Failure by 2 or more: 12.50%"
    assert embed["image"]["url"] == "attachment://odds.png"
    assert result.message.files == ["odds.png"]
    assert "0: 12.50%\n1: 37.50%\n2: 37.50%\n3: 12.50%" == embed["fields"][2]["value"]
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_odds_pool_without_difficulty_shows_the_distribution(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await slash.run("odds pool", dice=1, focus=1)
    [embed] = result.embeds
    # One die with a focus: 3, 4, 5, 6 succeed.
    assert embed["fields"][0]["value"].startswith("0.67 (exactly 2/3)")
    assert embed["fields"][1]["value"] == "0: 33.33%\n1: 66.67%"
    await dpytest.empty_queue()


async def test_odds_check_reads_the_sheet(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    result = await slash.run("odds check", skill="athletics", difficulty="1")
    assert not result.ephemeral, result
    [embed] = result.embeds
    assert embed["title"].startswith("Odds: ")
    assert result.message.files == ["odds.png"]
    await dpytest.empty_queue()


async def test_odds_check_unknown_skill_is_refused(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    result = await slash.run("odds check", skill="zzzz")
    assert result.ephemeral
    await dpytest.empty_queue()


async def test_odds_bounds_rerolls(bot: TableBot, slash: SlashHarness) -> None:
    # Discord itself refuses an option above its declared maximum.
    with pytest.raises(DiscordWouldRefuse, match="above the maximum 3"):
        await slash.run("odds pool", dice=3, rerolls=4)
    await dpytest.empty_queue()


async def test_odds_with_rerolls_and_determination(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("odds pool", dice=2, rerolls=1, determination=True, difficulty="1")
    [embed] = result.embeds
    # Exact figure from the rules module, printed to two decimals.
    from bot.render.text import percent
    from bot.rules.hocs.odds import test_odds
    from bot.rules.hocs.pool import PoolSpec

    expected = test_odds(PoolSpec(base=2, rerolls=1, determination=True), 1)
    assert embed["fields"][0]["value"].startswith(f"Success: **{percent(expected.success)}**")
    await dpytest.empty_queue()


async def test_pool_with_odds_shows_the_chance_above_the_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    bot.dice = ScriptedDice([4, 4, 1])
    result = await slash.run("pool", dice=3, difficulty="2", odds=True)
    [embed] = result.embeds
    first = embed["description"].splitlines()[0]
    assert (
        first
        == "-# Odds before the roll: success 50.00% · advantage 0.00% · expected 1.50 successes"
    )
    assert bot.dice.remaining == 0
    await dpytest.empty_queue()


async def test_pool_odds_past_the_reroll_bound_is_refused_before_rolling(
    bot: TableBot, slash: SlashHarness
) -> None:
    bot.dice = ScriptedDice([])
    result = await slash.run("pool", dice=3, rerolls=4, odds=True)
    assert result.ephemeral
    assert "at most 3 rerolls" in result.content
    await dpytest.empty_queue()


async def test_check_with_odds(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([6] * 10)
    result = await slash.run("check", skill="strength", difficulty="1", odds=True)
    [embed] = result.embeds
    assert embed["description"].startswith("-# Odds before the roll: success ")
    await dpytest.empty_queue()


async def test_odds_clash_attack_against_a_pool(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([])  # nothing may be rolled
    result = await slash.run("odds clash", skill="presence", opponent="1", attack=True)
    assert not result.ephemeral, result
    [embed] = result.embeds
    assert embed["title"] == "Odds: attack, Mira (Presence 1) vs Opponent (1d6)"
    shown = {f["name"]: f["value"] for f in embed["fields"]}
    # 1d6 vs 1d6, attacker wins ties: a round goes to A with 1/2, to B with 1/4 and
    # repeats with 1/4, so A wins 2/3 (less 4^-20 of stand-off, which rounds away).
    assert shown["Mira (Presence 1) wins"] == "**66.67%**\nby 2+ (advantage): 0.00%"
    assert shown["Opponent (1d6) wins"].startswith("**33.33%**")
    assert shown["Stand-off"] == "0.00%\nEach round repeats with 25.00%."
    assert result.message.files == ["odds.png"]
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_odds_clash_refuses_determination_for_a_plain_pool(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0])
    result = await slash.run(
        "odds clash", skill="presence", opponent="3", opponent_determination=True
    )
    assert result.ephemeral
    assert "plain pool has no determination" in result.content
    await dpytest.empty_queue()


async def test_clash_with_odds_shows_them_above_the_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([4, 1])  # Mira 4 vs opponent 1: Mira wins
    result = await slash.run("clash", skill="presence", opponent="1", attack=True, odds=True)
    [embed] = result.embeds
    first = embed["description"].splitlines()[0]
    assert first == "-# Odds before the roll: you win 66.67% · they win 33.33% · stand-off 0.00%"
    await dpytest.empty_queue()


async def test_odds_damage_against_a_target(bot: TableBot, slash: SlashHarness) -> None:
    from tests.cogs.test_combat_helpers import gm, npc, player

    await npc(slash, "Gob")  # STR 3: 12 HP, threshold -6, armor 0
    bot.dice = ScriptedDice([])  # nothing may be rolled
    result = await slash.run("odds damage", dice="1d12", target="Gob", **gm(slash))
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    assert embed["title"] == "Odds: damage 1d12 vs Gob"
    shown = {f["name"]: f["value"] for f in embed["fields"]}
    # Dead past -6: 19+ (a 10 then 9, 11, 12, or another 10): 1/12 * 4/12 = 1/36.
    # Inside the threshold: 12-18 (a 12, or a 10 then 2-8): 1/12 + 7/144 = 19/144.
    # Wound check, 10-18 and alive: an 11, a 12, or a 10 then 1-8: 32/144.
    assert shown["What it does"].splitlines() == [
        "Gob dies (beyond the threshold): **2.78%**",
        "Threshold test (inside the threshold): 13.19%",
        "Knocked out (non-lethal): 0.00%",
        "Stays above 0 HP: 84.03%",
        "Wound check (10+ after reductions, if alive): 22.22%",
    ]
    lines = shown["Damage dealt"].splitlines()
    assert lines[0] == "1: 8.33%" and "10" not in [line.split(":")[0] for line in lines]
    assert lines[-1] == "13 or more: 6.94%"  # a 10, then 3 or more: 1/12 * 10/12
    assert result.message.files == ["odds.png"]
    # A player may not read a hidden NPC's hit points: the damage only.
    hidden = await slash.run("odds damage", dice="1d12", target="Gob", **player(slash))
    [embed] = hidden.embeds
    assert "hit points are hidden" in embed["description"]
    assert "dies" not in str(embed["fields"])
    await dpytest.empty_queue()


async def test_odds_damage_without_a_target_and_bad_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await slash.run("odds damage", dice="2d6", toughness=1)
    [embed] = result.embeds
    shown = {f["name"]: f["value"] for f in embed["fields"]}
    # Keep the higher d6; two 6s deal 7. 10+ after 1 toughness needs 11+: never.
    assert shown["Damage dealt"].splitlines()[-1] == "7: 2.78%"
    assert shown["What it does"] == "Wound check (10+ after reductions): 0.00%"
    bad = await slash.run("odds damage", dice="3d7")
    assert bad.ephemeral and "d7 is not one of them" in bad.content
    await dpytest.empty_queue()


async def test_odds_party_sorted_for_the_gm(bot: TableBot, slash: SlashHarness) -> None:
    from bot.storage.hocs.characters import CharacterKind
    from tests.cogs.test_combat_helpers import gm, player

    await make_character(bot, slash.members[0], "Mira", agility=1)
    await make_character(bot, slash.members[1], "Bram", agility=3)
    await make_character(
        bot, slash.members[1], "Ogre", kind=CharacterKind.ANTAGONIST, active=False, agility=5
    )
    result = await slash.run("odds party", skill="agility", difficulty="2", **gm(slash))
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    # Bram 3d6 vs 2: P(>=2) = 1/2; Mira 1d6: 0. The antagonist is left out.
    assert embed["description"].splitlines() == [
        "**Bram** — Agility 3, 3d6: **50.00%** (advantage 0.00%)",
        "**Mira** — Agility 1, 1d6: **0.00%** (advantage 0.00%)",
    ]
    assert result.message.files == ["odds.png"]
    refused = await slash.run("odds party", skill="agility", difficulty="2", **player(slash))
    assert refused.ephemeral and "GM" in refused.content
    await dpytest.empty_queue()
