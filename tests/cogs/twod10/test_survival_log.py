"""Dying and medicine rolls land in the roll log like every other 2d10 roll: every die,
every modifier, the total, the HP change, the 2d10 character ids in the JSON."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, stored
from tests.support.slash import SlashHarness


async def newest(bot: TableBot, count: int = 1) -> list[LoggedRoll]:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).recent(bot.guilds[0].id, limit=count)


async def brann_and_cora(slash: SlashHarness) -> None:
    """Brann and Cora: toughness 1 (max HP 20, death at -2), mind 0, no medicine skill."""
    await make_twod10(slash)
    await create(slash, "Brann")
    await create(slash, "Cora")


async def test_a_dying_roll_outside_a_fight_is_logged(bot: TableBot, slash: SlashHarness) -> None:
    await brann_and_cora(slash)
    await slash.run("character edit", name="Brann", hp=-1, **gm(slash))
    bot.dice = ScriptedDice([4, 4])  # 8 + toughness 1 + HP -1 = 8: -1 → -2, dead
    await slash.run("dying roll", character="Brann", **player(slash))
    [logged] = await newest(bot)
    brann = await stored(bot, "Brann")
    assert (logged.kind, logged.total, logged.secret) == ("2d10-dying", 8, False)
    assert logged.expression == "dying roll Brann: 8"
    assert logged.result["faces"] == [4, 4] and logged.result["succeeded"] is False
    assert logged.result["modifiers"] == [
        {"label": "toughness", "value": 1},
        {"label": "defense (toughness)", "value": 0},
        {"label": "current HP", "value": -1},
    ]
    assert logged.result["character_id"] == brann.id
    assert logged.result["hp"] == [-1, -2] and logged.result["died"] is True
    await dpytest.empty_queue()


async def test_medicine_rolls_are_logged_with_their_use(bot: TableBot, slash: SlashHarness) -> None:
    await brann_and_cora(slash)
    await slash.run("character edit", name="Brann", hp=10, **gm(slash))
    bot.dice = ScriptedDice([8, 7])  # 15 + mind 0 + medicine 0: 1 or toughness 1 HP
    await slash.run("medicine daily", patient="Brann", medic="Cora", **player(slash))
    await slash.run("character edit", name="Brann", hp=-1, **gm(slash))
    bot.dice = ScriptedDice([6, 5])  # 11 - 1 (the patient's HP) = 10: advantage only
    await slash.run("medicine stabilise", patient="Brann", medic="Cora", **player(slash))
    await slash.run("medicine supplies", character="Cora", units=1, **gm(slash))
    bot.dice = ScriptedDice([9, 9])
    await slash.run("medicine attribute", patient="Brann", medic="Cora", **player(slash))
    attribute, stabilise, daily = await newest(bot, 3)
    brann = await stored(bot, "Brann")
    assert [r.kind for r in (daily, stabilise, attribute)] == ["2d10-medicine"] * 3
    assert daily.expression == "medicine (daily medicine) by Cora on Brann: 15"
    assert daily.result["hp"] == [10, 11] and daily.result["character_id"] == brann.id
    assert stabilise.total == 10 and stabilise.result["use"] == "stabilise"
    assert {"label": "patient's HP", "value": -1} in stabilise.result["modifiers"]
    assert attribute.result["use"] == "attribute damage"
    assert attribute.result["needed"] == 15 and attribute.result["healed"] is True
    await dpytest.empty_queue()


async def test_a_short_rest_with_a_medic_logs_the_medicine_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    await brann_and_cora(slash)
    await slash.run("character edit", name="Brann", hp=10, **gm(slash))
    await slash.run("medicine supplies", character="Cora", units=1, **gm(slash))
    bot.dice = ScriptedDice([10, 10])  # 20: +2 on top of the rest's 1
    await slash.run("rest short", character="Brann", medic="Cora", **player(slash))
    [logged] = await newest(bot)
    assert logged.kind == "2d10-medicine" and logged.result["use"] == "short rest"
    assert logged.result["hp"] == [10, 13] and logged.total == 20
    await dpytest.empty_queue()
