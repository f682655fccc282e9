"""Secret rolls reach the GM with the member cache empty, as in production.

The slash harness takes every member out of the cache while the bot handles an
interaction, so ``role.members``, ``guild.owner`` and ``guild.get_member`` find nobody:
the GM must come from their own earlier commands or from REST.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test as dpytest

from bot.client import TableBot
from bot.delivery.secret_rolls import SECRET_ROLL_RULING
from bot.rules.dice_source import ScriptedDice
from bot.storage.campaigns import CampaignRepository
from bot.storage.gm_members import GmMemberRepository
from tests.support.slash import SlashHarness
from tests.support.slash_channel import SentMessage


def dm_recipients(bot: TableBot, sends: list[SentMessage]) -> list[int]:
    """The user each direct message among ``sends`` went to, in order."""
    out = []
    for sent in sends:
        channel = bot.get_channel(sent.channel_id)
        if isinstance(channel, discord.DMChannel) and channel.recipient is not None:
            out.append(channel.recipient.id)
    return out


async def remembered(bot: TableBot, guild_id: int) -> list[int]:
    async with bot.db.read() as conn:
        return await GmMemberRepository(conn).recent(guild_id, 10)


def server_error() -> discord.DiscordServerError:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    return discord.DiscordServerError(response, "upstream connect error")  # type: ignore[arg-type]


def fail_sends_to(bot: TableBot, channel_id: int, times: int) -> list[int]:
    """The next ``times`` posts in ``channel_id`` fail with a 503; returns the failure log."""
    http: Any = bot.http
    original = http.send_message
    failed: list[int] = []

    async def send_message(target: int, *, params: Any) -> Any:
        # dpytest's fake send reads `channel` from its caller's locals (see slash_channel).
        channel = sys._getframe(1).f_locals.get("channel")  # noqa: F841
        if int(target) == channel_id and len(failed) < times:
            failed.append(int(target))
            raise server_error()
        return await original(target, params=params)

    http.send_message = send_message
    return failed


async def test_without_a_known_gm_the_owner_is_fetched_and_messaged(
    bot: TableBot, slash: SlashHarness
) -> None:
    owner, player = slash.members[0], slash.members[1]
    slash.guild.owner_id = owner.id
    bot.dice = ScriptedDice([9])
    result = await slash.run("roll", expression="1d20", secret=True, user=player)
    assert result.ephemeral
    assert "= **9**" in result.content and "sent to the GM by direct message" in result.content
    (dm,) = [m for m in result.channel_messages if m.channel_id != slash.channel.id]
    assert dm_recipients(bot, [dm]) == [owner.id]
    assert "= **9**" in dm.payload["content"]
    assert dm.payload["allowed_mentions"] == {"parse": []}
    await dpytest.empty_queue()


async def test_a_gm_seen_using_a_command_gets_the_secret_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    owner, gm, player = slash.members
    slash.guild.owner_id = owner.id
    role = slash.make_role("Game Master")
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_role_id=role.id)
    await slash.run("campaign show", user=gm, roles=[role])  # the GM shows up once
    assert await remembered(bot, slash.guild.id) == [gm.id]
    await slash.run("campaign show", user=player)  # a player is not remembered
    assert await remembered(bot, slash.guild.id) == [gm.id]
    await dpytest.add_role(gm, role)  # the GM holds the role when the bot checks over REST
    bot.dice = ScriptedDice([14])
    result = await slash.run("roll", expression="1d20 sneak", secret=True, user=player)
    assert "sent to the GM by direct message" in result.content
    sends = [m for m in result.channel_messages if m.channel_id != slash.channel.id]
    assert dm_recipients(bot, sends) == [gm.id]  # the GM, not the owner
    await dpytest.empty_queue()


async def test_a_gm_who_lost_the_role_is_forgotten(bot: TableBot, slash: SlashHarness) -> None:
    owner, gm, player = slash.members
    slash.guild.owner_id = owner.id
    role = slash.make_role("Game Master")
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_role_id=role.id)
    await slash.run("campaign show", user=gm, roles=[role])
    assert await remembered(bot, slash.guild.id) == [gm.id]
    # Over REST the member no longer holds the GM role (it was never added in dpytest's
    # guild): the DM goes to the owner and the stale entry is dropped.
    bot.dice = ScriptedDice([3])
    result = await slash.run("roll", expression="1d20", secret=True, user=player)
    sends = [m for m in result.channel_messages if m.channel_id != slash.channel.id]
    assert dm_recipients(bot, sends) == [owner.id]
    assert await remembered(bot, slash.guild.id) == []
    # Seen again without the role (as a player), a re-remembered GM is crossed off too.
    await slash.run("campaign show", user=gm, roles=[role])
    assert await remembered(bot, slash.guild.id) == [gm.id]
    await slash.run("campaign show", user=gm, manage_guild=False)
    assert await remembered(bot, slash.guild.id) == []
    await dpytest.empty_queue()


async def test_one_503_on_the_gm_channel_is_retried(bot: TableBot, slash: SlashHarness) -> None:
    gm_channel = slash.channel
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_channel_id=gm_channel.id)
    failed = fail_sends_to(bot, gm_channel.id, times=1)
    bot.dice = ScriptedDice([17])
    result = await slash.run("roll", expression="1d20", secret=True)
    assert failed == [gm_channel.id]
    assert f"shown to the GM in <#{gm_channel.id}>" in result.content
    posts = [m for m in result.channel_messages if m.channel_id == gm_channel.id]
    assert [m.error is None for m in posts] == [True]  # the failed try never reached dpytest
    assert "= **17**" in posts[0].payload["content"]
    await dpytest.empty_queue()


async def test_a_gm_channel_that_keeps_failing_falls_back_to_a_dm(
    bot: TableBot, slash: SlashHarness
) -> None:
    owner, player = slash.members[0], slash.members[1]
    slash.guild.owner_id = owner.id
    gm_channel = slash.channel
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_channel_id=gm_channel.id)
    failed = fail_sends_to(bot, gm_channel.id, times=99)
    bot.dice = ScriptedDice([6])
    result = await slash.run("roll", expression="1d20", secret=True, user=player)
    assert len(failed) == 3  # three tries, then the direct message
    assert "sent to the GM by direct message" in result.content
    sends = [m for m in result.channel_messages if m.channel_id != gm_channel.id]
    assert dm_recipients(bot, sends) == [owner.id]
    await dpytest.empty_queue()


async def test_nothing_delivered_says_so_without_blaming_a_missing_channel(
    bot: TableBot, slash: SlashHarness
) -> None:
    gm_channel = slash.channel
    slash.guild.owner_id = 1  # an owner Discord doesn't know: no DM possible
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_channel_id=gm_channel.id)
    fail_sends_to(bot, gm_channel.id, times=99)
    bot.dice = ScriptedDice([6])
    result = await slash.run("roll", expression="1d20", secret=True, user=slash.members[1])
    assert f"I couldn't post in <#{gm_channel.id}>" in result.content
    assert "/campaign set gm_channel" not in result.content
    await dpytest.empty_queue()


async def test_help_and_readme_say_who_receives_a_secret_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    for name in ("roll", "campaign set"):
        result = await slash.run("help", command=name)
        rulings = " ".join(f["value"] for e in result.embeds for f in e.get("fields", []))
        assert SECRET_ROLL_RULING in rulings, name
    readme = " ".join((Path(__file__).parents[2] / "docs" / "campaign.md").read_text().split())
    assert "by direct message to the GMs the bot has seen use a command" in readme
    assert "or to the server owner when it has seen none" in readme
    await dpytest.empty_queue()
