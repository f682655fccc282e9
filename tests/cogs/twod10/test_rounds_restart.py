"""The 2d10 tracker under concurrent presses and across a restart.

Restart: a first TableBot runs the encounter; its database is closed and a second one
starts on the same file in a Discord world with the same ids (the ``restart`` fixture),
as after a real restart. Only the button's custom_id is known to it.
"""

from __future__ import annotations

import asyncio
import random

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.twod10.initiative.model import Action, Phase, Side
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import gm, make_sheet, player, stored, text
from tests.cogs.twod10.test_rounds_initiative import next_, setup_fight
from tests.support.slash import SlashHarness


async def test_concurrent_nexts_each_take_exactly_one_step(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash, goblins=3)
    bot.dice = RandomDice(random.Random(11))
    await next_(slash)  # round 1's declarations
    start = await stored(bot, slash.channel.id)
    first = len(slash.responses)
    await asyncio.gather(*(slash.run("init next", **gm(slash)) for _ in range(20)))
    end = await stored(bot, slash.channel.id)
    # Five steps a round (the d6 and the first turn, its end, the second turn, its end,
    # the next round): 20 steps from round 1's declarations reach round 5's.
    assert (end.encounter.round, end.encounter.phase) == (5, Phase.DECLARE)
    assert end.version == start.version + 20
    replies = [r for r in slash.responses[first:] if r.kind == "callback" and r.type == 4]
    assert len(replies) == 20 and not any(r.ephemeral for r in replies)
    contents = [r.payload["data"]["content"] for r in replies]
    assert sum("The GM's d6" in c for c in contents) == 4  # one roll a round, never two
    assert sum("Round 4 ends." in c for c in contents) == 1
    await dpytest.empty_queue()


async def test_two_presses_at_once_mark_the_action_once(bot: TableBot, slash: SlashHarness) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([3])
    await next_(slash)
    turn = await slash.run("init next", **gm(slash))
    first = len(slash.responses)
    await asyncio.gather(*(slash.click(turn, label="Attack", **player(slash)) for _ in range(2)))
    # Each press's own answer (results interleave, so read the recorder directly).
    replies = [r for r in slash.responses[first:] if r.kind == "callback" and r.type == 4]
    assert sorted(r.payload["data"]["content"] for r in replies) == [
        "Mira has already used their attack this turn.",
        "Mira: attack.",
    ]
    record = await stored(bot, slash.channel.id)
    assert record.encounter.state(1).actions == frozenset({Action.ATTACK})
    await dpytest.empty_queue()


async def test_the_tracker_and_its_turn_buttons_survive_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await slash.run("campaign set", ruleset="2d10", **gm(slash))
    await make_sheet(first, slash.members[0], "Mira", finesse=2)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", **gm(slash))
    first.dice = ScriptedDice([1])
    await next_(slash)
    turn = await slash.run("init next", **gm(slash))
    [attack] = [i for i in turn.custom_ids if i.endswith(":attack")]
    await slash.click(turn, label="Movement", **player(slash))
    before = await stored(first, slash.channel.id)

    second, again = await restart.restart()
    second.dice = ScriptedDice([])
    # dpytest answers a fetch in a channel with no message yet with a KeyError, not
    # Discord's 404: one message makes the old tracker's fetch a real NotFound.
    await again.channel.send("The table is back.")
    after = await stored(second, again.channel.id)
    assert after.tracker == before.tracker and after.version == before.version
    clicked = await again.click(custom_id=attack, user=again.members[0])
    assert clicked.ephemeral and text(clicked) == "Mira: attack."
    record = await stored(second, again.channel.id)
    assert record.encounter.state(1).actions == frozenset({Action.MOVEMENT, Action.ATTACK})
    assert record.encounter.acting is Side.PLAYERS
    # The tracker shows the state again (reposted: the old world's message is gone).
    assert record.tracker_message_id is not None
    message = await again.channel.fetch_message(record.tracker_message_id)
    fields = str(message.embeds[0].fields)
    assert "**Mira** (finesse +2) · HP 20/20 · 🏃 movement · ⚔️ attack" in fields
    going_on = await again.run("init next", **gm(again))
    assert "End of the Players' turn" in text(going_on)
