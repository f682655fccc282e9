"""/determination spend: a determination point after the roll, by command."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_check import dice_field, make_character
from tests.cogs.test_roll_buttons import fresh, labels, last_roll, set_points
from tests.support.slash import SlashHarness


async def test_a_bane_cancelled_after_the_roll_brings_its_die_back(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([4, 2])  # STR 3 with 1 bane: 2 dice
    await slash.run("check", skill="strength", banes=1, difficulty="2")
    bot.dice = ScriptedDice([5])
    result = await slash.run("determination spend")
    [embed] = result.embeds
    assert dice_field(embed) == "**4** · 2 · new **5**"
    assert "**2** successes vs Challenging (2): **Success**" in embed["description"]
    # Said once (issue 10: the spend used to be told twice).
    assert embed["description"].count("determination point") == 1
    assert "Mira spent a determination point after the roll (2 left)." in embed["description"]
    assert (await fresh(bot, mira)).state.determination == 2
    assert "Spend determination" not in labels(result)
    again = await slash.run("determination spend")
    assert again.ephemeral and "already on this roll" in again.content
    assert (await fresh(bot, mira)).state.determination == 2
    await dpytest.empty_queue()


async def test_refused_when_it_would_change_nothing_or_none_is_left(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([1, 2])
    await slash.run("check", skill="strength", banes=2)
    useless = await slash.run("determination spend")
    assert useless.ephemeral and "would change nothing" in useless.content
    assert (await fresh(bot, mira)).state.determination == 3
    await set_points(bot, mira, determination=0)
    bot.dice = ScriptedDice([1, 2, 3])
    await slash.run("check", skill="strength")
    empty = await slash.run("determination spend")
    assert empty.ephemeral and empty.content == "Mira has no determination points left."
    assert (await last_roll(bot, mira)).result["revision"] == 0
    await dpytest.empty_queue()


async def test_only_the_owner_or_gm_spends(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0])
    bot.dice = ScriptedDice([1, 2, 3])
    await slash.run("check", skill="strength")
    other = await slash.run("determination spend", user=slash.members[1], manage_guild=False,
                            character="Mira")  # fmt: skip
    assert other.ephemeral and "isn't yours" in other.content
    bot.dice = ScriptedDice([3])
    by_gm = await slash.run("determination spend", user=slash.members[2], manage_guild=True,
                            character="Mira")  # fmt: skip
    assert not by_gm.ephemeral
    assert (
        "Mira spent a determination point after the roll (2 left)."
        in (by_gm.embeds[0]["description"])
    )
    await dpytest.empty_queue()
