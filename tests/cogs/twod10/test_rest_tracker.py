"""/rest short|long, /character edit and /character advance in a tracked fight: what they
write (HP, maximum HP, a medic's spent unit of supplies, which weighs in the backpack)
reaches the tracker seating the character, edited after the reply (bot.delivery.followups), as
after /medicine."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10CharacterRepository
from tests.cogs.twod10.rounds_support import (
    gm,
    make_sheet,
    player,
    reply_before_tracker,
    set_hp_elsewhere,
)
from tests.cogs.twod10.test_medicine_tracker import fight, mira_line
from tests.support.slash import SlashHarness


async def test_a_short_rest_redraws_the_resters_hp_after_the_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await fight(bot, slash)
    set_hp_elsewhere(bot, mira, 10)  # (the tracker still shows 20)
    # Toughness 1 or 1 HP, whichever is more: 11.
    await reply_before_tracker(
        bot, slash, slash.run("rest short", **player(slash)), name="Mira",
        before="**Mira** (finesse +2) · HP 20/20", after="**Mira** (finesse +2) · HP 11/20",
    )  # fmt: skip
    await dpytest.empty_queue()


async def test_a_long_rest_redraws_the_resters_hp(bot: TableBot, slash: SlashHarness) -> None:
    mira = await fight(bot, slash)
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(mira.guild_id, mira.id, 10)
    await slash.run("rest long", **player(slash))
    # 3 x toughness 1 or 2 HP, whichever is more: 13.
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 13/20"
    await dpytest.empty_queue()


async def test_a_medics_unit_spent_on_a_short_rest_moves_the_medics_feet(
    bot: TableBot, slash: SlashHarness
) -> None:
    await fight(bot, slash)
    cora = await make_sheet(bot, slash.members[1], "Cora")  # rests; not in the fight
    async with bot.db.transaction() as conn:
        await TwoD10CharacterRepository(conn).set_hp(cora.guild_id, cora.id, 10)
    await slash.run("medicine supplies", character="Mira", units=24, **gm(slash))
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🎒 moves 20 ft"
    bot.dice = ScriptedDice([5, 5])  # whatever the medicine roll, the unit is spent
    rested = await slash.run("rest short", character="Cora", medic="Mira", **gm(slash))
    assert "One unit of medical supplies spent (23 left)." in str(rested.embeds[0])
    # 23 units: 3 EP, less the 1st and 3rd: 1 EP, 25 ft.
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🎒 moves 25 ft"
    await dpytest.empty_queue()


async def test_a_sheet_edit_or_advance_redraws_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    await fight(bot, slash)
    await slash.run("character edit", name="Mira", hp=7, **gm(slash))
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 7/20"
    await slash.run("character advance", name="Mira", attribute="toughness", **gm(slash))
    # Toughness 1 -> 2: maximum HP 20 -> 25 (the tracker's finesse is the one she joined with).
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 7/25"
    await dpytest.empty_queue()
