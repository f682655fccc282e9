"""The points a HOCS row shows were spent, and by whom (``bot.rules.hocs.recap_facts_points``),
from real rows: commands run with scripted dice, then points spent by the commands and
buttons the table uses."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.generic.recap import RollFacts
from bot.rules.hocs.recap_facts import facts_of
from bot.rules.hocs.recap_facts_points import OPPONENT, ROLLER, TARGET, row_spends
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_check import make_character
from tests.cogs.test_combat_helpers import gm, pc, player, script
from tests.cogs.test_roll_buttons import grant, set_points
from tests.cogs.test_threshold_points import character
from tests.rules.hocs.test_luck import ORDER, clash_oracle, pool_oracle
from tests.rules.hocs.test_recap_facts import luck, players, rows, where
from tests.support.slash import SlashHarness


async def test_two_hero_points_on_different_dice_of_a_check(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[1], training={"athletics": 1})
    await set_points(bot, mira, hero_points=2)
    script(bot, 1, 1, 2, 6)  # 1 success against 3
    await slash.run("check", skill="athletics", difficulty="3", **player(slash))
    script(bot, 4)  # the first die: 4 1 2 6
    await slash.run("hero spend", option="reroll", dice="1", **player(slash))
    script(bot, 5)  # the second: 4 5 2 6, 3 successes
    await slash.run("hero spend", option="reroll", dice="2", **player(slash))
    [row] = await rows(bot)
    assert row.result["revision"] == 2 and row.result["roll"]["successes"] == 3
    facts = facts_of(row, await players(bot))
    # Each die shows one hero reroll; the revision says two points were spent.
    assert facts == RollFacts(
        **where(row), roller="Mira", succeeded=True, sixes=1,
        luck=(luck("Mira", pool_oracle(4), 1, "roll"),),  # luck-first-throw
        points_spent=(("hero", 2),), label="Mira's athletics check",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_clash_lost_to_a_pool_and_the_opponents_points(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Mira", 1)
    await pc(slash, "Bram", 2)
    # Mira 1 2 3 (0) vs Bram 4 5 1 (2): Bram with advantage.
    script(bot, 1, 2, 3, 4, 5, 1)
    first = await slash.run(
        "clash", skill="athletics", opponent="Bram", opponent_skill="athletics", **player(slash)
    )
    # Bram's determination die after the roll, 2: still 2 successes (its point spent).
    script(bot, 2)
    await slash.click(first, label="Bram: Spend determination", **player(slash, 2))
    [row] = await rows(bot)
    assert row.result["revision"] == 1
    facts = facts_of(row, await players(bot))
    oracle = clash_oracle(3, 3, attack=False)
    mine = luck("Mira", oracle, "b_advantage", "clash", ORDER)
    assert facts.succeeded is False and facts.critical_failure is False  # no determination die
    assert facts.luck[0] == mine and facts.luck[1].owner == "Bram"
    assert facts.points_spent == ()  # Bram's point is side b's, not the roller's
    assert row_spends(row.kind, row.result) == {OPPONENT: (("determination", 1),)}
    await dpytest.empty_queue()


async def test_a_fortune_point_and_a_hero_point_on_a_check(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[1])
    await grant(bot, mira, "cooking")
    await set_points(bot, mira, hero_points=1)
    script(bot, 3, 1, 5)  # Strength 3: 1 success against 3
    await slash.run("check", skill="strength", difficulty="3", **player(slash))
    script(bot, 4)  # the fortune point takes the 1: 3 4 5
    await slash.run("fortune spend", source="cooking", **player(slash))
    script(bot, 6)  # the hero point rerolls the failed 3: 6 4 5
    await slash.run("hero spend", option="reroll", **player(slash))
    [row] = await rows(bot)
    assert row.result["revision"] == 2 and row.result["roll"]["successes"] == 3
    assert facts_of(row, await players(bot)) == RollFacts(
        **where(row), roller="Mira", succeeded=True, sixes=1,
        luck=(luck("Mira", pool_oracle(3), 1, "roll"),),
        points_spent=(("hero", 1), ("fortune", 1)), label="Mira's strength check",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_hero_reroll_of_the_damage_dice_is_the_attackers(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)  # Bram (player 1's) and Gob (10 HP, no armor)
    await set_points(bot, await character(bot, "Bram"), hero_points=1)
    # A hit by 1; d12 4, d10 2, d8 1: 4. Rerolled: d12 8, d10 3, d8 2: 8 received.
    script(bot, 5, 2, 3, 1, 4, 2, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    script(bot, 8, 3, 2)
    await slash.click(result, label="Hero reroll damage", **player(slash))
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    assert row.result["changes"] == [{"hero_reroll": [0, 1, 2]}]
    assert (facts.roller, facts.target, facts.succeeded) == ("Bram", None, True)
    assert (facts.damage_dealt, facts.damage_taken) == (8, 8)
    assert facts.points_spent == (("hero", 1),)
    # luck-first-throw: the damage is scored as first thrown (4), from the row's snapshot.
    assert [(x.owner, x.part) for x in facts.luck] == [
        ("Bram", "attack"), (None, "attack"), ("Bram", "damage"),
    ]  # fmt: skip
    await dpytest.empty_queue()


async def test_a_threshold_tests_determination_is_the_targets(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await pc(slash, "Mira", 2)
    await slash.run("hp", target="Mira", change="set 1", **gm(slash))
    # /damage 1d4 3 on Mira (1 HP): −2, a test vs 3 with Physique 5 4 4 and the pledged
    # determination die 1: 3 successes, staggered.
    script(bot, 3, 5, 4, 4, 1)
    await slash.run("damage", dice="1d4", target="Mira", threshold_determination=True, **gm(slash))
    [row] = await rows(bot)
    assert row.result["hit"]["threshold_test"]["roll"]["spec"]["determination"] is True
    facts = facts_of(row, await players(bot))
    assert facts.points_spent == ()  # nobody rolled the damage for a character
    assert row_spends(row.kind, row.result) == {TARGET: (("determination", 1),)}
    assert (facts.target, facts.damage_taken, facts.downed, facts.dying) == (
        "Mira",
        3,
        False,
        False,
    )
    assert ROLLER not in row_spends(row.kind, row.result)
    await dpytest.empty_queue()
