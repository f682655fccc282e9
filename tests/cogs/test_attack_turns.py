"""Attacks on the tracker's turn: the second attack's bane, tempo; aegis on defense."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import combat_state, gm, player, script, text
from tests.support.slash import SlashHarness


async def bram_on_turn(bot: TableBot, slash: SlashHarness) -> None:
    """An encounter with Bram alone, on his turn."""
    await setup_duel(slash)
    await slash.run("init begin", **gm(slash))
    joined = await slash.run("init join", **player(slash))
    assert not joined.ephemeral, joined.content
    bot.dice = ScriptedDice([4, 4])  # Bram's initiative: AGI 2
    await slash.run("init next", **gm(slash))
    assert bot.dice.remaining == 0


async def test_the_second_attack_on_a_turn_takes_a_bane(bot: TableBot, slash: SlashHarness) -> None:
    await bram_on_turn(bot, slash)
    script(bot, 5, 2, 3, 1, 1, 1, 1)  # a hit by 1; damage 1: 10 → 9
    first = await slash.run("attack", target="Gob", **player(slash))
    assert "second attack" not in text(first)
    # Second attack: 1 bane → Bram rolls 1 die (5) vs Gob 3 1: still a hit; damage 1.
    dice = script(bot, 5, 3, 1, 1, 1, 1)
    second = await slash.run("attack", target="Gob", **player(slash))
    assert "1 bane (second attack this turn)" in text(second)
    assert dice.remaining == 0
    assert (await combat_state(bot, "Gob")).vitals.hp == 8
    await dpytest.empty_queue()


async def test_tempo_removes_the_bane_for_the_rest_of_the_turn(
    bot: TableBot, slash: SlashHarness
) -> None:
    await bram_on_turn(bot, slash)
    script(bot, 5, 6, 1, 1, 1, 1, 1)  # a hit by 2 with tempo; damage 1
    first = await slash.run("attack", target="Gob", advantage="tempo", **player(slash))
    assert "**Combat advantage**: tempo" in text(first)
    dice = script(bot, 5, 2, 3, 1, 1, 1, 1)  # two dice again: no bane
    second = await slash.run("attack", target="Gob", **player(slash))
    body = text(second)
    assert "second attack" not in body
    assert "Tempo: no bane for a further attack this turn." in body
    assert dice.remaining == 0
    await dpytest.empty_queue()


async def test_attacks_off_the_tracker_are_not_counted(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    script(bot, 5, 2, 3, 1, 1, 1, 1)
    await slash.run("attack", target="Gob", **player(slash))
    dice = script(bot, 5, 2, 3, 1, 1, 1, 1)
    second = await slash.run("attack", target="Gob", **player(slash))
    assert "second attack" not in text(second) and dice.remaining == 0
    await dpytest.empty_queue()
