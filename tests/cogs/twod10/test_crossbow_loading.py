"""Ruling crossbow-loading through the commands: in a tracked fight a crossbow that shot is
refused by /attack until /init act load (or the turn's Load button) gives up the attack
to load it; the tracker shows it unloaded, across a restart too; untracked, it shoots
freely. Each shot takes the turn's attack (ruling attack-action), so shooting, loading and
shooting again are three turns."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.model import Action, Sacrifice, TurnState
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10.combat_helpers import (
    gm,
    make,
    player,
    refused,
    script,
    store,
    twod10,
)
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.cogs.twod10.turn_support import next_players_turn
from tests.support.slash import SlashHarness, SlashResult

UNLOADED = "Quill's light crossbow isn't loaded: load it first with /init act load."
GAVE_UP = (
    "Quill gave up their attack this turn to load: no attack left until their side's next turn."
)


async def crossbowman(bot: TableBot, slash: SlashHarness) -> None:
    """Quill (player 1's: finesse 2, ranged 2, a light and a hand crossbow) and Gob."""
    await twod10(slash)
    quill = make("Quill", finesse=2, ranged=2, weapons=("Light crossbow", "Hand crossbow"))
    await store(bot, quill, slash.members[1].id)
    await store(bot, make("Gob", finesse=1, finesse_defense=1), slash.members[0].id,
                TwoD10Kind.ANTAGONIST)  # fmt: skip


async def players_turn(bot: TableBot, slash: SlashHarness) -> SlashResult:
    """Quill against Gob, round 1, the players' turn (its message, with the buttons)."""
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)  # the GM's d6: 1, the players go first
    return await slash.run("init next", **gm(slash))


async def shoot(bot: TableBot, slash: SlashHarness, weapon: str) -> SlashResult:
    script(bot, 5, 5, 3)
    return await slash.run("attack", target="Gob", weapon=weapon, **player(slash))


async def test_a_crossbow_shoots_once_then_waits_for_a_load(
    bot: TableBot, slash: SlashHarness
) -> None:
    await crossbowman(bot, slash)
    await players_turn(bot, slash)
    assert not (await shoot(bot, slash, "Light crossbow")).ephemeral  # loaded at the start
    line = await tracker_line(bot, slash, "Quill")
    assert line == "**Quill** (finesse +2) · HP 15/15 · ⚔️ attack · 🏹 unloaded: Light crossbow"
    await next_players_turn(bot, slash)
    scripted = script(bot, 5, 5, 3)
    refused(await slash.run("attack", target="Gob", weapon="Light crossbow", **player(slash)),
            UNLOADED)  # fmt: skip
    assert scripted.requests == []  # no die rolled
    assert not (await shoot(bot, slash, "Hand crossbow")).ephemeral  # the other one is loaded
    await next_players_turn(bot, slash)
    loaded = await slash.run("init act", action="load", **player(slash))
    assert loaded.content == "Quill loads the light crossbow, giving up the attack."
    record = await stored(bot, slash.channel.id)
    [quill] = [c for c in record.encounter.combatants if c.name == "Quill"]
    assert quill.unloaded == ("Hand crossbow",)
    assert record.encounter.state(quill.id) == TurnState(
        actions=frozenset({Action.ATTACK}), sacrificed=Sacrifice.LOAD
    )
    assert await tracker_line(bot, slash, "Quill") == (
        "**Quill** (finesse +2) · HP 15/15 · ⚔️ attack → load · 🏹 unloaded: Hand crossbow"
    )
    scripted = script(bot, 5, 5, 3)  # the load took this turn's attack
    refused(await slash.run("attack", target="Gob", weapon="Light crossbow", **player(slash)),
            GAVE_UP)  # fmt: skip
    assert scripted.requests == []
    await next_players_turn(bot, slash)
    assert not (await shoot(bot, slash, "Light crossbow")).ephemeral
    await dpytest.empty_queue()


async def test_loading_with_nothing_to_load_is_refused_and_writes_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    await crossbowman(bot, slash)
    await players_turn(bot, slash)
    before = await stored(bot, slash.channel.id)
    refused(await slash.run("init act", action="load", **player(slash)),
            "Quill has no unloaded crossbow: a crossbow stays loaded until it shoots.")  # fmt: skip
    refused(await slash.run("init act", action="load", feet=5, **player(slash)),
            "`feet` goes with movement and `parry` with parry only.")  # fmt: skip
    assert (await stored(bot, slash.channel.id)).version == before.version
    await dpytest.empty_queue()


async def test_the_turns_load_button_loads_the_presser_s_crossbow(
    bot: TableBot, slash: SlashHarness
) -> None:
    await crossbowman(bot, slash)
    await players_turn(bot, slash)
    await shoot(bot, slash, "Light crossbow")
    turn = await next_players_turn(bot, slash)
    pressed = await slash.click(turn, label="Load", **player(slash))
    assert pressed.ephemeral and pressed.content == (
        "Quill loads the light crossbow, giving up the attack."
    )
    await next_players_turn(bot, slash)
    assert not (await shoot(bot, slash, "Light crossbow")).ephemeral
    await dpytest.empty_queue()


async def test_outside_a_tracked_fight_loading_is_free(bot: TableBot, slash: SlashHarness) -> None:
    await crossbowman(bot, slash)
    for _ in range(3):
        assert not (await shoot(bot, slash, "Light crossbow")).ephemeral
    await dpytest.empty_queue()


async def test_an_unloaded_crossbow_stays_unloaded_across_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await crossbowman(first, slash)
    await players_turn(first, slash)
    await shoot(first, slash, "Light crossbow")

    second, again = await restart.restart()
    await next_players_turn(second, again)
    scripted = script(second, 5, 5, 3)
    refused(await again.run("attack", target="Gob", weapon="Light crossbow", **player(again)),
            UNLOADED)  # fmt: skip
    assert scripted.requests == []
    await again.run("init act", action="load", **player(again))
    await next_players_turn(second, again)
    assert not (await shoot(second, again, "Light crossbow")).ephemeral
