"""/condition add, remove and list."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.hocs.conditions import Condition
from tests.cogs.test_combat_helpers import combat_state, gm, npc, pc, player, refused, text
from tests.support.slash import DiscordWouldRefuse, SlashHarness


async def test_gm_adds_and_removes_conditions(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Gob")
    added = await slash.run("condition add", target="Gob", condition="fatigued", **gm(slash))
    assert added.content == "Gob: fatigued added." and "**fatigued (1)**" in text(added)
    await slash.run("condition add", target="Gob", condition="fatigued", value=2, **gm(slash))
    await slash.run("condition add", target="Gob", condition="bleeding", value=3, **gm(slash))
    await slash.run("condition add", target="Gob", condition="flanked", **gm(slash))
    state = await combat_state(bot, "Gob")
    assert state.vitals.conditions.value(Condition.FATIGUED) == 3
    assert state.vitals.conditions.value(Condition.BLEEDING) == 3
    await slash.run("condition remove", target="Gob", condition="fatigued", value=1, **gm(slash))
    assert (await combat_state(bot, "Gob")).vitals.conditions.value(Condition.FATIGUED) == 2
    await slash.run("condition remove", target="Gob", condition="fatigued", **gm(slash))
    await slash.run("condition remove", target="Gob", condition="flanked", **gm(slash))
    conditions = (await combat_state(bot, "Gob")).vitals.conditions
    assert list(conditions) == [Condition.BLEEDING]
    # NPC conditions are hidden from players by default (tests/cogs/test_hidden_npc_state.py).
    listed = await slash.run("condition list", target="Gob", **gm(slash))
    assert "**bleeding (3)**" in text(listed) and not listed.ephemeral
    await dpytest.empty_queue()


async def test_players_cannot_add_or_remove(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    refused(
        await slash.run("condition add", target="Bram", condition="slow", **player(slash)),
        "Only the GM",
    )
    refused(
        await slash.run("condition remove", target="Bram", condition="slow", **player(slash)),
        "Only the GM",
    )
    assert not len((await combat_state(bot, "Bram")).vitals.conditions)
    mine = await slash.run("condition list", **player(slash))
    assert "No conditions." in text(mine)
    await dpytest.empty_queue()


async def test_refusals(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Gob")
    refused(
        await slash.run("condition remove", target="Gob", condition="slow", **gm(slash)),
        "isn't slow",
    )
    refused(
        await slash.run("condition add", target="Gob", condition="slow", value=2, **gm(slash)),
        "has no value",
    )
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("condition add", target="Gob", condition="wounded", **gm(slash))
    refused(await slash.run("condition list", **gm(slash)), "no active character")
    assert not len((await combat_state(bot, "Gob")).vitals.conditions)
    await dpytest.empty_queue()
