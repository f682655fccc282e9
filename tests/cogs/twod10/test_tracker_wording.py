"""The 2d10 tracker's lines read right for one, for many and for none."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.render.twod10.initiative import event_line
from bot.rules.twod10.initiative.events import ReactionWindowOpened, SideTurnStarted
from bot.rules.twod10.initiative.model import Side
from tests.cogs.twod10.rounds_support import gm, make_twod10, stored, text
from tests.support.slash import SlashHarness


async def test_one_quick_npc_joins_and_several_join(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    await slash.run("init begin", **gm(slash))
    one = await slash.run("init add", name="Wolf", **gm(slash))
    assert text(one) == "Wolf joins the NPCs."
    two = await slash.run("init add", name="Goblin", count=2, **gm(slash))
    assert text(two) == "Goblin 1 and Goblin 2 join the NPCs."
    enc = (await stored(bot, slash.channel.id)).encounter
    wolf = next(c.id for c in enc.combatants if c.name == "Wolf")
    goblins = tuple(c.id for c in enc.combatants if c.name.startswith("Goblin"))
    turn = SideTurnStarted(round=1, side=Side.NPCS, combatant_ids=(wolf,), spells_cast=())
    assert event_line(enc, turn) == (
        "▶️ The NPCs' turn: Wolf may move, attack, interact (and take a granted bonus action)."
    )
    turn = SideTurnStarted(round=1, side=Side.NPCS, combatant_ids=goblins, spells_cast=())
    assert "Goblin 1 and Goblin 2 may each move, attack" in event_line(enc, turn)
    none = SideTurnStarted(round=1, side=Side.PLAYERS, combatant_ids=(), spells_cast=())
    assert event_line(enc, none) == "▶️ The Players' turn: nobody on it can act."
    window = ReactionWindowOpened(after=Side.NPCS, eligible=())
    assert event_line(enc, window) == (
        "⏸️ End of the NPCs' turn: nobody has an undeclared reaction left;"
        " the GM's /init next goes on."
    )
    await dpytest.empty_queue()
