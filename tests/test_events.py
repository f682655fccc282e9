"""bot.delivery.events: listeners are told at once, without a task per listener."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.delivery.events import notify_characters_changed


class FakeBot:
    """What ``tell_now`` reads of a commands.Bot: its listeners and ``wait_for`` futures."""

    def __init__(self) -> None:
        self.extra_events: dict[str, list[Any]] = {}
        self._listeners: dict[str, list[Any]] = {}
        self.dispatched: list[tuple[Any, ...]] = []

    def dispatch(self, event: str, /, *args: object) -> None:
        self.dispatched.append((event, *args))


async def test_a_listener_that_never_suspends_runs_before_the_notice_returns() -> None:
    bot, heard = FakeBot(), []

    async def listener(guild_id: int, ids: tuple[int, ...]) -> None:
        heard.append((guild_id, ids))

    bot.extra_events["on_characters_changed"] = [listener]
    before = asyncio.all_tasks()
    notify_characters_changed(bot, 7, [3, None, 1, 3])
    assert heard == [(7, (1, 3))]
    assert asyncio.all_tasks() == before  # no task started
    assert bot.dispatched == []


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_a_listener_that_suspends_goes_on_as_a_task() -> None:
    bot, heard = FakeBot(), []

    async def listener(guild_id: int, ids: tuple[int, ...]) -> None:
        heard.append("start")
        await asyncio.sleep(0.01)
        heard.append("end")

    bot.extra_events["on_characters_changed"] = [listener]
    notify_characters_changed(bot, 7, [1])
    assert heard == ["start"]
    tasks = [t for t in asyncio.all_tasks() if "characters_changed" in t.get_name()]
    assert len(tasks) == 1
    await tasks[0]
    assert heard == ["start", "end"]


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_failing_listeners_are_logged_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot, heard = FakeBot(), []

    async def fails_at_once(guild_id: int, ids: tuple[int, ...]) -> None:
        raise ValueError("at once")

    async def fails_later(guild_id: int, ids: tuple[int, ...]) -> None:
        await asyncio.sleep(0)
        raise ValueError("later")

    async def works(guild_id: int, ids: tuple[int, ...]) -> None:
        heard.append(ids)

    bot.extra_events["on_characters_changed"] = [fails_at_once, fails_later, works]
    with caplog.at_level(logging.ERROR, logger="bot.delivery.events"):
        notify_characters_changed(bot, 7, [2])
        await asyncio.sleep(0.01)
    assert heard == [(2,)]
    failures = [r.exc_info[1] for r in caplog.records if r.exc_info]
    assert sorted(str(e) for e in failures) == ["at once", "later"]


@pytest.mark.looptime  # (timers fire in the loop's time: no waiting)
async def test_a_cancelled_listener_task_sees_the_cancellation() -> None:
    bot, seen = FakeBot(), []

    async def listener(guild_id: int, ids: tuple[int, ...]) -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    bot.extra_events["on_characters_changed"] = [listener]
    notify_characters_changed(bot, 7, [1])
    (task,) = [t for t in asyncio.all_tasks() if "characters_changed" in t.get_name()]
    await asyncio.sleep(0)  # the task takes over the sleep
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == ["cancelled"]


async def test_a_wait_for_on_the_event_still_goes_through_dispatch() -> None:
    bot = FakeBot()
    bot._listeners["characters_changed"] = [object()]
    notify_characters_changed(bot, 7, [1])
    assert bot.dispatched == [("characters_changed", 7, (1,))]


async def test_nothing_is_told_when_no_character_was_written() -> None:
    bot, heard = FakeBot(), []

    async def listener(guild_id: int, ids: tuple[int, ...]) -> None:
        heard.append(ids)

    bot.extra_events["on_characters_changed"] = [listener]
    notify_characters_changed(bot, 7, [None])
    assert heard == [] and bot.dispatched == []
