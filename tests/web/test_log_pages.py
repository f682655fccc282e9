"""The roll log page over HTTP: rows as each role may see them, the filters' form, paging
links, and bad query values answered with one plain line (ruling web-log-query)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.web.access import FORBIDDEN_HTML
from bot.web.log_page import BAD_QUERY
from bot.web.views.rolls import PAGE_SIZE
from tests.web.page_checks import assert_refused, get, links, main, text
from tests.web.views.support import GM, GUILD, PLAYER, hocs_world, twod10_world

SECRET_TOTAL = 87


def rows(html: str) -> list[list[str]]:
    body = main(html).split("<tbody>", 1)[1].split("</tbody>", 1)[0] if "<tbody>" in html else ""
    return [
        [text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)][1:]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    ]  # (the time column left out: it is the database's clock)


async def log(db: Any, character: int | None, *, count: int = 1, kind: str = "check") -> None:
    """``count`` public rolls (totals 1, 2, …) for ``character``, then one secret roll."""
    async with db.transaction() as conn:
        repo = RollLogRepository(conn)
        for n in range(1, count + 1):
            await repo.add(
                guild_id=GUILD, channel_id=5, user_id=PLAYER, kind=kind,
                expression=f"<i>{n}d6</i>", result={}, total=n, secret=False,
                character_id=character,
            )  # fmt: skip
        await repo.add(
            guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="roll", expression="1d100",
            result={}, total=SECRET_TOTAL, secret=True, character_id=character,
        )  # fmt: skip


@pytest.mark.both_backends
async def test_the_log_for_the_player_and_the_gm(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await log(db, world.mira, count=2)
    tokens = await links(db, PLAYER, GM)
    status, player = await get(web_client, f"/t/{tokens['player']}/log")
    assert status == 200
    assert rows(player) == [
        ["a secret roll"],
        ["check", "Mira", "&lt;i&gt;2d6&lt;/i&gt;", "2"],  # an expression is text
        ["check", "Mira", "&lt;i&gt;1d6&lt;/i&gt;", "1"],
    ]
    assert str(SECRET_TOTAL) not in main(player) and "1d100" not in player
    _, gm = await get(web_client, f"/t/{tokens['gm']}/log")
    assert rows(gm)[0] == ["roll secret", "Mira", "1d100", str(SECRET_TOTAL)]
    # The form: every character to pick (hostile names as text), no script needed.
    assert f'<option value="{world.mira}">Mira</option>' in player
    assert "**Bob** &lt;script&gt;alert(1)&lt;/script&gt; @everyone `x`</option>" in player
    assert f'<form class="filters" method="get" action="/t/{tokens["player"]}/log"' in player
    assert "<p>Page 1</p>" in player  # one page: no paging links
    nav = re.findall(r'<li><a href="([^"]+)"', player)
    assert nav == [f"/t/{tokens['player']}/{p}" for p in ("", "log", "recaps")]


async def test_filters_and_paging(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await log(db, world.mira, count=PAGE_SIZE + 5)  # 56 rows, the secret one included
    await log(db, world.pet, count=1, kind="pool")
    token = (await links(db, PLAYER, GM))["gm"]
    _, first = await get(web_client, f"/t/{token}/log?character={world.mira}")
    assert len(rows(first)) == PAGE_SIZE
    older = f"/t/{token}/log?character={world.mira}&amp;page=2"
    assert f'<p>Page 1 · <a href="{older}" rel="next">Older rolls</a></p>' in first
    assert f'<option value="{world.mira}" selected>Mira</option>' in first
    _, second = await get(web_client, older.replace("&amp;", "&"))
    assert [r[-1] for r in rows(second)] == ["6", "5", "4", "3", "2", "1"]
    newer = f"/t/{token}/log?character={world.mira}"
    assert f'<p>Page 2 · <a href="{newer}" rel="prev">Newer rolls</a></p>' in second
    _, pools = await get(web_client, f"/t/{token}/log?kind=pool")
    assert rows(pools) == [["pool", "Pet", "&lt;i&gt;1d6&lt;/i&gt;", "1"]]
    assert 'value="pool"' in pools and "Clear the filters" in pools
    _, nothing = await get(web_client, f"/t/{token}/log?kind=nothing&page=")
    assert "No rolls match these filters." in nothing
    _, past = await get(web_client, f"/t/{token}/log?page=7")
    assert "No more rolls: this page is past the end." in past
    _, zero = await get(web_client, f"/t/{token}/log?page=0&character=&session=")
    assert "<p>Page 1 · " in zero


async def test_a_session_filter(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await log(db, world.mira, count=2)
    async with db.transaction() as conn:
        await SessionRepository(conn).start(GUILD, started_by=GM)
    await log(db, None, count=1)
    token = (await links(db, PLAYER, GM))["player"]
    _, html = await get(web_client, f"/t/{token}/log?session=1")
    assert rows(html) == [["a secret roll"], ["check", "", "&lt;i&gt;1d6&lt;/i&gt;", "1"]]
    assert 'name="session" type="number" min="1" inputmode="numeric" value="1"' in html
    assert await get(web_client, f"/t/{token}/log?session=9") == (404, "Not found.\n")


async def test_a_2d10_log(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    async with db.transaction() as conn:
        await RollLogRepository(conn).add(
            guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="2d10-task",
            expression="2d10+2", result={"character_id": world.brann, "faces": [6, 6]},
            total=14, secret=False,
        )  # fmt: skip
    token = (await links(db, PLAYER, GM))["player"]
    _, html = await get(web_client, f"/t/{token}/log?character={world.brann}")
    assert rows(html) == [["2d10-task", "Brann", "2d10+2", "14"]]


@pytest.mark.parametrize(
    "query",
    ["page=two", "page=-1", "character=x", "character=0", "session=1.5", "page=" + "9" * 25,
     "kind=" + "k" * 41, "character=%EF%BC%91"],  # (the last: a full-width digit one)
)  # fmt: skip
async def test_bad_query_values_are_one_plain_line(
    db: Any, web_client: TestClient, query: str
) -> None:
    await hocs_world(db)
    token = (await links(db, PLAYER, GM))["player"]
    response = await web_client.get(f"/t/{token}/log?{query}")
    assert (response.status, await response.text()) == (400, BAD_QUERY)
    assert response.content_type == "text/plain"


async def test_the_overlay_link_and_bad_links_are_refused(db: Any, web_client: TestClient) -> None:
    token = (await links(db, PLAYER, GM))["overlay"]
    assert await get(web_client, f"/t/{token}/log") == (403, FORBIDDEN_HTML)
    await assert_refused(web_client, "log?page=2")
