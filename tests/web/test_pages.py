"""The table page and the token check every page goes through, over HTTP."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

import bot.web.table_page
from bot.storage.hocs.characters import CharacterKind
from bot.web.access import FORBIDDEN_HTML
from bot.web.server import build_app, runner_options
from bot.web.tokens import View
from tests.web.helpers import (
    GM,
    GUILD,
    NOW,
    OTHER_GUILD,
    PLAYER,
    Clock,
    add_character,
    assert_forbidden,
    link_token,
    revoke,
)

POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def text(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def cells(html: str) -> list[list[str]]:
    """The characters table, one list of cell texts per row (tags stripped)."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0] if "<tbody>" in html else ""
    return [
        [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    ]


def rows(html: str) -> list[str]:
    return [row[0] for row in cells(html)]


@pytest.mark.both_backends
async def test_a_players_table(db: Any, web_client: TestClient) -> None:
    await add_character(db, "Mira", owner=PLAYER)
    await add_character(db, "Bram", owner=33)
    await add_character(db, "Ogre", owner=GM, kind=CharacterKind.ANTAGONIST)
    response = await web_client.get(f"/t/{await link_token(db)}/")
    html = await response.text()
    assert response.status == 200
    assert response.content_type == "text/html"
    points = "hero points 0 · determination 3 / 3 · recovery 3 / 3"
    assert cells(html) == [
        ["Bram", "Player character", "12 / 12 unhurt", "none", points],
        ["Mira yours", "Player character", "12 / 12 unhurt", "none", points],
        ["Ogre", "Antagonist", "unhurt", "none", ""],  # a hidden NPC: its status word only
    ]
    assert "<h1>The table</h1>" in html
    assert "This campaign plays Heroes of Countless Stories." in html
    assert html.count('class="yours"') == 1


async def test_the_gm_screen_shows_everything(db: Any, web_client: TestClient) -> None:
    await add_character(db, "Ogre", owner=GM, kind=CharacterKind.ANTAGONIST)
    gm = await web_client.get(f"/t/{await link_token(db, View.GM, user=GM)}/")
    html = await gm.text()
    assert "<h1>GM screen</h1>" in html
    assert cells(html) == [
        ["Ogre", "Antagonist", "12 / 12 unhurt", "none", "determination 3 / 3 · recovery 3 / 3"]
    ]
    assert 'class="yours"' not in html  # (the GM screen marks nobody's)
    assert gm.headers["Content-Security-Policy"] == POLICY


async def test_the_overlay_shows_what_a_stream_may(db: Any, web_client: TestClient) -> None:
    await add_character(db, "Ogre", owner=GM, kind=CharacterKind.ANTAGONIST)
    overlay = await web_client.get(f"/t/{await link_token(db, View.OVERLAY, user=GM)}/")
    html = await overlay.text()
    assert overlay.status == 200
    # the overlay link's home is the overlay (tests/web/test_overlay_pages.py), not the table
    assert "No fight is running." in html and "Ogre" not in html
    # ruling web_framing: only the overlay may be framed (a streaming studio's iframe)
    framed = POLICY.replace("frame-ancestors 'none'", "frame-ancestors *")
    assert overlay.headers["Content-Security-Policy"] == framed


async def test_an_empty_table_says_how_to_begin(db: Any, web_client: TestClient) -> None:
    html = await (await web_client.get(f"/t/{await link_token(db)}/")).text()
    assert "No characters yet: create one with /character create in Discord." in html
    assert "<table" not in html


async def test_a_2d10_table(db: Any, web_client: TestClient) -> None:
    token = await link_token(db)
    from bot.storage.campaigns import CampaignRepository, Ruleset

    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, ruleset=Ruleset.TWOD10)
    await add_character(db, "Mira")  # a HOCS sheet: not this ruleset's
    html = await (await web_client.get(f"/t/{token}/")).text()
    assert "This campaign plays the 2d10 system." in html
    assert rows(html) == []


async def test_a_hostile_name_is_text(db: Any, web_client: TestClient) -> None:
    await add_character(db, "<script>alert(1)</script>")
    await add_character(db, '"><img src=x onerror=alert(2)>', owner=33)
    html = await (await web_client.get(f"/t/{await link_token(db)}/")).text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    assert "<script>alert" not in html and "<img" not in html
    # the only scripts: the bot's own files
    assert re.findall(r"<script[^>]*>", html) == [
        re.search(rf'<script src="/static/{name}\.js\?v=[0-9a-f]{{12}}" defer>', html).group(0)
        for name in ("tablebot", "live")
    ]


async def test_lists_are_bounded(
    db: Any, web_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("Ada", "Bram", "Cole", "Dara"):
        await add_character(db, name)
    monkeypatch.setattr(bot.web.table_page, "MAX_LIST_ROWS", 3)
    html = await (await web_client.get(f"/t/{await link_token(db)}/")).text()
    assert rows(html) == ["Ada yours", "Bram yours", "Cole yours"]
    assert "And 1 more, not listed here." in html


async def bad_tokens(db: Any, clock: Clock) -> dict[str, str]:
    """One of each: the page must refuse them all the same way."""
    good = await link_token(db)
    flipped = good[:40] + ("A" if good[40] != "A" else "B") + good[41:]
    expired = await link_token(db, now=NOW - 31 * 86_400)
    other = await link_token(db, guild=OTHER_GUILD)
    # another server's token with this server's id written in: the mac can't match
    other_as_ours = other[:1] + good[1:12] + other[12:]
    old = await link_token(db, user=44)
    await revoke(db)
    never = await link_token(db, guild=300)
    async with db.transaction() as conn:  # a server that never asked for links
        await conn.execute("DELETE FROM web_secrets WHERE guild_id = 300")
    return {
        "forged": flipped, "expired": expired, "other server's": other_as_ours,
        "revoked": old, "server without links": never, "no such server":
        never[:1] + "AAAAAAAAAAA" + never[12:], "not a token": "hello", "empty-ish": "-",
    }  # fmt: skip


@pytest.mark.both_backends
async def test_every_bad_link_gets_the_same_403(
    db: Any, web_client: TestClient, clock: Clock
) -> None:
    seen = set()
    for reason, token in (await bad_tokens(db, clock)).items():
        for path in ("", "sheet/1"):
            response = await web_client.get(f"/t/{token}/{path}")
            body = await response.text()
            assert response.status == 403, reason
            assert body == FORBIDDEN_HTML, reason
            headers = {k: v for k, v in response.headers.items() if k != "Date"}
            seen.add(tuple(sorted(headers.items())))
    assert len(seen) == 1  # the very same headers too
    assert_forbidden(403, FORBIDDEN_HTML)


@pytest.mark.both_backends
async def test_a_link_still_valid_after_the_bad_ones(db: Any, web_client: TestClient) -> None:
    token = await link_token(db)
    assert (await web_client.get(f"/t/{token}/")).status == 200
    await revoke(db, OTHER_GUILD)  # another server's revoke changes nothing here
    assert (await web_client.get(f"/t/{token}/")).status == 200
    await revoke(db)
    response = await web_client.get(f"/t/{token}/")
    assert_forbidden(response.status, await response.text())


async def test_expiry_follows_the_clock(db: Any, web_client: TestClient, clock: Clock) -> None:
    token = await link_token(db, days=1)
    clock.now = NOW + 86_399
    assert (await web_client.get(f"/t/{token}/")).status == 200
    clock.now = NOW + 86_400
    response = await web_client.get(f"/t/{token}/")
    assert_forbidden(response.status, await response.text())


async def test_headers_on_every_answer(db: Any, web_client: TestClient) -> None:
    token = await link_token(db)
    page = await web_client.get(f"/t/{token}/")
    refused = await web_client.get("/t/nope/")
    missing = await web_client.get("/nowhere")
    css = await web_client.get(re.search(r'href="(/static/[^"]+)"', await page.text()).group(1))
    for response in (page, refused, missing, css):
        assert response.headers["Content-Security-Policy"] == POLICY
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["Server"] == "tablebot"
    for response in (page, refused):
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert css.status == 200 and css.content_type == "text/css"
    assert css.headers["Cache-Control"] == "public, max-age=604800"
    assert (missing.status, await missing.text()) == (404, "Not found.\n")


async def test_pages_name_nothing_from_elsewhere(db: Any, web_client: TestClient) -> None:
    await add_character(db, "Mira")
    html = await (await web_client.get(f"/t/{await link_token(db, View.GM)}/")).text()
    addresses = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert addresses and all(a.startswith(("/static/", "#", "/t/")) for a in addresses)
    assert "http" not in html
    for name in ("tablebot.css", "tablebot.js"):
        text = await (await web_client.get(f"/static/{name}")).text()
        assert "http" not in text and "url(" not in text and "@import" not in text


async def test_the_bare_address_leads_to_the_page(db: Any, web_client: TestClient) -> None:
    token = await link_token(db)
    response = await web_client.get(f"/t/{token}", allow_redirects=False)
    assert response.status == 302
    assert response.headers["Location"] == f"/t/{token}/"


@pytest.fixture
async def plugged(db: Any, clock: Clock) -> Any:
    # The table page alone beside the samples (the real pages' nav and sheet route aside).
    app = build_app(db, clock=clock, page_modules=("bot.web.table_page", "tests.web.sample_pages"))
    async with TestClient(TestServer(app, **runner_options())) as client:
        yield client


async def test_a_plugged_in_page_gets_the_check_and_the_nav(db: Any, plugged: TestClient) -> None:
    gm = await link_token(db, View.GM, user=GM)
    notes = await plugged.get(f"/t/{gm}/notes")
    assert (notes.status, await notes.text()) == (200, f"notes of guild {GUILD} for {GM}")
    assert notes.headers["Cache-Control"] == "no-store"
    player = await link_token(db)
    refused = await plugged.get(f"/t/{player}/notes")  # not a view this page serves
    assert_forbidden(refused.status, await refused.text())
    home = await (await plugged.get(f"/t/{gm}/")).text()
    nav = re.findall(r'<li><a href="([^"]+)"[^>]*>([^<]+)</a></li>', home)
    assert nav == [(f"/t/{gm}/", "GM screen"), (f"/t/{gm}/notes", "Notes")]
    assert f'<a href="/t/{gm}/" aria-current="page">' in home
    assert "<nav" not in await (await plugged.get(f"/t/{player}/")).text()  # one page: no nav
    assert await (await plugged.get(f"/t/{player}/sheet/7")).text() == "sheet 7"


async def test_a_crash_is_a_plain_500_logged_without_the_token(
    db: Any, plugged: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    token = await link_token(db)
    with caplog.at_level(logging.DEBUG):
        response = await plugged.get(f"/t/{token}/broken")
    text = await response.text()
    assert response.status == 500
    code = re.fullmatch(
        r"Something went wrong on the bot's side \(code ([0-9a-f]{6})\): try again later\.\n", text
    ).group(1)
    [record] = [r for r in caplog.records if r.name == "bot.web.security"]
    assert record.getMessage().startswith(f"web page broken failed (code {code})\nTraceback")
    assert token not in caplog.text  # (the error's message held it)
    assert "RuntimeError: failed at /t/…/broken" in caplog.text


async def test_nothing_logged_holds_a_token(
    db: Any, plugged: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    token = await link_token(db)
    with caplog.at_level(logging.DEBUG):
        await plugged.get(f"/t/{token}/")
        await plugged.get(f"/t/{token}/notes")
    assert token not in caplog.text
