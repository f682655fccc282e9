"""/character edit load: an overloaded character gains its banes and conditions."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.conditions import Condition, Conditions
from bot.storage.hocs.characters import CharacterRepository
from tests.support.slash import SlashHarness

OVERLOAD = Conditions.of(Condition.HINDERED, Condition.SLOW, Condition.DEFENSELESS)


async def conditions(bot: TableBot, name: str) -> Conditions:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert found is not None
    return found.state.conditions


async def test_a_load_over_capacity_brings_banes_and_conditions_until_it_fits(
    bot: TableBot, slash: SlashHarness
) -> None:
    player = slash.members[0]
    stats = {"strength": 2, "agility": 2, "mind": 2, "presence": 2}
    await slash.run("character create", name="Mira", user=player, **stats)  # capacity 10
    fits = await slash.run("character edit", load=10, user=player)
    assert "Overloaded" not in str(fits.content) + str(fits.embeds)
    assert await conditions(bot, "Mira") == Conditions()
    over = await slash.run("character edit", load=11, user=player)
    shown = str(over.content) + str(over.embeds)
    assert "Overloaded (load 11 > capacity 10)" in shown
    assert await conditions(bot, "Mira") == OVERLOAD
    sheet = await slash.run("character show", user=player)
    assert "load 11 — overloaded: 3 banes on STR/AGI rolls" in str(sheet.embeds)
    # 3 banes on an agility roll: 2 dice − ⌈3/2⌉ = 0 dice; mind rolls are untouched.
    bot.dice = ScriptedDice([])
    agility = await slash.run("check", skill="agility", user=player)
    assert "3 banes (3 overloaded)" in agility.embeds[0]["description"]
    bot.dice = ScriptedDice([4, 4])
    mind = await slash.run("check", skill="mind", user=player)
    assert "bane" not in mind.embeds[0]["description"]
    # Stronger, the load fits again: the conditions the load brought go.
    light = await slash.run("character edit", strength=3, user=player)
    assert "No longer overloaded" in str(light.content) + str(light.embeds)
    assert await conditions(bot, "Mira") == Conditions()
    await dpytest.empty_queue()


async def test_a_wound_that_lowers_strength_overloads_at_once_and_healing_it_frees(
    bot: TableBot, slash: SlashHarness
) -> None:
    player = slash.members[0]
    gm = {"user": slash.members[1], "manage_guild": True}
    stats = {"strength": 3, "agility": 2, "mind": 2, "presence": 2}
    await slash.run("character create", name="Mira", user=player, **stats)
    await slash.run("character edit", load=11, user=player)  # fits strength 3
    assert await conditions(bot, "Mira") == Conditions()
    bot.dice = ScriptedDice([3, 3, 3, 3])  # the wound's recovery time
    await slash.run("character wounds add", wound="strength -1", name="Mira", **gm)
    # Wounded strength 2 carries 10: overloaded now, not at the next edit.
    assert await conditions(bot, "Mira") == OVERLOAD.add(Condition.WOUNDED)
    await slash.run("character wounds heal", number=1, name="Mira", **gm)
    assert await conditions(bot, "Mira") == Conditions()
    await dpytest.empty_queue()
