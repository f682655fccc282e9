"""The ammo count's pouches or quivers are carried items (ruling quiver-weight): each
weighs 1, readily accessible, on the inventory list and in every roll's encumbrance."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, text
from tests.support.slash import SlashHarness


async def test_quivers_weigh_in_the_inventory_and_the_rolls(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    # Brann: finesse 1, toughness 1 (ignores EP 1 and 3), no gear on the sheet.
    assert not (await create(slash, "Brann")).ephemeral
    said = await slash.run("inventory add", item="Lantern", worn=True, count=4,
                           character="Brann", **player(slash))  # fmt: skip
    assert said.content and said.content.endswith("now 0 EP, movement 30 ft.")
    set_ = await slash.run("ammo set", quivers=4, character="Brann", **gm(slash))
    assert not set_.ephemeral, set_.content
    # Worn: 4 lanterns + 4 quivers = 8: 2 EP, the 1st ignored: 1 EP.
    body = text(await slash.run("inventory list", character="Brann", **player(slash)))
    assert "1. Pouch or quiver x4 (weight 1 each)\n2. Lantern x4 (weight 1 each)" in body
    assert "Worn or readily accessible: weight 8 → 2 EP" in body
    assert "Movement 25 ft" in body
    bot.dice = ScriptedDice([5, 5])
    shown = text(await slash.run("task", attribute="finesse", character="Brann",
                                 **player(slash)))  # fmt: skip
    assert "**10** = 10 +1 finesse -1 encumbrance" in shown
    # No quivers left: the load is the lanterns alone again.
    await slash.run("ammo set", quivers=0, character="Brann", **gm(slash))
    body = text(await slash.run("inventory list", character="Brann", **player(slash)))
    assert "Pouch or quiver" not in body and "weight 4 → 1 EP" in body
    await dpytest.empty_queue()
