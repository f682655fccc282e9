"""/init act stand up (ruling stand-from-prone): half the round's movement spent on the
tracker and the linked sheet's prone cleared, in one transaction; refused in one sentence
when not prone or short of movement; a combatant without a sheet just spends the feet."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.twod10.characters import TwoD10Condition
from bot.storage.twod10.encounters import TwoD10EncounterRepository
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.support.slash import SlashHarness, SlashResult

# Aria moves 25 ft (her weapons weigh 8: 2 EP, toughness 0 ignores one): standing costs 13,
# half of 25 rounded up.
STOOD = "Aria stands up from prone, spending 13 ft (12 ft left)."


async def players_turn(bot: TableBot, slash: SlashHarness, *, prone: bool = True) -> SlashResult:
    """``table``'s Aria (prone) against Gob, round 1, the players' turn (its message)."""
    await table(bot, slash)
    if prone:
        await slash.run("condition add", target="Aria", condition="prone", **gm(slash))
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)  # the GM's d6: 1, the players go first
    return await slash.run("init next", **gm(slash))


async def test_standing_up_spends_half_the_movement_and_clears_prone(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    stood = await slash.run("init act", action="stand up", **player(slash))
    assert not stood.ephemeral and stood.content == STOOD
    assert not (await sheet(bot, "Aria")).has(TwoD10Condition.PRONE)
    assert (await stored(bot, slash.channel.id)).encounter.state(1).feet_moved == 13
    assert (
        await tracker_line(bot, slash, "Aria") == "**Aria** (finesse +2) · HP 15/15 · 🏃 13/25 ft"
    )
    await dpytest.empty_queue()


async def test_standing_up_is_refused_when_not_prone_or_short_of_feet(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash, prone=False)
    before = await stored(bot, slash.channel.id)
    refused(await slash.run("init act", action="stand up", **player(slash)),
            "Aria isn't prone: only a prone combatant stands up.")  # fmt: skip
    assert (await stored(bot, slash.channel.id)).version == before.version
    await slash.run("condition add", target="Aria", condition="prone", **gm(slash))
    await slash.run("init act", action="movement", feet=20, **player(slash))
    prone = await sheet(bot, "Aria")
    refused(await slash.run("init act", action="stand up", **player(slash)),
            "Aria needs 13 feet of movement to stand up and has 5 left this turn.")  # fmt: skip
    assert await sheet(bot, "Aria") == prone  # still prone, not written
    assert (await stored(bot, slash.channel.id)).encounter.state(1).feet_moved == 20
    await dpytest.empty_queue()


async def test_a_combatant_without_a_sheet_spends_the_feet(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    await slash.run("init add", name="Wolf", **gm(slash))  # a quick NPC: no sheet
    await slash.run("init next", **gm(slash))  # the end of the players' turn
    await slash.run("init next", **gm(slash))  # the NPCs' turn
    stood = await slash.run("init act", action="stand up", name="Wolf", **gm(slash))
    assert stood.content == "Wolf stands up from prone, spending 15 ft (15 ft left)."
    await dpytest.empty_queue()


async def test_the_turns_stand_up_button(bot: TableBot, slash: SlashHarness) -> None:
    turn = await players_turn(bot, slash)
    pressed = await slash.click(turn, label="Stand up", **player(slash))
    assert pressed.ephemeral and pressed.content == STOOD
    assert not (await sheet(bot, "Aria")).has(TwoD10Condition.PRONE)
    await dpytest.empty_queue()


async def test_a_tracker_that_fails_to_save_leaves_the_sheet_prone(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await players_turn(bot, slash)
    before = await stored(bot, slash.channel.id)

    async def failing(*_: Any, **__: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(TwoD10EncounterRepository, "save", failing)
    failed = await slash.run("init act", action="stand up", **player(slash))
    assert failed.ephemeral
    monkeypatch.undo()
    assert (await sheet(bot, "Aria")).has(TwoD10Condition.PRONE)  # rolled back with it
    assert (await stored(bot, slash.channel.id)).version == before.version
    await dpytest.empty_queue()
