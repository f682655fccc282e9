"""What a stale client or a misbehaving Discord sends, answered through the slash harness:
stale commands and buttons, forged button ids, expired interactions, failed pins."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.interactions.component_guard import FORGED_BUTTON, GONE_BUTTON, STALE_BUTTON
from bot.interactions.error_handler import STALE_COMMAND
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import RollLogRepository
from bot.tracker.pinning import MISSING_PIN_PERMISSION
from tests.cogs.test_check import make_character
from tests.cogs.test_init_commands import assert_tracker_matches, begin_with_party, gm, stored
from tests.cogs.test_roll_buttons import custom_id, fresh, set_points
from tests.support.slash import SlashHarness


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="")
    body = {"code": code, "message": "injected"}
    if status == 403:
        return discord.Forbidden(response, body)  # type: ignore[arg-type]
    return discord.DiscordServerError(response, body)  # type: ignore[arg-type]


class PinFaults:
    """Wraps dpytest's pin endpoint: the next answers in ``script`` are errors."""

    def __init__(self, bot: TableBot, *script: int) -> None:
        self.script = list(script)  # statuses to answer, in order; then success
        self.calls: list[int] = []
        self.pinned: list[int] = []
        http: Any = bot.http
        original = http.pin_message

        async def pin_message(channel_id: int, message_id: int, reason: str | None = None) -> None:
            self.calls.append(message_id)
            if self.script:
                raise http_error(self.script.pop(0))
            await original(channel_id, message_id, reason=reason)
            self.pinned.append(message_id)

        http.pin_message = pin_message


async def allow_pins(slash: SlashHarness) -> None:
    role = slash.make_role("Bot", permissions=discord.Permissions(manage_messages=True))
    await dpytest.add_role(slash.guild.me, role)


def notices(slash: SlashHarness) -> list[str]:
    return [
        m.payload.get("content") or ""
        for m in slash.channel_sends
        if MISSING_PIN_PERMISSION in (m.payload.get("content") or "")
    ]


# --- stale commands and buttons ---------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "options"),
    [
        ("grimoire", []),  # a command the bot no longer has
        ("character summon", []),  # an unknown subcommand
        ("roll", []),  # a required option missing
    ],
    ids=["command", "subcommand", "missing-option"],
)
async def test_a_stale_command_is_answered_privately_and_runs_nothing(
    bot: TableBot,
    slash: SlashHarness,
    caplog: pytest.LogCaptureFixture,
    path: str,
    options: list[dict[str, Any]],
) -> None:
    with caplog.at_level(logging.INFO):
        result = await slash.run_stale(path, options)
    assert result.ephemeral and result.content == STALE_COMMAND
    assert not result.channel_messages
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    async with bot.db.read() as conn:
        assert await RollLogRepository(conn).recent(slash.guild.id) == []
    await dpytest.empty_queue()


async def test_an_unknown_button_is_answered(slash: SlashHarness) -> None:
    result = await slash.click(None, custom_id="tracker:v0:next")
    assert result.ephemeral and result.content == STALE_BUTTON
    await dpytest.empty_queue()


async def test_a_press_of_a_button_gone_from_its_message_is_answered(
    bot: TableBot, slash: SlashHarness
) -> None:
    # discord.py drops a DynamicItem press whose button isn't on the message Discord sends
    # with it (the message was edited to the next revision first): it must get an answer.
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await set_points(bot, mira, hero_points=2)
    bot.dice = ScriptedDice([1, 4, 2, 6])
    result = await slash.run("check", skill="athletics", difficulty="3")
    old = custom_id(result, "Hero reroll")
    bot.dice = ScriptedDice([5, 3])
    await slash.click(result, label="Hero reroll", user=slash.members[0])
    now = slash.adapter.messages[result.message.message_id]
    assert old not in str(now["components"])  # edited to the next revision's buttons
    raced = await slash.click(
        None, custom_id=old, user=slash.members[0], pressed_on={**now, "components": []}
    )
    assert raced.ephemeral and raced.content == GONE_BUTTON
    assert (await fresh(bot, mira)).state.hero_points == 1
    await dpytest.empty_queue()


async def test_a_forged_oversized_button_id_is_refused(
    slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "roll:det:" + "9" * 400 + ":1"
    result = await slash.click(None, custom_id=forged, client_checks=False)
    assert result.ephemeral and result.content == FORGED_BUTTON
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await dpytest.empty_queue()


async def test_a_known_button_still_works(bot: TableBot, slash: SlashHarness) -> None:
    """The guard hands known ids on: a roll's hero reroll reaches its DynamicItem."""
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength")
    bot.dice = ScriptedDice([6, 6, 6])
    pressed = await slash.click(result, label="Hero reroll")
    assert not pressed.ephemeral and "Mira spent a hero point" in pressed.embeds[0]["description"]
    await dpytest.empty_queue()


# --- expired interactions ---------------------------------------------------------------


async def test_an_expired_public_answer_is_posted_in_the_channel(
    bot: TableBot, slash: SlashHarness
) -> None:
    bot.dice = ScriptedDice([13])
    slash.expire_next = True
    result = await slash.run("roll", expression="1d20 perception")
    assert not [r for r in result.responses if r.kind == "callback"]
    (post,) = result.channel_messages
    assert post.channel_id == slash.channel.id
    assert "= **13**" in post.payload["content"]
    assert "came too late" in post.payload["content"]
    assert post.pings_nobody
    async with bot.db.read() as conn:
        assert len(await RollLogRepository(conn).recent(slash.guild.id)) == 1  # applied once
    await dpytest.empty_queue()


async def test_an_expired_private_answer_is_not_made_public(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    slash.guild.owner_id = slash.members[0].id
    bot.dice = ScriptedDice([5])
    slash.expire_next = True
    result = await slash.run("roll", expression="1d20", secret=True, user=slash.members[1])
    public = [m for m in result.channel_messages if m.channel_id == slash.channel.id]
    assert public == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await dpytest.empty_queue()


# --- the tracker's pin ------------------------------------------------------------------


async def test_one_503_on_the_pin_is_retried(bot: TableBot, slash: SlashHarness) -> None:
    await allow_pins(slash)
    faults = PinFaults(bot, 503)
    await slash.run("init begin", **gm(slash))
    record = await stored(bot, slash.channel.id)
    assert faults.calls == [record.tracker_message_id] * 2
    assert faults.pinned == [record.tracker_message_id]
    assert notices(slash) == []
    await dpytest.empty_queue()


async def test_a_pin_that_keeps_failing_is_made_up_on_the_next_change(
    bot: TableBot, slash: SlashHarness
) -> None:
    await allow_pins(slash)
    faults = PinFaults(bot, 503, 503, 503)
    await slash.run("init begin", **gm(slash))
    assert faults.pinned == []
    await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    record = await stored(bot, slash.channel.id)
    assert faults.pinned == [record.tracker_message_id]
    await assert_tracker_matches(bot, slash.channel)
    calls = len(faults.calls)
    await slash.run("init add", name="Orc", hp=9, **gm(slash))
    assert len(faults.calls) == calls  # pinned now: no more pin requests
    await dpytest.empty_queue()


async def test_a_refused_pin_is_told_to_the_gm_once_per_encounter(
    bot: TableBot, slash: SlashHarness
) -> None:
    await allow_pins(slash)  # the cached permissions say yes, Discord says 403
    PinFaults(bot, 403, 403, 403)
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    assert notices(slash) == [MISSING_PIN_PERMISSION]
    for message in slash.channel_sends:
        if message.payload.get("content") == MISSING_PIN_PERMISSION:
            assert message.pings_nobody
    await slash.run("init end", **gm(slash))
    await slash.run("init begin", **gm(slash))  # a new encounter: told again
    assert notices(slash) == [MISSING_PIN_PERMISSION] * 2
    await dpytest.empty_queue()


async def test_no_pin_permission_is_told_without_trying(bot: TableBot, slash: SlashHarness) -> None:
    faults = PinFaults(bot)
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    assert faults.calls == []
    assert notices(slash) == [MISSING_PIN_PERMISSION]
    assert "Pin Messages" in MISSING_PIN_PERMISSION and "Manage Messages" in MISSING_PIN_PERMISSION
    await dpytest.empty_queue()


async def test_an_expired_press_applies_once_and_edits_its_message_in_the_channel(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    # Ruling (bot.delivery.replies.edit_pressed_message): the press's change is saved
    # before its answer; when Discord no longer takes the answer, the message is edited
    # through the channel so the presser and the table still see what happened.
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=2)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength")
    bot.dice = ScriptedDice([6, 6, 6])
    slash.expire_next = True
    pressed = await slash.click(result, label="Hero reroll")
    assert not [r for r in pressed.responses if r.kind == "callback" and r.type == 7]
    assert (await fresh(bot, mira)).state.hero_points == 1  # spent once
    shown = slash.adapter.messages[result.message.message_id]
    assert "Mira spent a hero point" in shown["embeds"][0]["description"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await dpytest.empty_queue()


async def test_an_expired_press_on_a_private_roll_applies_once_and_logs_no_error(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    # A secret roll's buttons are on a private message, which no channel edit reaches:
    # the spend is saved once and the presser sees it when they look again.
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=2)
    bot.dice = ScriptedDice([1, 2, 3])
    result = await slash.run("check", skill="strength", secret=True, user=slash.members[0])
    assert result.ephemeral
    bot.dice = ScriptedDice([6, 6, 6])
    slash.expire_next = True
    await slash.click(result, label="Hero reroll", user=slash.members[0])
    assert (await fresh(bot, mira)).state.hero_points == 1  # spent once
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await dpytest.empty_queue()


async def test_an_expired_end_turn_ends_it_once_and_posts_the_next_turn_in_the_channel(
    bot: TableBot, slash: SlashHarness, caplog: pytest.LogCaptureFixture
) -> None:
    # The press came too late: its turn message is edited through the channel (its
    # buttons gone), and the next turn, which no follow-up of an unanswered interaction
    # could carry, is posted in the channel with its buttons and its ping.
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria 2, Bram 1, Goblin 1
    aria_turn = await slash.run("init next", **gm(slash))
    before = await stored(bot, slash.channel.id)
    slash.expire_next = True
    ended = await slash.click(aria_turn, label="End turn", user=slash.members[0])
    assert not [r for r in ended.responses if r.kind in ("callback", "followup")]
    assert slash.adapter.messages[aria_turn.message.message_id]["components"] == []
    [posted] = [m for m in ended.channel_messages if "**Round 1**" in (m.content or "")]
    assert posted.channel_id == slash.channel.id
    assert posted.content.startswith(f"<@{slash.members[1].id}> **Round 1**")
    assert posted.allowed_mentions["users"] == [str(slash.members[1].id)]
    assert [b["label"] for b in posted.buttons] == [
        "Action 0/2", "Quick action 0/1", "Reaction 0/1", "End turn",
    ]  # fmt: skip
    after = await stored(bot, slash.channel.id)
    assert after.state.turn == before.state.turn + 1 and after.version == before.version + 1
    await assert_tracker_matches(bot, slash.channel)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await dpytest.empty_queue()
