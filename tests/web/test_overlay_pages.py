"""The stream overlay over HTTP: the running fight's order with the current turn, public
hit points only, a transparent page without navigation that a streaming studio may
frame; which fight the bare overlay shows (ruling web-overlay-pick)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.initiative import Encounter, Side, add_participants
from bot.storage.hocs.encounters import EncounterRepository
from bot.web.access import FORBIDDEN_HTML
from tests.web.page_checks import assert_refused, get, links, main, text
from tests.web.views.support import (
    BRUTE_HP,
    BRUTE_MAX,
    CHANNEL,
    GHOUL_HP,
    GHOUL_MAX,
    GM,
    GUILD,
    OGRE_HP,
    OGRE_MAX,
    PLAYER,
    _new,
    hocs_encounter,
    hocs_world,
    twod10_encounter,
    twod10_world,
)

OTHER_CHANNEL = 556
WOLF = '<b>Wolf</b> & "x"'
FRAMED = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors *"
)


def entries(html: str) -> list[str]:
    """The overlay's order: each entry's classes and text."""
    found = re.findall(r'<li class="([^"]*)"[^>]*>(.*?)</li>', main(html), flags=re.S)
    return [f"[{classes}] {text(body)}" for classes, body in found]


@pytest.mark.both_backends
async def test_the_hocs_overlay(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    token = (await links(db, PLAYER, GM))["overlay"]
    response = await web_client.get(f"/t/{token}/")
    html = await response.text()
    assert response.status == 200
    assert '<h1 id="overlay-heading">Round 1</h1>' in html
    assert entries(html) == [
        "[side-antagonist current] Ogre hurt",
        "[side-pc] Mira 12 / 12 unhurt",
        "[side-antagonist] Brute hurt",
    ]
    assert html.count('aria-current="step"') == 1
    # The GM opened it, but a stream sees no hidden NPC state (ruling web-overlay-public).
    for number in (OGRE_HP, OGRE_MAX, BRUTE_HP, BRUTE_MAX):
        assert str(number) not in main(html)
    assert "bleeding" not in html
    # An OBS source: transparent, no navigation; a studio's frame may hold it.
    assert '<html lang="en" class="overlay">' in html
    assert "<nav" not in html and "<header" not in html and 'class="skip"' not in html
    assert response.headers["Content-Security-Policy"] == FRAMED
    # /overlay and /overlay/{channel} are the same page here
    for path in ("overlay", f"overlay/{CHANNEL}"):
        assert entries((await get(web_client, f"/t/{token}/{path}"))[1]) == entries(html)


async def test_the_css_makes_the_overlay_transparent(db: Any, web_client: TestClient) -> None:
    token = (await links(db, PLAYER, GM))["overlay"]
    html = (await get(web_client, f"/t/{token}/"))[1]
    css_path = re.search(r'href="(/static/tablebot\.css\?v=[0-9a-f]+)"', html).group(1)
    css = (await get(web_client, css_path))[1]
    assert "html.overlay, html.overlay body { background: transparent;" in css
    assert "text-shadow: 0 0 2px #000" in css  # an outline that reads over any stream


async def test_the_2d10_overlay(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    await twod10_encounter(db, world)
    html = (await get(web_client, f"/t/{(await links(db, PLAYER, GM))['overlay']}/overlay"))[1]
    assert '<h1 id="overlay-heading">Round 1 · the Players&#39; turn</h1>' in html
    assert entries(html) == [
        "[side-players current] Brann 25 / 25",
        "[side-npcs] Ghoul hidden",
        "[side-npcs] Rat",
    ]
    assert str(GHOUL_HP) not in main(html) and str(GHOUL_MAX) not in main(html)
    assert "prone" not in html


async def test_no_fight_is_one_line(db: Any, web_client: TestClient) -> None:
    await hocs_world(db)
    token = (await links(db, PLAYER, GM))["overlay"]
    for path in ("", "overlay"):
        status, html = await get(web_client, f"/t/{token}/{path}")
        assert status == 200
        assert text(main(html)) == "No fight is running."
    assert await get(web_client, f"/t/{token}/overlay/{CHANNEL}") == (404, "Not found.\n")
    assert await get(web_client, f"/t/{token}/overlay/1{'0' * 20}") == (404, "Not found.\n")


async def _second_fight(db: Any) -> None:
    """A fight in OTHER_CHANNEL with a hostile-named wolf, not started."""
    new = [_new(WOLF, Side.ANTAGONIST, owner_id=GM, hp=9, max_hp=9)]
    enc, _ = add_participants(Encounter(), new, RandomDice(random.Random(1)))
    async with db.transaction() as conn:
        await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=OTHER_CHANNEL, gm_id=GM, state=enc
        )


async def _touch(db: Any, channel: int, stamp: str) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE encounters SET updated_at = ? WHERE channel_id = ?", (stamp, channel)
        )


@pytest.mark.both_backends
async def test_several_fights_show_the_latest_changed(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    await _second_fight(db)
    token = (await links(db, PLAYER, GM))["overlay"]
    await _touch(db, CHANNEL, "2030-01-01T00:00:02.000Z")
    await _touch(db, OTHER_CHANNEL, "2030-01-01T00:00:01.000Z")
    assert '<h1 id="overlay-heading">Round 1</h1>' in (await get(web_client, f"/t/{token}/"))[1]
    await _touch(db, OTHER_CHANNEL, "2030-01-01T00:00:03.000Z")
    html = (await get(web_client, f"/t/{token}/"))[1]
    assert '<h1 id="overlay-heading">Not started</h1>' in html
    # a hostile name is text
    assert entries(html) == ["[side-antagonist] &lt;b&gt;Wolf&lt;/b&gt; &amp; &#34;x&#34; unhurt"]
    assert "<b>Wolf" not in html
    # each channel's own overlay stays reachable
    assert "Round 1" in (await get(web_client, f"/t/{token}/overlay/{CHANNEL}"))[1]


async def test_only_the_overlay_link_opens_it(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    tokens = await links(db, PLAYER, GM)
    for view in ("player", "gm"):
        for path in ("overlay", f"overlay/{CHANNEL}"):
            status, body = await get(web_client, f"/t/{tokens[view]}/{path}")
            assert (status, body) == (403, FORBIDDEN_HTML), (view, path)
    # the table and GM pages still refuse framing
    table = await web_client.get(f"/t/{tokens['gm']}/")
    assert table.headers["Content-Security-Policy"].endswith("frame-ancestors 'none'")
    for path in ("", "overlay", f"overlay/{CHANNEL}"):
        await assert_refused(web_client, path)
