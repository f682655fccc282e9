"""Full garbage collections wait for an idle bot (``bot.idle_gc``)."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest

from bot.client import TableBot
from bot.idle_gc import MIDDLE_THRESHOLD, MIN_INTERVAL_SECONDS, OLD_THRESHOLD, IdleCollector


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
