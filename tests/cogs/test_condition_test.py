"""/condition test: the GM calls for a dying or unconscious test outside an encounter."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.hocs.conditions import Condition, Conditions
from tests.cogs.test_combat_helpers import combat_state, gm, pc, player, refused, script
from tests.support.slash import SlashHarness


async def test_the_gm_calls_for_a_dying_test_success_then_the_unconscious_test(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Bram", strength=3, agility=2, mind=2, presence=1)
    for condition in ("unconscious", "dying"):
        await slash.run("condition add", target="Bram", condition=condition, **gm(slash))
    script(bot, 4, 5, 6)  # physique: STR 3, three dice
    rolled = await slash.run("condition test", target="Bram", **gm(slash))
    assert not rolled.ephemeral
    assert rolled.content == (
        "🎲 Bram's dying test (Physique (STR 3): 4 5 6): 3 successes vs 3 — stable, still"
        " unconscious."
    )
    conditions = (await combat_state(bot, "Bram")).vitals.conditions
    assert conditions == Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)
    script(bot, 4, 4)  # willpower: MIND 2
    woke = await slash.run("condition test", target="Bram", skill="willpower", **gm(slash))
    assert woke.content.endswith("2 successes vs 3 — stays unconscious.")
    script(bot, 4, 4, 4)
    woke = await slash.run("condition test", target="Bram", **gm(slash))
    assert woke.content.endswith("3 successes vs 3 — wakes up.")
    # Bram is at full HP, so he wakes without staggered.
    assert (await combat_state(bot, "Bram")).vitals.conditions == Conditions.of(Condition.STABLE)
    refused(await slash.run("condition test", target="Bram", **gm(slash)), "neither dying")
    await dpytest.empty_queue()


async def test_a_failed_dying_test_kills_and_players_cannot_call_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Bram", strength=3, agility=2, mind=2, presence=1)
    for condition in ("unconscious", "dying"):
        await slash.run("condition add", target="Bram", condition=condition, **gm(slash))
    refused(await slash.run("condition test", target="Bram", **player(slash)), "Only the GM")
    script(bot, 1, 2, 3)
    rolled = await slash.run("condition test", target="Bram", **gm(slash))
    assert rolled.content.endswith("0 successes vs 3 — dies.")
    conditions = (await combat_state(bot, "Bram")).vitals.conditions
    assert Condition.DEAD in conditions and Condition.DYING not in conditions
    refused(await slash.run("condition test", target="Bram", **gm(slash)), "neither dying")
    await dpytest.empty_queue()
