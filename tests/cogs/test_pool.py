"""/pool: ad-hoc skill pools, through the slash harness and the prefix path."""

from __future__ import annotations

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import RollLogRepository
from tests.cogs.test_check import (
    determination_of,
    dice_field,
    log_rows,
    make_character,
    set_column,
)
from tests.support.slash import SlashHarness


async def test_the_rules_focus_example(bot: TableBot, slash: SlashHarness) -> None:
    # "3d6 plus 1 focus, resulting on a 3, 4 and 6 … you roll three successes".
    bot.dice = ScriptedDice([3, 4, 6])
    result = await slash.run("pool", dice=3, focus=1)
    assert not result.ephemeral
    [embed] = result.embeds
    name = discord.utils.escape_markdown(slash.members[0].display_name)
    assert embed["title"] == f"{name} rolls 3d6"
    assert dice_field(embed) == "**3+1** · **4** · **6**"
    assert "**3** successes (1 six)" in embed["description"]
    assert "3 base = **3d6** · with 1 focus" in embed["description"]
    assert embed["footer"]["text"] == "bold = success · +1 = focus"
    result.assert_no_pings()
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("boons", "banes", "dice", "change"),
    [
        (2, 0, 4, "+1d6"),  # boons don't stack
        (2, 2, 3, "±0d6"),  # they cancel out
        (0, 2, 2, "−1d6"),
        (0, 3, 1, "−2d6"),
        (0, 4, 1, "−2d6"),
        (1, 3, 2, "−1d6"),  # the boon cancels one bane
        (0, 6, 0, "−3d6"),
    ],
)
async def test_boons_and_banes_change_the_dice_count(
    bot: TableBot, slash: SlashHarness, boons: int, banes: int, dice: int, change: str
) -> None:
    bot.dice = ScriptedDice([2] * dice)
    result = await slash.run("pool", dice=3, boons=boons, banes=banes)
    [embed] = result.embeds
    assert f"{change} = **{dice}d6**" in embed["description"]
    assert embed["fields"][0]["name"] == f"Dice ({dice})"
    assert bot.dice.remaining == 0
    if boons > banes:
        assert dice_field(embed).endswith("· boon 2")
    if dice == 0:
        assert dice_field(embed) == "no dice"
        assert "Banes left no dice to roll" in embed["description"]
    await dpytest.empty_queue()


@pytest.mark.parametrize("difficulty", ["Hard", "4", "hard", "Hard (4)"])
async def test_difficulty_by_name_or_number(
    bot: TableBot, slash: SlashHarness, difficulty: str
) -> None:
    bot.dice = ScriptedDice([4, 5, 6, 6, 1])
    result = await slash.run("pool", dice=5, difficulty=difficulty)
    description = result.embeds[0]["description"]
    assert "**4** successes vs Hard (4): **Success**" in description
    assert result.embeds[0]["color"] == 0x2ECC71
    await dpytest.empty_queue()


async def test_advantage_and_failed_by_two(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([4, 5, 6, 6])
    result = await slash.run("pool", dice=4, difficulty="2")
    description = result.embeds[0]["description"]
    assert "**4** successes vs Challenging (2): **Success with advantage**" in description
    assert "Advantage: 2 successes over the difficulty." in description
    bot.dice = ScriptedDice([1, 2, 4])
    result = await slash.run("pool", dice=3, difficulty="demanding")
    description = result.embeds[0]["description"]
    assert "**1** success vs Demanding (3): **Failure by 2 or more**" in description
    assert "Failed by 2" in description
    await dpytest.empty_queue()


async def test_difficulty_zero_needs_no_roll(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([1])
    result = await slash.run("pool", dice=1, difficulty="easy")
    description = result.embeds[0]["description"]
    assert "vs Routinary or Easy (0): **Success — no need to roll (difficulty 0)**" in description
    await dpytest.empty_queue()


async def test_rerolls_guarantees_and_unused_modifiers(bot: TableBot, slash: SlashHarness) -> None:
    # Only the 1 fails: a reroll turns it into a 2, the guarantee makes that a 4; the
    # second reroll finds no failure left and the focus finds no 3 or 5.
    bot.dice = ScriptedDice([1, 6, 6, 2])
    result = await slash.run("pool", dice=3, rerolls=2, guaranteed=1, focus=1)
    [embed] = result.embeds
    assert dice_field(embed) == "~~1~~ 2⇒**4** · **6** · **6**"
    assert "Unused (no die could gain from them): 1 reroll, 1 focus." in embed["description"]
    footer = embed["footer"]["text"]
    assert "struck = rerolled" in footer and "⇒4 = guaranteed success" in footer
    await dpytest.empty_queue()


async def test_thirty_dice_with_a_long_chain_fit(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    faces = [1, 2] * 15 + [6] * 40 + [2] + [3] * 30
    bot.dice = ScriptedDice(faces)
    result = await slash.run(
        "pool", dice=30, boons=1, rerolls=10, focus=30, guaranteed=30, determination=True,
        label="@everyone " + "x" * 80,
    )  # fmt: skip
    [embed] = result.embeds
    assert len(dice_field(embed)) <= 1024
    assert "@everyone" not in embed["title"]
    assert "det " in dice_field(embed)
    await dpytest.empty_queue()


async def test_determination_on_pool_spends_from_the_active_character(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([4, 1, 6, 5])
    result = await slash.run("pool", dice=2, determination=True, label="leap")
    [embed] = result.embeds
    assert embed["title"].endswith("rolls 2d6 — leap")
    assert dice_field(embed) == "**4** · 1 · det **6**→**5**"
    assert "**3** successes" in embed["description"]
    assert await determination_of(bot, mira) == 2
    [row] = await log_rows(bot)
    assert row.kind == "pool" and row.character_id == mira.id and row.total == 3
    await set_column(bot, mira, "determination", 0)
    refused = await slash.run("pool", dice=2, determination=True)
    assert refused.ephemeral and "no determination points left" in refused.content
    assert len(await log_rows(bot)) == 1
    await dpytest.empty_queue()


async def test_determination_without_active_character_is_refused(
    bot: TableBot, slash: SlashHarness
) -> None:
    bot.dice = ScriptedDice([6, 6])
    result = await slash.run("pool", dice=1, determination=True)
    assert result.ephemeral
    assert result.content.startswith("Determination is spent from your active character")
    assert bot.dice.remaining == 2
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_out_of_range_dice_are_refused(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([])
    result = await slash.run("pool", dice=31, client_checks=False)
    assert result.ephemeral
    assert "30" in result.content and result.content.count(".") <= 2
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_secret_pool_is_ephemeral_and_logged(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([4, 4])
    result = await slash.run("pool", dice=2, secret=True)
    assert result.ephemeral and result.content.startswith("-# Secret:")
    [row] = await log_rows(bot)
    assert row.secret and row.message_id == result.message.message_id
    assert row.result["roll"]["successes"] == 2
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_roll_log_row_and_message_id(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([3, 4, 6])
    result = await slash.run("pool", dice=3, focus=1, difficulty="3", label="climb")
    [row] = await log_rows(bot)
    assert row.kind == "pool" and row.total == 3 and row.character_id is None
    assert row.expression == "pool 3d6 vs 3 climb"
    assert row.message_id == result.message.message_id
    assert row.result["difficulty"] == 3
    assert [d["final_faces"] for d in row.result["roll"]["dice"]] == [[4], [4], [6]]
    async with bot.db.transaction() as conn:
        repo = RollLogRepository(conn)
        changed = dict(row.result, difficulty=4)
        assert await repo.update_result(row.id, changed, 3, expected=row.result)
        assert not await repo.update_result(row.id, changed, 3, expected=row.result)
        assert (await repo.get(row.id)).result["difficulty"] == 4
    await dpytest.empty_queue()


# --- the prefix path (dpytest) ---------------------------------------------------------


async def test_prefix_pool(bot: TableBot) -> None:
    bot.dice = ScriptedDice([3, 4, 6])
    await dpytest.message("!pool 3 2")
    reply = dpytest.get_message()
    [embed] = reply.embeds
    assert embed.description is not None
    assert "**2** successes vs Challenging (2): **Success**" in embed.description
    assert embed.fields[0].value == "3 · **4** · **6**"
    assert bot.sent_payloads[-1]["allowed_mentions"]["parse"] == []
    [row] = await log_rows(bot)
    assert row.message_id == reply.id
    await dpytest.empty_queue()


async def test_prefix_pool_out_of_range(bot: TableBot) -> None:
    await dpytest.message("!pool 31")
    reply = dpytest.get_message()
    assert reply.content == (
        "That value must be at least 0 and at most 30: try again with one in range."
    )
    await dpytest.empty_queue()
