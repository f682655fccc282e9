"""Real roll-log rows of 2d10 commands, rolled with scripted dice and scored for luck:
each percentile checked against an exact figure worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.luck import row_luck
from tests.cogs.twod10 import rounds_support
from tests.cogs.twod10.combat_helpers import player, script, sheet, table, text
from tests.cogs.twod10.helpers import create, make_twod10
from tests.cogs.twod10.test_rounds_initiative import next_, setup_fight
from tests.cogs.twod10.test_soft_cover import _table as soft_cover_table
from tests.rules.twod10.test_luck import oracle
from tests.rules.twod10.test_luck_attack import damage_oracle, oracle_pct
from tests.support.slash import SlashHarness


async def last_row(bot: TableBot) -> tuple[str, dict[str, Any]]:
    async with bot.db.read() as conn:
        cur = await conn.execute("SELECT kind, result FROM roll_log ORDER BY id DESC LIMIT 1")
        row = await cur.fetchone()
    assert row is not None
    return row[0], json.loads(row[1])


def parts(kind: str, result: dict[str, Any]) -> list[tuple[str, str, Any, int, Fraction]]:
    luck = row_luck(kind, result)
    assert luck.unscored == (), luck.unscored
    return [(s.part, s.owner, s.owner_ref, s.value, s.percentile) for s in luck.scored]


async def test_a_task_with_advantage(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    aria = await sheet(bot, "Aria")
    script(bot, 3, 9, 8)  # 3d10, the 3 dropped: natural 17 + finesse 2 − 1 encumbrance
    await slash.run("task", attribute="finesse", advantage=1, **player(slash))
    kind, result = await last_row(bot)
    assert kind == "2d10-task"
    assert parts(kind, result) == [("task", "character", aria.id, 18, oracle("advantage", 17)[0])]
    assert [m["value"] for m in result["modifiers"]] == [2, 0, -1]
    await dpytest.empty_queue()


async def test_an_axe_attack_scores_the_to_hit_and_the_damage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    aria = await sheet(bot, "Aria")
    # 8 + 5 − 2 = 11: the light axe's d6 thrown twice against unarmored Gob (2 and 5, the
    # 5 kept) + 3 strength = 8. The higher of two d6 is k in (2k − 1) of 36: below 5 16.
    script(bot, 4, 4, 2, 5)
    await slash.run("attack", target="Gob", weapon="Light axe", **player(slash))
    kind, result = await last_row(bot)
    assert result["edge"] == "none" and result["hard_cover"] is None
    assert result["damage_roll"] == {
        "sides": [6], "twice": [True], "flat": 3, "block": False, "reduction": 0
    }  # fmt: skip
    assert parts(kind, result) == [
        ("to-hit", "attacker", aria.id, 11, oracle("none", 8)[0]),
        ("damage", "attacker", aria.id, 8, Fraction(16, 36) + Fraction(9, 72)),
    ]
    await dpytest.empty_queue()


async def test_an_attack_through_hard_cover(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    aria = await sheet(bot, "Aria")
    # The d4 shows 3, over the 2 quarters: through (stopped on 1-2). Then 6 + 5 + 5 − 2 =
    # 14: the sword's d8 up two categories to a d12, showing 4, + 2 weapon + 3 strength.
    script(bot, 3, 6, 5, 4)
    await slash.run("attack", target="Gob", weapon="One-handed sword",
                    situation="hard cover 2", **player(slash))  # fmt: skip
    kind, result = await last_row(bot)
    assert (result["hard_cover"], result["cover_face"], result["damage"]) == (2, 3, 9)
    assert parts(kind, result) == [
        ("to-hit", "attacker", aria.id, 14, oracle("none", 11)[0]),
        ("cover", "attacker", aria.id, 1, Fraction(2, 4) + Fraction(1, 4)),
        ("damage", "attacker", aria.id, 9, Fraction(3, 12) + Fraction(1, 24)),
    ]
    await dpytest.empty_queue()


async def test_a_defended_attack_is_the_defenders_roll(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    aria, gob = await sheet(bot, "Aria"), await sheet(bot, "Gob")
    # Gob rolls 4 + 3 + its defense 2 − Aria's bonus 5 = 4, flipped to 16: up three
    # categories, the d8 capped at a d12, showing 6, + 2 weapon + 3 strength = 11.
    script(bot, 4, 3, 6)
    said = text(await slash.run("attack", target="Gob", weapon="One-handed sword",
                                situation="target defends", **player(slash)))  # fmt: skip
    assert "11 damage" in said, said
    kind, result = await last_row(bot)
    assert result["faces"] == [] and result["defense_edge"] == "none"
    assert parts(kind, result) == [
        ("defense", "defender", gob.id, 4, oracle("none", 7)[0]),
        ("damage", "attacker", aria.id, 11, Fraction(5, 12) + Fraction(1, 24)),
    ]
    await dpytest.empty_queue()


async def test_the_side_initiative_and_an_interrupt(bot: TableBot, slash: SlashHarness) -> None:
    await setup_fight(bot, slash)
    script(bot)
    await next_(slash)  # round 1's declarations: nothing rolled
    mira = rounds_support.player(slash)  # Mira's owner
    await slash.run("init react", kind="declare", trigger="a goblin attacks", **mira)
    script(bot, 5)  # the GM's d6: 4-6 the NPCs first, bad luck for the players (1 in 4)
    await next_(slash)
    kind, result = await last_row(bot)
    assert kind == "2d10-initiative" and result["advantage"] is None
    assert parts(kind, result) == [("initiative", "players", None, 0, Fraction(1, 4))]
    script(bot, 3, 6)  # the NPCs' turn: Mira's d8 3 + finesse 2 against a goblin's 6 + 0
    await slash.run("init react", kind="interrupt", opponent="Goblin 1", **mira)
    kind, result = await last_row(bot)
    assert kind == "2d10-interrupt"
    # Mira goes first when her d8 + 2 beats the goblin's d8, on o <= r + 1: 2 + 3 + … + 8
    # + 8 = 43 of 64; she didn't (5 against 6), her luck half of the other 21.
    (scored,) = parts(kind, result)
    assert scored[:4] == ("interrupt", "reactor", result["reactor_id"], 0)
    assert scored[4] == Fraction(64 - 43, 64) / 2
    await dpytest.empty_queue()


async def test_a_backpack_draw_logs_its_die(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    assert not (await create(slash, "Brann")).ephemeral
    await slash.run("inventory add", character="Brann", item="Rope", count=6, **player(slash))
    script(bot, 3)  # backpack weight 6: 1 EP, a d4 drawn on its 4
    said = (await slash.run("inventory draw", item="rope", character="Brann",
                            **player(slash))).content  # fmt: skip
    assert said is not None and "d4 shows 3" in said, said
    kind, result = await last_row(bot)
    assert (kind, result["sides"], result["drawn"]) == ("2d10-draw", 4, False)
    brann = await sheet(bot, "Brann")
    assert parts(kind, result) == [("draw", "character", brann.id, 0, Fraction(3, 4) / 2)]
    await dpytest.empty_queue()


async def test_an_attack_into_soft_cover_scores_the_look(
    bot: TableBot, slash: SlashHarness
) -> None:
    await soft_cover_table(bot, slash)
    scout = await sheet(bot, "Scout")
    # The look 5 + 4 + 4 − 3 = 10 takes one point off; the shot's 5 + 5; the damage die 4.
    script(bot, 5, 4, 5, 5, 4)
    await slash.run("attack", target="Sneak", situation="soft cover 2", **player(slash))
    kind, result = await last_row(bot)
    assert result["look_edge"] == "none" and result["look"]["faces"] == [5, 4]
    luck = row_luck(kind, result)
    assert [(s.part, s.owner_ref) for s in luck.scored] == [
        ("to-hit", scout.id), ("look", scout.id), ("damage", scout.id),
    ]  # fmt: skip
    to_hit, look, damage = luck.scored
    assert (to_hit.percentile, look.percentile) == (oracle("none", 10)[0], oracle("none", 9)[0])
    logged = result["damage_roll"]
    dealt = damage_oracle(logged["sides"], logged["twice"], logged["flat"], logged["block"],
                          logged["reduction"])  # fmt: skip
    assert damage.value == result["damage"]
    assert damage.percentile == oracle_pct(dealt, result["damage"])
    await dpytest.empty_queue()
