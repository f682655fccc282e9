"""/cast in a tracked 2d10 fight (ruling cast-in-tracker): an /attack on a caster whose
declared spell hasn't gone off gives its /cast disadvantage without attacked:, the cast
is marked on the tracker, once a round."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.model import Action, Sacrifice
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, text
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.cogs.twod10.test_magic import cast, table  # noqa: F401 (the autouse table)
from tests.support.slash import SlashHarness


async def vela_line(bot: TableBot, slash: SlashHarness) -> str:
    return await tracker_line(bot, slash, "Vela")


async def test_an_attack_while_her_declared_spell_is_cast_gives_disadvantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1's declarations
    said = await slash.run("init act", action="declare spell", name="Vela", **player(slash))
    assert not said.ephemeral, said.content
    script(bot, 5)  # the GM's d6: the NPCs go first
    await slash.run("init next", **gm(slash))
    # The Brute swings at Vela and misses (a natural 2): she is attacked all the same.
    script(bot, 1, 1, 1, 1, 1, 1)
    await slash.run("attack", target="Vela", character="Brute", **gm(slash))
    assert "attacked while casting" in await vela_line(bot, slash)
    script(bot)
    await slash.run("init next", **gm(slash))  # the NPCs' end-of-turn
    await slash.run("init next", **gm(slash))  # the Players' turn: her spell goes off
    # No attacked: given, and the roll has the disadvantage: 3d10 keep the lowest two.
    script(bot, 9, 9, 2)
    body = text(await slash.run("cast", **cast(), **player(slash)))
    assert "3d10, highest dropped (advantage 0, disadvantage 1: disadvantage) [9, ~~9~~, 2]" in body
    assert "Attacked while casting: disadvantage." in body and "**6** = 11" in body
    record = await stored(bot, slash.channel.id)
    vela_id = next(c.id for c in record.encounter.combatants if c.name == "Vela")
    state = record.encounter.state(vela_id)
    assert state.spell_cast and state.sacrificed is Sacrifice.SPELL
    assert Action.ATTACK in state.actions
    assert "spell cast" in await vela_line(bot, slash)
    refused(await slash.run("cast", **cast(), **player(slash)),
            "Vela has already cast a spell this round.")  # fmt: skip
    await dpytest.empty_queue()


async def test_an_undeclared_spell_waits_for_her_turn_and_takes_her_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Vela", **gm(slash))
    await slash.run("init add", name="Brute", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))
    script(bot, 5)
    await slash.run("init next", **gm(slash))  # the NPCs' turn
    refused(await slash.run("cast", **cast(), **player(slash)), "Vela declared no spell")
    script(bot)
    await slash.run("init next", **gm(slash))
    await slash.run("init next", **gm(slash))  # the Players' turn
    script(bot, 9, 9)  # no attack fell inside it: no disadvantage
    body = text(await slash.run("cast", **cast(), **player(slash)))
    assert (
        "**13** = 18 +3 mind +2 Mysteries (pyromancy) -10 tier 1" in body
        and "disadvantage" not in body
    )
    assert "⚔️ attack → spell" in await vela_line(bot, slash)
    await dpytest.empty_queue()
