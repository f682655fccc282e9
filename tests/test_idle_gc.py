"""Full garbage collections wait for an idle bot (``bot.process.idle_gc``)."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest

from bot.client import TableBot
from bot.process.idle_gc import (
    MIDDLE_THRESHOLD,
    MIN_INTERVAL_SECONDS,
    OLD_THRESHOLD,
    YOUNG_AFTER_REPLY,
    YOUNG_KEY,
    IdleCollector,
)
from tests.support.slash import SlashHarness


@pytest.fixture
def thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_a_full_collection_runs_only_when_idle_due_and_not_too_soon() -> None:
    idle = 0.1
    collector = IdleCollector(lambda: idle)
    later = time.monotonic() + MIN_INTERVAL_SECONDS + 1
    gc.collect()
    gc.collect(1)  # one young collection since the full one: a full one is due
    assert gc.get_count()[2] == 1
    assert not collector.collect_if_idle(now=later)  # a command ran 0.1 s ago
    idle = 1.0
    assert collector.collect_if_idle(now=later)
    assert gc.get_count()[2] == 0
    gc.collect(1)
    assert not collector.collect_if_idle(now=later + 1)  # the last one was a second ago
    assert collector.collect_if_idle(now=later + MIN_INTERVAL_SECONDS + 1)
    assert not collector.collect_if_idle(now=later + 3 * MIN_INTERVAL_SECONDS)  # none due


async def test_start_makes_the_interpreters_own_full_collections_rare(thresholds: None) -> None:
    young, _, _ = gc.get_threshold()
    collector = IdleCollector(lambda: 0.0)
    collector.start()
    try:
        assert gc.get_threshold() == (young, MIDDLE_THRESHOLD, OLD_THRESHOLD)
    finally:
        await collector.stop()


def test_the_middle_generation_is_collected_whenever_the_bot_is_idle() -> None:
    idle = 0.1
    collector = IdleCollector(lambda: idle)
    gc.collect()
    gc.collect(0)  # a young collection: the middle generation holds its survivors
    assert gc.get_count()[1] == 1
    assert not collector.collect_middle_if_idle()  # a command ran 0.1 s ago
    idle = 1.0
    assert collector.collect_middle_if_idle()
    assert gc.get_count()[1] == 0
    assert not collector.collect_middle_if_idle()  # nothing new since


async def test_the_bot_is_not_idle_while_it_handles_a_command(bot: TableBot) -> None:
    async with bot.db.transaction():
        assert bot._idle_seconds() == 0.0
    with bot.followups.busy():
        assert bot._idle_seconds() == 0.0
    assert bot._idle_seconds() > 0.0


def test_a_young_collection_follows_a_command_that_left_many_young_objects(
    thresholds: None,
) -> None:
    scheduled: list[tuple[str, object]] = []

    def schedule(key: str, work: object) -> None:
        scheduled.append((key, work))

    collector = IdleCollector(lambda: 0.0)
    gc.collect()
    kept = [[] for _ in range(YOUNG_AFTER_REPLY + 50)]  # young containers still alive
    assert not collector.collect_young_soon(schedule)  # not started: the interpreter's way
    assert scheduled == []
    collector._task = object()  # type: ignore[assignment]  # (as ``start`` leaves it)
    assert collector.collect_young_soon(schedule)
    assert [key for key, _ in scheduled] == [YOUNG_KEY]
    del kept


async def test_the_young_collection_scheduled_empties_the_young_generation() -> None:
    scheduled: list[object] = []
    collector = IdleCollector(lambda: 0.0)
    collector._task = object()  # type: ignore[assignment]
    gc.collect()
    assert not collector.collect_young_soon(lambda key, work: scheduled.append(work))
    kept = [[] for _ in range(YOUNG_AFTER_REPLY + 50)]
    assert gc.get_count()[0] >= YOUNG_AFTER_REPLY
    assert collector.collect_young_soon(lambda key, work: scheduled.append(work))
    middle = gc.get_count()[1]
    await scheduled[-1]()  # type: ignore[operator]
    assert gc.get_count()[0] < YOUNG_AFTER_REPLY // 5
    assert gc.get_count()[1] == middle + 1  # one young collection, no more
    del kept


async def test_a_started_bot_collects_the_young_generation_after_the_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    collections: list[tuple[int, bool]] = []  # (generation, inside a command)

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append((info["generation"], bot.followups.handling))

    bot.idle_gc._task = object()  # type: ignore[assignment]  # started (without its task)
    gc.callbacks.append(seen)
    try:
        await slash.run("roll", expression="1d20")  # (the first one fills caches)
        gc.collect()
        kept = [[] for _ in range(YOUNG_AFTER_REPLY + 10)]
        collections.clear()
        result = await slash.run("roll", expression="1d20")  # (drains the follow-ups)
        assert result.message is not None
        assert collections == [(0, False)]  # one young collection, after the command
        assert gc.get_count()[0] < YOUNG_AFTER_REPLY
        del kept
    finally:
        gc.callbacks.remove(seen)
        bot.idle_gc._task = None
