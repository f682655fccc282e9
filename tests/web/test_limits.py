"""The per-process stream counter (bot.web.limits.StreamLimit)."""

from __future__ import annotations

import pytest
from aiohttp import web

from bot.web.limits import MAX_STREAMS, STREAMS_FULL, StreamLimit


def test_default_is_three_hundred() -> None:
    assert StreamLimit().max == MAX_STREAMS == 300


def test_counts_up_to_the_max_then_refuses() -> None:
    limit = StreamLimit(max=2)
    assert limit.try_open() and limit.try_open()
    assert not limit.try_open()
    assert limit.open == 2
    limit.release()
    assert limit.try_open()
    assert limit.open == 2


def test_hold_releases_when_the_stream_ends_even_by_error() -> None:
    limit = StreamLimit(max=1)
    with pytest.raises(ConnectionResetError), limit.hold():
        assert limit.open == 1
        raise ConnectionResetError
    assert limit.open == 0


def test_hold_beyond_the_max_is_a_polite_503() -> None:
    limit = StreamLimit(max=1)
    with limit.hold():
        with pytest.raises(web.HTTPServiceUnavailable) as refused, limit.hold():
            pass
        assert limit.open == 1
    assert refused.value.status == 503
    assert refused.value.text == STREAMS_FULL
    assert STREAMS_FULL.count("\n") == 1 and STREAMS_FULL.endswith(".\n")
    assert refused.value.headers["Retry-After"] == "30"


def test_release_without_open_is_a_bug() -> None:
    with pytest.raises(RuntimeError):
        StreamLimit().release()
