"""The web pages in headless Chromium: each role's pages render, a player's holds no
hidden NPC hit points, the table and the overlay follow the database without a reload,
and a revoked link is refused (also on a page already open)."""

from __future__ import annotations

import random
import time
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.initiative import next_turn
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.web.server import WebServer, build_app
from bot.web.tokens import View
from tests.browser.conftest import Site, call, wait_until
from tests.web.helpers import NOW, Clock, link_token, revoke
from tests.web.views.support import (
    BRUTE_HP,
    BRUTE_MAX,
    CHANNEL,
    GM,
    OGRE_HP,
    OGRE_MAX,
    PLAYER,
    hocs_encounter,
    hocs_world,
)

HIDDEN = (f"{OGRE_HP} / {OGRE_MAX}", f"{BRUTE_HP} / {BRUTE_MAX}")  # as the pages write HP
MIRA_HURT = "Mira yours Player character 7 / 12"  # her row once she took 5


async def table(db: Any) -> Any:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    return world


async def open_page(browser: WebDriver, url: str) -> str:
    """Load ``url``; the text of its <main> once its live stream is open."""
    await call(browser.get, url)
    await wait_until(
        browser, lambda b: b.execute_script("return window.tablebotLive?.state") == "open", 3.0
    )
    browser.execute_script("window.__loadedAt = window.tablebotLive.loadedAt;")
    return await call(main_text, browser)


def main_text(browser: WebDriver) -> str:
    """<main>'s visible text, its white space as single spaces (read in one script: a
    swap may land between a find and a read)."""
    text = browser.execute_script('return document.querySelector("main").innerText')
    return " ".join(text.split())


def not_reloaded(browser: WebDriver) -> bool:
    """The marker set after the load is still there: the page never reloaded."""
    return browser.execute_script(
        "return window.__loadedAt !== undefined"
        " && window.__loadedAt === window.tablebotLive.loadedAt"
    )


async def test_each_role_sees_its_pages(db: Any, site: Site, browser: WebDriver) -> None:
    await table(db)
    gm = await link_token(db, View.GM, user=GM)
    player = await link_token(db, View.TABLE, user=PLAYER)
    overlay = await link_token(db, View.OVERLAY, user=GM)

    text = await open_page(browser, site.url(gm))
    assert "GM screen" in text and f"Ogre Antagonist {HIDDEN[0]}" in text
    text = await open_page(browser, site.url(gm, f"tracker/{CHANNEL}"))
    assert HIDDEN[1] in text  # the quick NPC's, on the GM's tracker

    for path in ("", f"tracker/{CHANNEL}"):
        text = await open_page(browser, site.url(player, path))
        assert "Mira" in text and "Ogre" in text
        source = await call(lambda: browser.page_source)
        assert not any(hp in source for hp in HIDDEN), path

    text = await open_page(browser, site.url(overlay))
    assert all(name in text for name in ("Mira", "Ogre", "Brute"))
    source = await call(lambda: browser.page_source)
    assert not any(hp in source for hp in HIDDEN)
    # No page broke the Content-Security-Policy or failed a script.
    logged = await call(browser.get_log, "browser")
    errors = [e for e in logged if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    assert errors == [], errors


async def test_the_table_follows_a_change_without_a_reload(
    db: Any, site: Site, browser: WebDriver
) -> None:
    world = await table(db)
    text = await open_page(browser, site.url(await link_token(db, View.TABLE, user=PLAYER)))
    assert "Mira yours Player character 12 / 12" in text
    async with db.transaction() as conn:  # Mira takes 5 (as a command would write it)
        change = await CharacterVitalsRepository(conn).adjust_hp(world.mira, -5)
    assert change is not None and change.hp == 7
    written = time.monotonic()
    await wait_until(browser, lambda b: MIRA_HURT in main_text(b), 1.0)
    assert time.monotonic() - written < 1.0
    assert await call(not_reloaded, browser)
    assert await call(browser.execute_script, "return window.tablebotLive.refreshes") >= 1


async def test_the_overlay_follows_the_tracker(db: Any, site: Site, browser: WebDriver) -> None:
    await table(db)
    await open_page(browser, site.url(await link_token(db, View.OVERLAY, user=GM)))

    def current(b: WebDriver) -> str:
        # (in one script: the element may be swapped between a find and a read)
        return b.execute_script('return document.querySelector("li.current .name").textContent')

    before = await call(current, browser)
    async with db.transaction() as conn:  # /init next, as the tracker's service saves it
        repo = EncounterRepository(conn)
        record = await repo.get_by_channel(CHANNEL)
        assert record is not None
        state, _ = next_turn(record.state, RandomDice(random.Random(3)))
        await repo.save(record, state)
    after = await wait_until(browser, lambda b: (name := current(b)) != before and name, 1.0)
    assert after in ("Mira", "Ogre", "Brute")
    assert await call(not_reloaded, browser)


async def test_a_revoked_link_is_refused(db: Any, site: Site, browser: WebDriver) -> None:
    await table(db)
    token = await link_token(db, View.TABLE, user=PLAYER)
    await open_page(browser, site.url(token))
    await revoke(db)
    # The open page: its stream checks the link again (0.3 s here), says "gone", and
    # the page reloads into the refusal, hiding what it showed.
    await wait_until(browser, lambda b: "Link not valid" in b.title, 2.0)
    assert "Mira" not in await call(lambda: browser.page_source)
    # A fresh visit: the same plain 403 page.
    await call(browser.get, site.url(token))
    heading = await call(lambda: browser.find_element(By.TAG_NAME, "h1").text)
    assert heading == "Link not valid"


async def test_a_page_reconnects_after_a_restart(db: Any, site: Site, browser: WebDriver) -> None:
    world = await table(db)
    await open_page(browser, site.url(await link_token(db, View.TABLE, user=PLAYER)))
    port = site.server.port
    await site.server.stop()  # the bot stops; its stream ends, the browser retries
    async with db.transaction() as conn:  # a change while the bot is down
        await CharacterVitalsRepository(conn).adjust_hp(world.mira, -5)
    restarted = WebServer(build_app(db, clock=Clock(NOW)), host="127.0.0.1", port=port)
    await restarted.start()
    try:
        # ("retry: 2000": the browser is back within about 2 s and refreshes once)
        await wait_until(browser, lambda b: MIRA_HURT in main_text(b), 5.0)
        assert await call(not_reloaded, browser)
    finally:
        await restarted.stop()
