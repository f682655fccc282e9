"""Luck from real roll-log rows: each command run with scripted dice, its row read back
from the roll_log table and scored against brute-force enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.luck_roll import roll_percentile
from bot.rules.hocs.luck import OPPONENT, ROLLER, SNAPSHOT_KEY, parts, percentile
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_combat_helpers import arm, gm, npc, pc, player, script
from tests.cogs.test_hero_damage import mira
from tests.cogs.test_roll_buttons import set_points
from tests.rules.hocs.test_luck import (
    ORDER,
    clash_oracle,
    damage_oracle,
    pct,
    pool_oracle,
    variance,
)
from tests.support.slash import SlashHarness

PLAIN = [0, 0, 0, 0, 0, 0]  # a spec's boons, banes, determination, focus, rerolls, guarantees


async def rows(bot: TableBot) -> list[LoggedRoll]:
    """The server's roll-log rows, oldest first, as the table stores them."""
    async with bot.db.read() as conn:
        return list(reversed(await RollLogRepository(conn).recent(bot.guilds[0].id, limit=50)))


async def test_a_pool_row(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([3, 4, 6])
    await slash.run("pool", dice=3, focus=1)
    [row] = await rows(bot)
    assert row.result[SNAPSHOT_KEY] == {"roll": {"spec": [3, 0, 0, 0, 1, 0, 0], "successes": 3}}
    scored = percentile(row.kind, row.result)
    oracle = pool_oracle(3, focus=1)
    assert scored is not None and scored.value == 3
    assert (scored.percentile, scored.variance) == (pct(oracle, 3), variance(oracle))
    await dpytest.empty_queue()


async def test_a_check_row_and_a_hero_reroll_after_it(bot: TableBot, slash: SlashHarness) -> None:
    character = await make_character(bot, slash.members[0], training={"athletics": 1})
    await set_points(bot, character, hero_points=1)
    bot.dice = ScriptedDice([1, 4, 2, 6])  # STR 3 + 1 training: 2 successes
    await slash.run("check", skill="athletics", difficulty="3")
    [row] = await rows(bot)
    oracle = pool_oracle(4)
    assert percentile(row.kind, row.result).percentile == pct(oracle, 2)  # type: ignore[union-attr]
    bot.dice = ScriptedDice([6, 5])  # the 1 and the 2 again: 6 4 5 6, 4 successes now
    await slash.run("hero spend", option="reroll", dice="1, 3")
    [row] = await rows(bot)
    assert row.result["revision"] == 1 and row.total == 4
    # Ruling luck-first-throw: still the first throw's 2 successes.
    scored = percentile(row.kind, row.result)
    assert scored is not None and scored.value == 2 and scored.percentile == pct(oracle, 2)
    await dpytest.empty_queue()


async def test_a_clash_row_scores_both_sides(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], "Mira")
    # Mira's athletics, STR 3: 6 4 1 (2 successes); the pool of 2: 5 1 (1): Mira by 1.
    bot.dice = ScriptedDice([6, 4, 1, 5, 1])
    await slash.run("clash", user=slash.members[0], skill="athletics", opponent="2")
    [row] = await rows(bot)
    assert row.result[SNAPSHOT_KEY]["clash"] == {
        "a": [3, *PLAIN], "b": [2, *PLAIN], "attack": False, "outcome": "a_wins"
    }  # fmt: skip
    mine, theirs = parts(row.kind, row.result)
    oracle = clash_oracle(3, 2, attack=False)
    assert (mine.whose, theirs.whose) == (ROLLER, OPPONENT)
    assert mine.scored.percentile == pct(oracle, "a_wins", ORDER)
    assert theirs.scored.percentile == 1 - pct(oracle, "a_wins", ORDER)
    assert mine.scored.variance == variance(oracle, ORDER)
    await dpytest.empty_queue()


async def test_an_attack_row_scores_the_clash_and_the_damage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Bram", strength=3, agility=2)
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    await npc(slash, "Gob", strength=2, agility=2)  # 10 HP
    # Bram 4 2 vs Gob 1 2: a hit by 1. Damage d12 7, lethality d10 3, STR d8 2: 7.
    script(bot, 4, 2, 1, 2, 7, 3, 2)
    await slash.run("attack", target="Gob", **player(slash))
    [row] = [r for r in await rows(bot) if r.kind == "attack"]
    assert row.total == 7
    assert row.result["attack"]["clash"]["a"]["base"] == 2
    assert row.result["attack"]["clash"]["b"]["base"] == 2
    found = {(p.what, p.whose): p.scored for p in parts(row.kind, row.result)}
    assert set(found) == {("attack", ROLLER), ("attack", OPPONENT), ("damage", ROLLER)}
    clash = clash_oracle(2, 2, attack=True)
    assert found["attack", ROLLER].percentile == pct(clash, "a_wins", ORDER)
    assert found["attack", OPPONENT].percentile == 1 - pct(clash, "a_wins", ORDER)
    damage = damage_oracle((12, 10, 8))
    assert found["damage", ROLLER].value == 7
    assert found["damage", ROLLER].percentile == pct(damage, 7)
    assert percentile(row.kind, row.result) == found["attack", ROLLER]
    await dpytest.empty_queue()


async def test_a_damage_row_with_the_target_s_threshold_test(
    bot: TableBot, slash: SlashHarness
) -> None:
    await npc(slash, "Gob", strength=2, agility=2)  # 10 HP
    script(bot, 8)
    await slash.run("damage", dice="1d8", target="Gob", **gm(slash))
    # 5 more takes Gob below 0: a threshold test with its Physique (spare faces for it).
    script(bot, 5, 4, 1, 1, 1, 1, 1, 1)
    await slash.run("damage", dice="1d8", target="Gob", **gm(slash))
    first, second = await rows(bot)
    assert [p.what for p in parts(first.kind, first.result)] == ["damage"]
    test = second.result["hit"]["threshold_test"]
    spec, successes = test["roll"]["spec"], test["roll"]["successes"]
    assert spec == {"base": spec["base"], "boons": 0, "banes": 0, "determination": False,
                    "focus": 0, "rerolls": 0, "guaranteed": 0}  # fmt: skip
    found = {(p.what, p.whose): p.scored for p in parts(second.kind, second.result)}
    d8 = {f: Fraction(1, 8) for f in range(1, 9)}
    assert found["damage", ROLLER].percentile == pct(d8, 5) == Fraction(9, 16)
    oracle = pool_oracle(spec["base"])
    assert found["threshold", OPPONENT].value == successes
    assert found["threshold", OPPONENT].percentile == pct(oracle, successes)
    await dpytest.empty_queue()


async def test_a_hero_damage_row(bot: TableBot, slash: SlashHarness) -> None:
    await mira(bot, slash, armor=2)
    script(bot, 9)
    await slash.run("damage", dice="1d10", target="Mira", **gm(slash))
    script(bot, 2, 3)
    await slash.run("hero spend", option="damage", **player(slash))
    damage, hero = await rows(bot)
    two_d6 = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    oracle = {t: Fraction(c, 36) for t, c in two_d6.items()}
    scored = percentile(hero.kind, hero.result)
    assert scored is not None and scored.percentile == pct(oracle, 5) == Fraction(2, 9)
    # The hit's 2d6 reduction changes the damage received, not the damage roll: a d10
    # showing 9 is still scored (1–8 below it; 10 explodes above it).
    assert damage.result["changes"] == [{"hero_reduction": [2, 3]}]
    rolled = percentile(damage.kind, damage.result)
    assert rolled is not None and rolled.percentile == Fraction(17, 20)
    await dpytest.empty_queue()


async def test_a_roll_row(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([1, 4, 6, 3])
    await slash.run("roll", expression="4d6kh3 stats")
    [row] = await rows(bot)
    assert row.kind == "roll" and row.total == 13
    totals = Counter(sum(sorted(f)[1:]) for f in product(range(1, 7), repeat=4))
    oracle = {t: Fraction(c, 6**4) for t, c in totals.items()}
    scored = roll_percentile(row.result)
    assert scored is not None and scored.percentile == pct(oracle, 13)
    await dpytest.empty_queue()


async def test_an_attack_changed_by_a_point_keeps_its_first_throw(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Bram", strength=3, agility=2)
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    await npc(slash, "Gob", strength=2, agility=2)
    script(bot, 1, 2, 5, 6)  # Bram 1 2 vs Gob 5 6: a miss, Gob defends by 2
    first = await slash.run("attack", target="Gob", **player(slash))
    # Bram's determination die after the roll: 6 then 4 (2 successes), 2 vs 2 — the
    # attacker wins the tie: now a hit (d12 7, lethality 3, STR d8 2: 7 damage).
    script(bot, 6, 4, 7, 3, 2)
    await slash.click(first, label="Bram: Spend determination", **player(slash))
    [row] = [r for r in await rows(bot) if r.kind == "attack"]
    assert row.result["revision"] == 1 and row.result["attack"]["hit"] is True
    found = {(p.what, p.whose): p.scored for p in parts(row.kind, row.result)}
    clash = clash_oracle(2, 2, attack=True)
    # luck-first-throw: the attack is scored as the miss it first was...
    assert found["attack", ROLLER].value == "b_advantage"
    assert found["attack", ROLLER].percentile == pct(clash, "b_advantage", ORDER)
    # ...and the damage the spend brought about, rolled fresh by the bot, as rolled.
    assert found["damage", ROLLER].percentile == pct(damage_oracle((12, 10, 8)), 7)
    await dpytest.empty_queue()
