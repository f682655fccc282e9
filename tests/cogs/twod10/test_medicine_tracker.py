"""/medicine in a tracked fight: what it writes (the patient's HP, the supplies a medic
carries) reaches the tracker seating the character at once, edited after the reply
(bot.delivery.followups), as after /inventory or /attack."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10Sheet
from tests.cogs.twod10.rounds_support import (
    gm,
    make_sheet,
    make_twod10,
    player,
    reply_before_tracker,
    set_hp_elsewhere,
    tracker_line,
)
from tests.support.slash import SlashHarness


async def mira_line(bot: TableBot, slash: SlashHarness) -> str:
    return await tracker_line(bot, slash, "Mira")


async def fight(bot: TableBot, slash: SlashHarness) -> TwoD10Sheet:
    """Mira (finesse 2, toughness 1: 20 HP, ignores EP 1 and 3; mind 0, no medicine) in a
    tracked fight with a goblin."""
    await make_twod10(slash)
    mira = await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", **gm(slash))
    return mira


async def test_daily_medicine_redraws_the_patients_hp_after_the_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await fight(bot, slash)
    set_hp_elsewhere(bot, mira, 10)  # (through this bot, the tracker would follow at once)
    await slash.run("init list", **gm(slash))  # nothing is redrawn by reading it
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20"
    bot.dice = ScriptedDice([9, 8])  # 17 + mind 0 + medicine 0: 15+, toughness 1 → +1 HP
    treated = await reply_before_tracker(
        bot, slash, slash.run("medicine daily", patient="Mira", **player(slash)), name="Mira",
        before="**Mira** (finesse +2) · HP 20/20", after="**Mira** (finesse +2) · HP 11/20",
    )  # fmt: skip
    assert "HP 10 → **11**" in str(treated.embeds[0])
    await dpytest.empty_queue()


async def test_supplies_set_and_spent_move_the_medics_feet_on_the_tracker(
    bot: TableBot, slash: SlashHarness
) -> None:
    await fight(bot, slash)
    await make_sheet(bot, slash.members[1], "Cora")  # the patient, not in the fight
    # 24 units weigh 24 in the backpack: 4 EP, less the 1st and 3rd: 2 EP, 30 - 10 = 20 ft.
    await slash.run("medicine supplies", character="Mira", units=24, **gm(slash))
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🎒 moves 20 ft"
    # Mira treats Cora: her unit spent leaves 23, 3 EP, less the 1st and 3rd: 1 EP, 25 ft.
    bot.dice = ScriptedDice([5, 5])  # 10: short of 15, no point healed; the unit is spent
    treated = await slash.run("medicine attribute", patient="Cora", **player(slash))
    assert "One unit of medical supplies spent (23 left)." in str(treated.embeds[0])
    assert await mira_line(bot, slash) == "**Mira** (finesse +2) · HP 20/20 · 🎒 moves 25 ft"
    await dpytest.empty_queue()
