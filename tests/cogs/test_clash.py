"""/clash: against an NPC character or a plain pool, through the slash harness."""

from __future__ import annotations

import json

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.clash import ClashResult, ClashSide
from bot.storage.hocs.characters import CharacterKind
from tests.cogs.test_check import log_rows, make_character, set_column
from tests.support.slash import SlashHarness


def fields(embed: dict) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def test_attack_against_an_npc_repeats_then_attacker_wins_the_tie(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], "Mira", training={"melee combat": 1})
    goblin = await make_character(
        bot, slash.members[1], "Goblin", kind=CharacterKind.ANTAGONIST, active=False, agility=2
    )
    # Round 1: Mira 1 2 3 vs Goblin 3 1 — nobody succeeds, repeat.
    # Round 2: Mira 4 1 1 vs Goblin 5 2 — 1 vs 1, the attacker wins ties.
    bot.dice = ScriptedDice([1, 2, 3, 3, 1, 4, 1, 1, 5, 2])
    result = await slash.run(
        "clash", user=slash.members[0], skill="melee combat", opponent="goblin", attack=True
    )
    assert bot.dice.remaining == 0
    [embed] = result.embeds
    assert embed["title"] == (
        "Attack: Mira with Melee Combat (AGI 2 + 1 training) vs Goblin with Defense (AGI 2)"
    )
    description = embed["description"]
    assert "**Mira wins** — tied 1 vs 1, the attacker wins ties; margin 0." in description
    assert "1 deadlocked round repeated before the last." in description
    shown = fields(embed)
    assert shown["Round 1 — no successes on either side, repeated"] == (
        "Mira: 1 · 2 · 3 → **0** successes\nGoblin: 3 · 1 → **0** successes"
    )
    assert shown["Round 2 (deciding)"] == (
        "Mira: **4** · 1 · 1 → **1** success\nGoblin: **5** · 2 → **1** success"
    )
    [row] = await log_rows(bot)
    assert row.kind == "clash" and row.character_id == mira.id and row.total == 1
    assert row.message_id == result.message.message_id
    assert row.result["opponent_character_id"] == goblin.id
    stored = ClashResult.from_dict(row.result["clash"])
    assert stored.winner is ClashSide.A and len(stored.rounds) == 2
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_clash_against_a_pool_number_decided_by_sixes(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0], "Mira")
    # Mira athletics 3 dice: 6 4 1 (2 successes, one 6); the pool of 4: 5 4 2 1 (2, no 6).
    bot.dice = ScriptedDice([6, 4, 1, 5, 4, 2, 1])
    result = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="4")
    [embed] = result.embeds
    assert embed["title"] == "Clash: Mira with Athletics (STR 3) vs Opponent with 4d6"
    assert "**Mira wins** — tied 2 vs 2, more 6s (1 vs 0); margin 0." in embed["description"]
    assert list(fields(embed)) == ["Round 1"]
    await dpytest.empty_queue()


async def test_opponent_wins_with_advantage_and_conditions_apply(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], "Mira")
    await set_column(bot, mira, "conditions", json.dumps({"staggered": 1}))
    # Staggered: 3 dice − 1 = 2 (1, 4); the pool of 3 with a boon = 4 dice (4 5 6 6).
    bot.dice = ScriptedDice([1, 4, 4, 5, 6, 6])
    result = await slash.run(
        "clash", user=slash.members[0], skill="athletics", opponent="3", opponent_boons=1
    )
    [embed] = result.embeds
    description = embed["description"]
    assert "Mira: 3 base · 2 banes (2 staggered) → −1d6 = **2d6**" in description
    assert "Opponent: 3 base · 1 boon → +1d6 = **4d6**" in description
    assert "**Opponent wins** — more successes (1 vs 4); margin 3." in description
    assert "Advantage: Opponent won by 2 or more successes." in description
    await dpytest.empty_queue()


async def test_bad_opponents_are_refused(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], "Mira")
    bot.dice = ScriptedDice([])
    unknown = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="Ghost")
    assert unknown.ephemeral and unknown.content.startswith("There is no character called Ghost")
    itself = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="mira")
    assert itself.content == "Mira can't clash with itself: pick another opponent."
    huge = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="99")
    assert huge.content == "An opponent pool has at most 30 dice; you gave 99."
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_opponent_autocomplete_offers_numbers_and_names(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0], "Mira")
    await make_character(bot, slash.members[1], "Goblin", active=False)
    choices = await slash.autocomplete("clash", "opponent", "4", user=slash.members[0])
    assert choices == [{"name": "4 dice (a plain pool)", "value": "4"}]
    choices = await slash.autocomplete("clash", "opponent", "gob", user=slash.members[0])
    assert choices == [{"name": "Goblin", "value": "Goblin"}]
    skills = await slash.autocomplete(
        "clash", "opponent_skill", "def", user=slash.members[0], opponent="Goblin"
    )
    assert {"name": "Defense", "value": "Defense"} in skills
    await dpytest.empty_queue()


async def test_many_deadlocked_rounds_stay_within_embed_limits(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_character(bot, slash.members[0], "Mira", strength=4, training={"athletics": 1})
    # 19 rounds of 5 vs 30 dice all showing 1, then a decisive round.
    deadlock = [1] * 35
    bot.dice = ScriptedDice(deadlock * 19 + [6] * 5 + [1] * 30)
    result = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="30")
    [embed] = result.embeds
    assert "**Mira wins** — more successes (5 vs 0)" in embed["description"]
    assert len(embed["fields"]) <= 25
    assert "Round 20 (deciding)" in fields(embed)
    await dpytest.empty_queue()


async def test_buttons_follow_the_points_each_side_has_after_determination_before_the_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0], "Mira")
    goblin = await make_character(
        bot, slash.members[1], "Goblin", kind=CharacterKind.ANTAGONIST, active=False
    )
    await set_column(bot, mira, "determination", 1)
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE characters SET hero_points = 1 WHERE id = ?", (mira.id,))
    await set_column(bot, goblin, "determination", 1)
    # Mira athletics 3 dice + the determination die: 1 2 4 | 5 (two successes);
    # Goblin athletics 3 dice: 1 2 6 (one success).
    bot.dice = ScriptedDice([1, 2, 4, 5, 1, 2, 6])
    result = await slash.run(
        "clash", user=slash.members[0], skill="athletics", opponent="goblin", determination=True
    )
    assert bot.dice.remaining == 0
    labels = [c["label"] for row in result.components for c in row["components"]]
    # Mira's last determination point is on the roll (no second one); her hero point can
    # still reroll; the goblin (the GM's) can spend its own determination after the roll.
    assert labels == ["Mira: Hero reroll", "Goblin: Spend determination"]
    await dpytest.empty_queue()
