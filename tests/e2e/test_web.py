"""End to end (issue 28): ``python -m bot`` over the emulator's network path with the web
server on; the links ``/web links`` gives are opened in headless Chromium as the GM, a
player and an overlay; the tracker is advanced from Discord and the open overlay follows
without a reload; a hidden NPC's HP never reaches the player's page; a revoked link is
refused."""

from __future__ import annotations

import os
import re
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.conftest import browser, call, wait_until  # noqa: F401 (the fixture)
from tests.e2e.conftest import EMU_DIR, ROOT, SPEC
from tests.e2e.test_platform import no_tracebacks

LINK = re.compile(r"\[(Table|GM screen|Overlay)\]\((http://[^)\s]+)\)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[Any, Any, int]]:
    """The emulator and ``python -m bot`` with WEB_PORT set (the e2e ``table``, plus web)."""
    if not (EMU_DIR / "discord_emu.py").is_file() or not SPEC.is_file():
        pytest.skip("../shared/discord-emulator or ../shared/discord-api-spec is absent")
    if str(EMU_DIR) not in sys.path:
        sys.path.insert(0, str(EMU_DIR))
    os.environ.setdefault("DISCORD_SPEC_PATH", str(SPEC))
    from discord_emu import DiscordEmu  # type: ignore[import-not-found]
    from emu_run import BotProcess, bot_env  # type: ignore[import-not-found]

    emu = DiscordEmu()
    port = await emu.start()
    web_port = free_port()
    env = bot_env(port, str(tmp_path)) | {"WEB_PORT": str(web_port)}
    bot = BotProcess(emu, env, log_path=str(tmp_path / "bot.log"), cwd=str(ROOT))
    try:
        await bot.start()
        yield emu, bot, web_port
    finally:
        await bot.kill()
        bot.log.close()
        await emu.stop()


def links(emu: Any, rec: dict[str, Any]) -> dict[str, str]:
    return dict(LINK.findall(emu.texts(rec)))


async def page_text(driver: WebDriver) -> str:
    return str(await call(lambda: driver.find_element(By.TAG_NAME, "main").text))


async def test_links_from_discord_open_in_chromium(site: Any, browser: WebDriver) -> None:  # noqa: F811
    emu, bot, _ = site
    stats = {"strength": 3, "agility": 2, "mind": 2, "presence": 1}
    await emu.slash("character create", who="p1", name="Mira", **stats)
    await emu.slash("character create", who="gm", name="Ogre", kind="antagonist", **stats)
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p1")
    await emu.slash("init add", who="gm", name="Ogre")
    await emu.slash("hp", who="gm", target="Ogre", change="-3")  # a hidden NPC's HP
    ogre = emu.texts(await emu.slash("character show", who="gm", name="Ogre"))
    hidden = re.search(r"(\d+) ?/ ?(\d+)", ogre)
    assert hidden is not None, ogre
    gm = links(emu, await emu.slash("web links", who="gm"))
    player = links(emu, await emu.slash("web links", who="p1"))
    assert set(gm) == {"Table", "GM screen", "Overlay"} and set(player) == {"Table"}

    await call(browser.get, player["Table"])
    shown = await page_text(browser)
    assert "Mira" in shown and "Ogre" in shown
    numbers = f"{hidden.group(1)} / {hidden.group(2)}"
    assert numbers not in await call(lambda: browser.page_source)  # never to a player
    await call(browser.get, gm["GM screen"])
    assert numbers in await page_text(browser)

    await call(browser.get, gm["Overlay"])
    await call(browser.execute_script, "window.__opened = 1")
    before = await call(lambda: browser.find_element(By.CSS_SELECTOR, "main").text)
    await emu.slash("init next", who="gm")  # from Discord: the turn moves on
    await wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "main").text != before, 3)
    assert await call(browser.execute_script, "return window.__opened") == 1  # no reload

    await emu.slash("web revoke", who="gm")
    await call(browser.get, player["Table"])
    assert "Link not valid" in await call(lambda: browser.page_source)
    assert emu.double_answers == [] and emu.problems == []
    no_tracebacks(bot)
