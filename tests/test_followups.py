"""The work a command leaves for after its reply (``bot.delivery.followups``): coalesced per key,
ordered, held back while a command runs, retried when it fails, drained on demand."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.delivery.followups import FollowUps
from bot.tracker.messages import TrackerMessages, TrackerView
from tests.support.slash import SlashHarness
from tests.test_tracker_messages import FakeChannel


async def test_a_burst_while_work_runs_makes_one_more_run_with_the_newest_work() -> None:
    followups = FollowUps()
    ran: list[str] = []
    release = asyncio.Event()

    def work(name: str) -> Any:
        async def run() -> None:
            ran.append(name)
            if name == "first":
                await release.wait()

        return run

    followups.schedule("key", work("first"))
    await asyncio.sleep(0)  # the first run starts and waits
    for name in ("second", "third", "fourth"):
        followups.schedule("key", work(name))
    assert followups.pending == 1
    release.set()
    await followups.drain()
    assert ran == ["first", "fourth"]  # never two at once; the waiting ones coalesced
    assert followups.pending == 0


async def test_keys_run_independently_and_drain_waits_for_work_scheduled_by_work() -> None:
    followups = FollowUps()
    ran: list[str] = []

    async def inner() -> None:
        ran.append("inner")

    async def outer() -> None:
        ran.append("outer")
        followups.schedule("other", inner)

    followups.schedule("key", outer)
    await followups.drain()
    assert ran == ["outer", "inner"]


async def test_work_waits_while_a_command_is_handled() -> None:
    followups = FollowUps()
    ran: list[str] = []

    async def work() -> None:
        ran.append("work")

    with followups.busy():
        followups.schedule("key", work)
        for _ in range(5):
            await asyncio.sleep(0)
        assert ran == []  # the reply first
    await followups.drain()
    assert ran == ["work"]


async def test_work_scheduled_during_a_command_starts_no_task_until_it_ends() -> None:
    # A command pays nothing for the work it leaves: no task starts while it runs.
    followups = FollowUps()
    ran: list[str] = []

    async def work() -> None:
        ran.append("work")

    with followups.busy():
        followups.schedule("key", work)
        followups.schedule("key", work)  # (coalesced)
        assert followups.pending == 1
        assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("followup")]
    await asyncio.sleep(0)
    assert ran == ["work"]
    assert followups.pending == 0


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_work_held_by_a_long_command_runs_after_the_longest_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("bot.delivery.followups.MAX_HOLD_SECONDS", 0.05)
    followups = FollowUps()
    ran: list[str] = []

    async def work() -> None:
        ran.append("work")

    with followups.busy():
        followups.schedule("key", work)
        await asyncio.sleep(0.02)
        assert ran == []
        await asyncio.sleep(0.1)  # held no longer than MAX_HOLD_SECONDS, not twice that
        assert ran == ["work"]


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_failed_work_is_logged_and_retried_after_a_pause(caplog: Any) -> None:
    followups = FollowUps(retry_delays=(0.01, 0.01))
    calls: list[int] = []

    async def flaky() -> bool:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("Discord broke")
        return len(calls) >= 3  # the second run reports it didn't take (False)

    with caplog.at_level(logging.ERROR):
        followups.schedule("key", flaky)
        await followups.drain()
    assert len(calls) == 1
    assert any("follow-up work key failed" in r.getMessage() for r in caplog.records)
    for _ in range(50):  # the retries' pauses are timers, not waited for by drain
        await asyncio.sleep(0.01)
        await followups.drain()
        if len(calls) == 3:
            break
    assert len(calls) == 3


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_work_that_keeps_failing_is_given_up_after_its_retries(caplog: Any) -> None:
    followups = FollowUps(retry_delays=(0.01,))
    calls: list[int] = []

    async def broken() -> None:
        calls.append(1)
        raise RuntimeError("still broken")

    with caplog.at_level(logging.WARNING):
        followups.schedule("key", broken)
        for _ in range(10):
            await asyncio.sleep(0.01)
            await followups.drain()
    assert len(calls) == 2
    assert any("given up" in r.getMessage() for r in caplog.records)


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_newer_work_replaces_a_retry() -> None:
    followups = FollowUps(retry_delays=(0.05,))
    ran: list[str] = []

    async def broken() -> None:
        ran.append("broken")
        raise RuntimeError("no")

    async def fixed() -> None:
        ran.append("fixed")

    followups.schedule("key", broken)
    await followups.drain()
    followups.schedule("key", fixed)
    await followups.drain()
    await asyncio.sleep(0.08)
    await followups.drain()
    assert ran == ["broken", "fixed"]


async def test_close_finishes_queued_work_then_takes_no_more() -> None:
    followups = FollowUps()
    ran: list[str] = []

    async def work() -> None:
        ran.append("work")

    followups.schedule("key", work)
    await followups.close()
    followups.schedule("key", work)
    await followups.drain()
    assert ran == ["work"]


async def test_refresh_soon_coalesces_a_burst_into_one_edit_of_the_newest_state() -> None:
    followups = FollowUps()
    trackers = TrackerMessages(_store, followups)
    channel = FakeChannel()
    version = 1
    loads = 0

    async def load() -> TrackerView:
        nonlocal loads
        loads += 1
        return TrackerView(7, version, None, discord.Embed(title=f"v{version}"))

    with followups.busy():  # a command is running: three changes, nothing shown yet
        for version in (1, 2, 3):  # noqa: B007  (load reads it when it runs)
            trackers.refresh_soon(channel, load)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        assert channel.sends == 0
    await followups.drain()
    assert loads == 1
    assert channel.sends == 1
    assert channel.messages[101].embed is not None
    assert channel.messages[101].embed.title == "v3"


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_a_refused_post_is_retried_later() -> None:
    followups = FollowUps(retry_delays=(0.01,))
    trackers = TrackerMessages(_store, followups)
    channel = RefusingOnceChannel()

    async def load() -> TrackerView:
        return TrackerView(7, 1, None, discord.Embed(title="Round 1"))

    trackers.refresh_soon(channel, load)  # type: ignore[arg-type]
    await followups.drain()
    assert channel.sends == 0
    await asyncio.sleep(0.03)
    await followups.drain()
    assert channel.sends == 1


class RefusingOnceChannel(FakeChannel):
    def __init__(self) -> None:
        super().__init__()
        self.refused = False

    async def send(self, *, embed: discord.Embed, allowed_mentions: Any) -> Any:
        if not self.refused:
            self.refused = True
            response = type("R", (), {"status": 500, "reason": "x"})()
            raise discord.DiscordServerError(response, "try later")  # type: ignore[arg-type]
        return await super().send(embed=embed, allowed_mentions=allowed_mentions)


async def _store(encounter_id: int, message_id: int) -> None:
    return None


@pytest.mark.usefixtures("bot")
async def test_a_command_replies_before_the_tracker_is_edited(
    bot: TableBot, slash: SlashHarness
) -> None:
    gm = {"manage_guild": True, "user": slash.members[0]}
    await slash.run("init begin", **gm)
    await slash.run("init add", name="Goblin", **gm)
    slash.drain_followups = False
    with bot.followups.busy():  # (as the bench does: held until the harness is done)
        result = await slash.run("init next", **gm)
    assert result.content or result.embeds  # the reply is out
    assert bot.followups.pending == 1  # the tracker edit waits
    await bot.followups.drain()
    assert bot.followups.pending == 0
    slash.drain_followups = True
    await dpytest.empty_queue()


async def test_changed_characters_are_followed_only_by_the_guilds_own_ruleset(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    followed: list[str] = []
    hocs: Any = bot.get_cog("Initiative")
    twod10: Any = bot.get_cog("2d10 initiative")

    def recorder(name: str) -> Any:
        async def characters_changed(guild_id: int, ids: Any) -> None:
            followed.append(f"{name} {list(ids)}")

        return characters_changed

    monkeypatch.setattr(hocs.service, "characters_changed", recorder("hocs"))
    monkeypatch.setattr(twod10.service, "characters_changed", recorder("2d10"))
    guild_id = slash.guild.id  # no campaign yet: it plays HOCS
    await hocs.on_characters_changed(guild_id, (3,))
    await twod10.on_characters_changed(guild_id, (3,))
    await hocs.on_characters_changed(guild_id, (1, 2))  # coalesced with the first
    await twod10.on_characters_changed(guild_id, (1, 2))
    await bot.followups.drain()
    assert followed == ["hocs [1, 2, 3]"]
    await dpytest.empty_queue()
