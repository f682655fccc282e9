"""A real browser on the bot's real web server: Debian's headless Chromium, driven by
Selenium, against ``bot.web.server.WebServer`` listening on a free TCP port.

One browser per test module (starting Chromium is most of the cost); each test gets
its own database and server. Selenium's calls block, so the tests make them on a
thread (:func:`call`) while the server answers on the test's event loop.

Skipped, with the reason, only when the binaries are missing (``.ci/run`` installs
them: ``apt-get install chromium chromium-driver``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from bot.web.live import SETTINGS, WATCHER
from bot.web.server import WebServer, build_app
from tests.web.helpers import NOW, Clock

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# The machine's network is closed: nothing of Chromium's own may try to reach out (and
# wait for it), nor need a sandbox or a GPU the container lacks.
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
T = TypeVar("T")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip(f"no {' or '.join(missing)}: apt-get install chromium chromium-driver")
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # (CSP reports: errors)
    # The driver named: Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(10)
    try:
        yield driver
    finally:
        driver.quit()


async def call(function: Callable[..., T], *args: Any) -> T:
    """A blocking Selenium call, off the loop that serves the pages."""
    return await asyncio.to_thread(function, *args)


async def wait_until(
    browser: WebDriver, condition: Callable[[WebDriver], Any], within: float
) -> Any:
    """``condition``'s first truthy answer within ``within`` seconds (polled every 20 ms)."""
    return await call(WebDriverWait(browser, within, poll_frequency=0.02).until, condition)


class Site:
    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.app = server.app

    def url(self, token: str, path: str = "") -> str:
        return f"http://127.0.0.1:{self.server.port}/t/{token}/{path}"


@pytest.fixture
async def site(db: Any) -> AsyncIterator[Site]:
    """The bot's web application on 127.0.0.1, a free port, the test's database."""
    app = build_app(db, clock=Clock(NOW))
    app[SETTINGS].recheck_seconds = 0.3  # (a revoked link's open page notices quickly)
    app[WATCHER].poll_seconds = 0.25  # (the default, said here: the tests time it)
    server = WebServer(app, host="127.0.0.1", port=0)
    await server.start()
    try:
        yield Site(server)
    finally:
        await server.stop()
