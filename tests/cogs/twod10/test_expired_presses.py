"""A 2d10 tracker button pressed after its interaction expired (Discord's 10062): the
press applies once, the tracker is redrawn, and the presser is told through the channel
(a private answer) or its message is edited there (the dying prompt), nothing raised
into the log (bot.delivery.replies: tell_presser, edit_pressed_message); a late press
that is refused is told there too."""

from __future__ import annotations

import logging

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.initiative.model import Action
from bot.storage.roll_log import RollLogRepository
from tests.cogs.twod10.rounds_support import gm, player, stored, tracker_line
from tests.cogs.twod10.test_rounds_initiative import setup_fight
from tests.cogs.twod10.test_tracker_dying import dying_mira, players_turn, sheet_now
from tests.support.slash import SlashHarness, SlashResult

TOO_LATE = "Discord no longer took this button's answer (it came too late)."


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def told_in_channel(slash: SlashHarness, pressed: SlashResult) -> str:
    """The one post the expired press made in the channel, naming the presser unpinged."""
    assert not [r for r in pressed.responses if r.kind == "callback"]  # Discord took none
    [post] = [m for m in pressed.channel_messages if TOO_LATE in (m.payload.get("content") or "")]
    assert post.channel_id == slash.channel.id and post.pings_nobody
    content = post.payload["content"]
    assert content.startswith(f"-# For <@{slash.members[0].id}>: {TOO_LATE}\n")
    return content.split("\n", 1)[1]


async def test_an_expired_turn_button_marks_once_redraws_and_tells_the_channel(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))  # round 1's declarations
    bot.dice = ScriptedDice([1])  # the GM's d6: 1-3, the players go first
    turn = await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    assert await tracker_line(bot, slash, "Mira") == "**Mira** (finesse +2) · HP 20/20"
    slash.expire_next = True
    pressed = await slash.click(turn, label="Attack", **player(slash))
    assert told_in_channel(slash, pressed) == "Mira: attack."
    after = await stored(bot, slash.channel.id)
    assert after.version == before.version + 1  # applied once
    assert after.encounter.state(1).actions == frozenset({Action.ATTACK})
    assert await tracker_line(bot, slash, "Mira") == "**Mira** (finesse +2) · HP 20/20 · ⚔️ attack"
    no_errors(caplog)
    # A press in time still answers privately, as before.
    marked = await slash.click(turn, label="Interact", **player(slash))
    assert marked.ephemeral and marked.content == "Mira: interact."
    await dpytest.empty_queue()


async def test_an_expired_reaction_button_reacts_once_redraws_and_tells_the_channel(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))  # round 1's declarations
    bot.dice = ScriptedDice([4])  # the GM's d6: 4-6, the NPCs go first
    await slash.run("init next", **gm(slash))
    window = await slash.run("init next", **gm(slash))  # the end of the NPCs' turn
    before = await stored(bot, slash.channel.id)
    slash.expire_next = True
    pressed = await slash.click(window, label="Undeclared reaction", **player(slash))
    assert told_in_channel(slash, pressed) == "Mira uses their undeclared reaction."
    after = await stored(bot, slash.channel.id)
    assert after.version == before.version + 1 and after.encounter.state(1).reaction_used
    reacted = "**Mira** (finesse +2) · HP 20/20 · reaction used"
    assert await tracker_line(bot, slash, "Mira") == reacted
    no_errors(caplog)
    # Pressed again: the reaction is spent, refused privately, nothing written.
    again = await slash.click(window, label="Undeclared reaction", **player(slash))
    assert again.ephemeral
    assert (await stored(bot, slash.channel.id)).version == after.version
    await dpytest.empty_queue()


async def test_an_expired_dying_button_rolls_once_and_edits_its_prompt_in_the_channel(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    mira = await dying_mira(bot, slash, -1)
    _, prompt = await players_turn(bot, slash)
    # 2d10 [3, 4] + toughness 2 + current HP -1 = 8: below 10, unconscious and -1 HP.
    bot.dice = ScriptedDice([3, 4])
    slash.expire_next = True
    pressed = await slash.click(prompt, label="Roll the dying roll", **player(slash))
    assert not [r for r in pressed.responses if r.kind == "callback"]
    shown = slash.adapter.messages[prompt.message_id or 0]  # as the channel now shows it
    assert shown["content"] == "**Mira**'s dying roll (round 1) is made."
    assert "2d10 [3, 4] = 7" in shown["embeds"][0]["description"]
    assert shown["components"] == []  # its button gone: nobody rolls it again
    assert (await sheet_now(bot, mira)).hp == -2  # rolled once
    async with bot.db.read() as conn:
        logged = await RollLogRepository(conn).recent(slash.guild.id, limit=5)
    assert [(r.kind, r.result["faces"], r.total) for r in logged if r.kind == "2d10-dying"] == [
        ("2d10-dying", [3, 4], 8)
    ]
    assert (await tracker_line(bot, slash, "Mira")).startswith("**Mira** (finesse +1) · HP -2/25")
    no_errors(caplog)
    await dpytest.empty_queue()


async def test_an_expired_press_that_is_refused_is_told_in_the_channel_too(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await slash.run("init next", **gm(slash))  # round 1's declarations
    bot.dice = ScriptedDice([1])  # the players go first
    turn = await slash.run("init next", **gm(slash))
    await slash.click(turn, label="Attack", **player(slash))
    before = await stored(bot, slash.channel.id)
    slash.expire_next = True  # the same button again, late: refused, and never silent
    pressed = await slash.click(turn, label="Attack", **player(slash))
    assert told_in_channel(slash, pressed) == "Mira has already used their attack this turn."
    after = await stored(bot, slash.channel.id)
    assert after.version == before.version  # nothing written
    no_errors(caplog)
    await dpytest.empty_queue()
