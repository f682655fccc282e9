"""Fixtures for the web pages: the application on the test's SQLite file, its client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.server import build_app, runner_options
from tests.web.helpers import NOW, Clock


@pytest.fixture
def clock() -> Clock:
    return Clock(NOW)


@pytest.fixture
async def web_client(db: Any, clock: Clock) -> AsyncIterator[TestClient]:
    """aiohttp's test client on the pages of ``db`` (no bot: guild names unknown)."""
    async with TestClient(TestServer(build_app(db, clock=clock), **runner_options())) as client:
        yield client
