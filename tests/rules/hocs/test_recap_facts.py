"""HOCS recap facts from real roll-log rows: each command run with scripted dice through
the slash harness, its row read back from the roll_log table, every field checked.

Percentiles come from the brute-force oracles of ``tests.rules.hocs.test_luck``
(itertools enumeration, never the bot's odds code)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.generic.recap import Figures, Luck, RollFacts, recap
from bot.rules.hocs.recap_facts import facts_of
from bot.rules.hocs.recap_facts_points import row_spends
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_combat_helpers import arm, gm, npc, pc, player, script
from tests.cogs.test_hero_damage import mira as hero_mira
from tests.cogs.test_roll_buttons import set_points
from tests.rules.hocs.test_luck import (
    ORDER,
    _chain,
    clash_oracle,
    damage_oracle,
    pct,
    pool_oracle,
    variance,
)
from tests.support.slash import SlashHarness

HALF = Fraction(1, 2)


async def rows(bot: TableBot) -> list[LoggedRoll]:
    """The server's roll-log rows, oldest first, as the table stores them."""
    async with bot.db.read() as conn:
        return list(reversed(await RollLogRepository(conn).recent(bot.guilds[0].id, limit=50)))


async def players(bot: TableBot) -> dict[int, str]:
    """Player character id → name, as the recap's caller builds it."""
    async with bot.db.read() as conn:
        async with conn.execute("SELECT id, name FROM characters WHERE kind = 'pc'") as cursor:
            return {int(i): str(n) for i, n in await cursor.fetchall()}


def where(row: LoggedRoll) -> dict[str, Any]:
    """The fields every facts value copies from its row."""
    return {
        "roll_id": row.id, "kind": row.kind, "secret": row.secret,
        "message_id": row.message_id, "channel_id": row.channel_id,
    }  # fmt: skip


def luck(owner: str | None, dist: dict, value: object, part: str, rank=lambda v: v) -> Luck:
    return Luck(
        owner=owner, percentile=pct(dist, value, rank), variance=variance(dist, rank), part=part
    )


async def duel(slash: SlashHarness) -> None:
    """Bram (player 1's PC, 12 HP) and Gob (the GM's NPC, armor 1), armed."""
    await pc(slash, "Bram", strength=3, agility=2, mind=2, presence=1)
    await arm(slash, player(slash), "Bram", "Greatsword", "1d12", damage_type="slash")
    await npc(slash, "Gob", strength=3, agility=2, mind=1, presence=1, armor=1)
    await arm(slash, gm(slash), "Gob", "Claws", "1d6", damage_type="pierce")


# --- /pool and /check ----------------------------------------------------------------------


async def test_a_failed_pool_with_a_determination_die_of_1(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Mira")
    # 3 base dice 4 2 2 and the determination die 1: 1 success against 3, failed.
    script(bot, 4, 2, 2, 1)
    await slash.run("pool", dice=3, difficulty="3", determination=True, **player(slash))
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    # Independent: 3 coins and the exploding boon (nothing with chance ½, else ``_chain``).
    boon = {0: HALF, **{j: _chain(j) for j in range(1, 60)}}
    coins = {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    total: dict[int, Fraction] = {}
    for base, pb in coins.items():
        for j, pj in boon.items():
            total[base + j] = total.get(base + j, Fraction(0)) + pb * pj
    # Ruling luck-successes: 13 successes or more tie.
    capped: dict[int, Fraction] = {}
    for successes, p in total.items():
        capped[min(successes, 13)] = capped.get(min(successes, 13), Fraction(0)) + p
    [scored] = facts.luck
    # P(0) + ½ P(1) = 1/16 + ½ (3/8 · 1/2 + 1/8 · 5/12): no sum cut short there.
    assert scored.percentile == pct(total, 1) == Fraction(35, 192)
    assert abs(scored.variance - variance(capped)) < Fraction(1, 10**40)
    assert facts == RollFacts(
        **where(row), roller="Mira", succeeded=False, critical_failure=True, sixes=0,
        luck=(Luck(owner="Mira", percentile=Fraction(35, 192), variance=scored.variance,
                   part="roll"),),
        points_spent=(("determination", 1),), label="Mira's pool 3d6",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_pool_without_difficulty_has_no_success(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 6, 6, 1)  # nobody's character: the GM has none active
    await slash.run("pool", dice=3, **gm(slash))
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    name = slash.members[0].display_name
    assert facts == RollFacts(
        **where(row), roller=None, succeeded=None, sixes=2,
        luck=(luck(None, pool_oracle(3), 2, "roll"),), label=f"{name}'s pool 3d6",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_secret_check(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[1], training={"athletics": 1})
    script(bot, 1, 4, 5, 6)  # STR 3 + 1 training: 3 successes against 2
    await slash.run("check", skill="athletics", difficulty="2", secret=True, **player(slash))
    [row] = await rows(bot)
    assert row.secret
    facts = facts_of(row, await players(bot))
    assert facts == RollFacts(
        **where(row), roller="Mira", succeeded=True, sixes=1,
        luck=(luck("Mira", pool_oracle(4), 3, "roll"),), label="Mira's athletics check",
    )  # fmt: skip
    await dpytest.empty_queue()


# --- /clash ------------------------------------------------------------------------------


async def test_a_clash_between_two_player_characters(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Mira", 1)
    await pc(slash, "Bram", 2)
    # Mira 6 4 1 (2 successes) vs Bram 5 1 1 (1): Mira wins by 1.
    script(bot, 6, 4, 1, 5, 1, 1)
    await slash.run(
        "clash", skill="athletics", opponent="Bram", opponent_skill="athletics", **player(slash)
    )
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    oracle = clash_oracle(3, 3, attack=False)
    mine = luck("Mira", oracle, "a_wins", "clash", ORDER)
    theirs = Luck(owner="Bram", percentile=1 - mine.percentile, variance=mine.variance,
                  part="clash")  # fmt: skip
    assert facts == RollFacts(
        **where(row), roller="Mira", succeeded=True, sixes=1, luck=(mine, theirs),
        label="Mira's clash with Bram",
    )  # fmt: skip
    assert row_spends(row.kind, row.result) == {}
    await dpytest.empty_queue()


# --- /attack and /damage -----------------------------------------------------------------


async def test_an_npc_attacks_a_player_character(bot: TableBot, slash: SlashHarness) -> None:
    await duel(slash)
    # Gob 4 1 vs Bram 2 2: a hit by 1; d6 3, lethality d10 2, STR d8 1: 3 damage.
    script(bot, 4, 1, 2, 2, 3, 2, 1)
    await slash.run("attack", target="Bram", character="Gob", **gm(slash))
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    attack = luck(None, clash_oracle(2, 2, attack=True), "a_wins", "attack", ORDER)
    defense = Luck(owner="Bram", percentile=1 - attack.percentile, variance=attack.variance,
                   part="attack")  # fmt: skip
    assert facts == RollFacts(
        **where(row), roller=None, target="Bram", succeeded=True, sixes=0,
        damage_dealt=3, damage_taken=3,
        luck=(attack, defense, luck(None, damage_oracle((6, 10, 8)), 3, "damage")),
        label="Gob's attack on Bram",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_missed_attack_with_a_determination_die_of_1(
    bot: TableBot, slash: SlashHarness
) -> None:
    await duel(slash)
    # Bram 1 2 and the determination die 1 vs Gob 5 6: a miss, Gob by 2.
    script(bot, 1, 2, 1, 5, 6)
    await slash.run("attack", target="Gob", determination=True, **player(slash))
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    [mine, theirs] = facts.luck
    assert (mine.owner, mine.part, theirs.owner) == ("Bram", "attack", None)
    assert facts == RollFacts(
        **where(row), roller="Bram", succeeded=False, critical_failure=True, sixes=0,
        luck=(mine, theirs), points_spent=(("determination", 1),),
        label="Bram's attack on Gob",
    )  # fmt: skip
    assert mine.percentile < Fraction(1, 10)  # the worst outcome, under the spec rolled
    await dpytest.empty_queue()


async def test_damage_leaves_a_player_character_down_dying_and_wounded(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[1])  # STR 3: 12 HP, threshold −6
    await set_points(bot, mira, hp=1)
    await slash.run("hp", target="Mira", change="temp 9", **gm(slash))
    # d12 11: 9 absorbed, HP 1 → −1; Physique 1 1 1 vs 11 → dying; wound check 8 →
    # wounds table 2 (maximum HP −2), its recovery 2d4 1, 1.
    dice = script(bot, 11, 1, 1, 1, 8, 2, 1, 1)
    await slash.run("damage", dice="1d12", target="Mira", **gm(slash))
    assert dice.remaining == 0
    [row] = await rows(bot)
    facts = facts_of(row, await players(bot))
    assert facts == RollFacts(
        **where(row), roller=None, target="Mira", damage_dealt=11, damage_taken=11,
        wounds=1, downed=True, dying=True,
        luck=(luck(None, damage_oracle((12,)), 11, "damage"),
              luck("Mira", pool_oracle(3), 0, "threshold")),
        label="damage on Mira",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_hero_point_off_a_hit(bot: TableBot, slash: SlashHarness) -> None:
    await hero_mira(bot, slash, armor=2)  # player 1's PC, STR 3, 1 hero point
    script(bot, 9)  # 9 − 2 toughness: 7 received
    await slash.run("damage", dice="1d10", target="Mira", **gm(slash))
    script(bot, 2, 3)  # the hero point's 2d6: 5 off the 9, 2 received now
    await slash.run("hero spend", option="damage", **player(slash))
    damage, hero = await rows(bot)
    known = await players(bot)
    assert facts_of(damage, known) == RollFacts(
        **where(damage), roller=None, target="Mira", damage_dealt=2, damage_taken=2,
        luck=(Luck(owner=None, percentile=Fraction(17, 20), variance=variance(
            damage_oracle((10,))), part="damage"),),
        label="damage on Mira",
    )  # fmt: skip
    two_d6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert facts_of(hero, known) == RollFacts(
        **where(hero), roller="Mira", luck=(luck("Mira", two_d6, 5, "hero_damage"),),
        points_spent=(("hero", 1),), label="Mira's hero point off a hit",
    )  # fmt: skip
    assert pct(damage_oracle((10,)), 9) == Fraction(17, 20)
    await dpytest.empty_queue()


# --- /roll, unknown and damaged rows -------------------------------------------------------


async def test_roll_rows(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 1, 4, 6, 3)
    await slash.run("roll", expression="4d6kh3 stats", **player(slash))
    script(bot, 6, 2)
    await slash.run("roll", expression="1d6e6", **player(slash))
    scored, exploding = await rows(bot)
    counts: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    t = a + b + c + d - min(a, b, c, d)
                    counts[t] = counts.get(t, 0) + 1
    oracle = {t: Fraction(n, 6**4) for t, n in counts.items()}
    assert facts_of(scored, {}) == RollFacts(
        **where(scored), roller=None, luck=(luck(None, oracle, 13, "roll"),), label="roll 4d6kh3"
    )
    # Explosions are not scored (bot.rules.generic.luck_roll): counted, unscored.
    assert facts_of(exploding, {}) == RollFacts(
        **where(exploding), roller=None, unscored=True, label="roll 1d6e6"
    )
    await dpytest.empty_queue()


class _Row:
    """A roll-log row built by hand (the LoggedRow protocol), for what no command writes."""

    def __init__(self, kind: str, result: dict[str, Any], character_id: int | None = 7) -> None:
        self.id, self.kind, self.result, self.secret = 1, kind, result, False
        self.user_id, self.character_id, self.message_id, self.channel_id = 5, character_id, 9, 3


def test_an_unknown_kind_or_a_damaged_row_is_counted_unscored() -> None:
    named = {7: "Mira"}
    bare = {"roll_id": 1, "roller": "Mira", "message_id": 9, "channel_id": 3, "unscored": True}
    assert facts_of(_Row("initiative", {}), named) == RollFacts(
        kind="initiative", label="Mira's initiative", **bare
    )
    assert facts_of(_Row("check", {"roll": {"dice": "?"}}), named) == RollFacts(
        kind="check", label="Mira's check", **bare
    )
    assert facts_of(_Row("attack", {}, character_id=8), named).roller is None


# --- a night through recap() -------------------------------------------------------------


async def test_a_night_adds_up_per_character(bot: TableBot, slash: SlashHarness) -> None:
    await duel(slash)  # Bram: player 1
    await pc(slash, "Mira", 2, strength=3)
    # 1. Bram's pool 4 2 2 vs 2: failed, no determination (no critical failure).
    script(bot, 4, 2, 2)
    await slash.run("pool", dice=3, difficulty="2", **player(slash))
    # 2. Gob claws Bram for 3 (as in the NPC test).
    script(bot, 4, 1, 2, 2, 3, 2, 1)
    await slash.run("attack", target="Bram", character="Gob", **gm(slash))
    # 3. Mira's secret check 6 6 4 vs 2: a success, two 6s.
    script(bot, 6, 6, 4)
    await slash.run("check", skill="athletics", difficulty="2", secret=True, **player(slash, 2))
    # 4. Mira 6 4 1 vs Bram 5 1 1: Mira's clash.
    script(bot, 6, 4, 1, 5, 1, 1)
    await slash.run(
        "clash", skill="athletics", opponent="Bram", opponent_skill="athletics",
        **player(slash, 2),
    )  # fmt: skip
    # 5. A /roll: nobody's.
    script(bot, 5)
    await slash.run("roll", expression="1d6", **player(slash))
    logged = await rows(bot)
    assert [r.kind for r in logged] == ["pool", "attack", "check", "clash", "roll"]
    known = await players(bot)
    facts = [facts_of(r, known) for r in logged]
    pool, attack, check, clash, roll = facts
    night = recap(facts, players=frozenset(known.values()))
    clash_a = clash.luck[0]
    assert night.other_rolls == 2 and night.rolls == 5  # Gob's attack, the /roll
    figures = dict(night.characters)
    assert list(figures) == ["Bram", "Mira"]
    assert figures["Bram"] == Figures(
        rolls=1, failures=1, damage_taken=3,
        # His pool, his defense against Gob, his side of Mira's clash.
        scored=tuple((x.percentile, x.variance) for x in (
            pool.luck[0], attack.luck[1], clash.luck[1])),
    )  # fmt: skip
    assert figures["Mira"] == Figures(
        rolls=2, successes=2, sixes=3, unscored=1,  # the secret check: counted, not described
        scored=((clash_a.percentile, clash_a.variance),),
    )  # fmt: skip
    assert pool.luck[0].percentile == pct(pool_oracle(3), 1)
    assert night.luckiest is not None and night.luckiest.luck == clash_a
    assert night.unluckiest is not None and night.unluckiest.luck == pool.luck[0]
    # The GM's private recap describes the secret check too.
    private = dict(recap(facts, public=False, players=frozenset(known.values())).characters)
    assert private["Mira"].unscored == 0 and private["Mira"].scored == (
        (check.luck[0].percentile, check.luck[0].variance),
        (clash_a.percentile, clash_a.variance),
    )
    assert roll.roller is None and roll.luck[0].owner is None
    await dpytest.empty_queue()
