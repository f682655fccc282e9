"""The recap pages over HTTP: the sessions' list, one recap with the Discord recap's
figures (public for a player, private for the GM), and its chart as a PNG, drawn once
a minute per server, session and role (ruling web-chart-cache)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from PIL import Image

import bot.web.recaps_page
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.web.access import FORBIDDEN_HTML
from tests.web.helpers import NOW, Clock
from tests.web.page_checks import assert_refused, get, links, main, text
from tests.web.views.support import GM, GUILD, PLAYER, hocs_world, twod10_world

HOCS_FIGURES = [
    "0 rolls: 0 succeeded, 0 failed", "0 sixes, 0 critical failures", "damage dealt 0, taken 0",
    "0 wounds, 0 downs, dying 0×",
]  # fmt: skip


def items(html: str, section: str) -> list[str]:
    block = main(html).split(f'<h2 id="{section}">', 1)[1].split("</section>", 1)[0]
    return [text(li) for li in re.findall(r"<li>(.*?)</li>", block, flags=re.S)]


def figures(html: str) -> dict[str, list[str]]:
    found = re.findall(r"<h3>(.*?)</h3>\s*<ul[^>]*>(.*?)</ul>", main(html), flags=re.S)
    return {
        text(name): [text(li) for li in re.findall(r"<li>(.*?)</li>", body)] for name, body in found
    }


async def hocs_session(db: Any, world: Any) -> None:
    """Session 1: Mira rolls 1d6 three times (6, 1, 3: luck 92 %, 8 %, 42 %), the GM a
    secret 1d100 for her (87: 86.5 %). The world's point gains are dated a day earlier:
    the recap counts gains from the session's start's millisecond on, and a fast machine
    writes the world and starts the session within one."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE point_gains SET created_at = '2000-01-01T00:00:00.000Z' WHERE guild_id = ?",
            (GUILD,),
        )
        await SessionRepository(conn).start(GUILD, started_by=GM)
        repo = RollLogRepository(conn)
        for total, secret, expression in ((6, False, "1d6"), (1, False, "1d6"),
                                          (3, False, "1d6"), (87, True, "1d100")):  # fmt: skip
            await repo.add(
                guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="roll",
                expression=expression, result={"expression": expression, "total": total},
                total=total, secret=secret, character_id=world.mira,
            )  # fmt: skip
        await SessionRepository(conn).end(GUILD, ended_by=GM)


@pytest.mark.both_backends
async def test_a_hocs_recap_public_and_private(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_session(db, world)
    tokens = await links(db, PLAYER, GM)
    status, player = await get(web_client, f"/t/{tokens['player']}/recaps/1")
    assert status == 200
    assert "<h1>Session 1 recap</h1>" in player
    head = [
        "4 rolls in all; 0 fights, 0 rounds fought.",
        "Luckiest: Mira: Mira&#39;s roll 1d6 (roll), 92 %",
        "Unluckiest: Mira: Mira&#39;s roll 1d6 (roll), 8 %",
    ]
    assert items(player, "summary") == head
    mira = [
        "4 rolls: 0 succeeded, 0 failed", *HOCS_FIGURES[1:],
        "luck 47 % over 3 rolls (too few rolls to tell)",
        "1 not scored (distribution unknown or secret)",
    ]  # fmt: skip
    assert figures(player) == {
        "**Bob** &lt;script&gt;alert(1)&lt;/script&gt; @everyone `x`": [
            *HOCS_FIGURES, "luck: no roll of a known distribution",
        ],
        "Mira": mira,
    }  # fmt: skip
    assert items(player, "party") == mira
    chart = f"/t/{tokens['player']}/recaps/1/chart.png"
    assert f'<img class="chart" src="{chart}" width="800" height="400"' in player
    # The GM's private recap counts the secret roll's luck too.
    _, gm = await get(web_client, f"/t/{tokens['gm']}/recaps/1")
    assert items(gm, "summary") == [*head, "Private: secret rolls included."]
    assert figures(gm)["Mira"][4:] == ["luck 57 % over 4 rolls (too few rolls to tell)"]
    assert "Private" not in player


async def test_a_2d10_recap(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    async with db.transaction() as conn:
        await SessionRepository(conn).start(GUILD, started_by=GM)
        await RollLogRepository(conn).add(
            guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="2d10-task", expression="2d10+3",
            result={
                "character_id": world.brann, "target_id": None, "faces": [10, 10],
                "dropped": None, "advantage": 0, "disadvantage": 0,
                "modifiers": [{"label": "mind", "value": 1}, {"label": "perception", "value": 2}],
                "natural": 20, "total": 23, "band": "", "label": None,
            },
            total=23, secret=False,
        )  # fmt: skip
    token = (await links(db, PLAYER, GM))["player"]
    _, html = await get(web_client, f"/t/{token}/recaps/1")
    assert "<h1>Session 1 so far</h1>" in html and "still running" in html
    assert items(html, "summary") == [
        "1 roll in all; 0 fights, 0 rounds fought.",
        "Luckiest: Brann: Brann&#39;s perception task (task), 100 %",
    ]
    assert figures(html)["Brann"] == [
        "1 roll: 1 succeeded, 0 failed", "1 natural 20, 0 natural 2s",
        "damage dealt 0, taken 0", "0 downs, dying 0×",
        "luck 100 % over 1 roll (too few rolls to tell)",
    ]  # fmt: skip


async def test_the_list_of_sessions(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    tokens = await links(db, PLAYER, GM)
    _, empty = await get(web_client, f"/t/{tokens['player']}/recaps")
    assert "No sessions yet: the GM starts one with /session start in Discord." in empty
    await hocs_session(db, world)
    async with db.transaction() as conn:
        await SessionRepository(conn).start(GUILD, started_by=GM)
    _, html = await get(web_client, f"/t/{tokens['player']}/recaps")
    found = re.findall(r'<th scope="row"><a href="([^"]+)">([^<]+)</a></th>', html)
    assert found == [
        (f"/t/{tokens['player']}/recaps/2", "Session 2"),
        (f"/t/{tokens['player']}/recaps/1", "Session 1"),
    ]
    assert "<td>running</td>" in html
    _, no_rolls = await get(web_client, f"/t/{tokens['player']}/recaps/2")
    assert "No rolls were logged in this span." in no_rolls and "<img" not in no_rolls


async def test_the_chart_is_a_png_drawn_once_a_minute(
    db: Any, web_client: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await hocs_world(db)
    await hocs_session(db, world)
    tokens = await links(db, PLAYER, GM)
    drawn: list[list[Any]] = []
    real = bot.web.recaps_page.render_luck_chart

    def counting(series: list[Any]) -> bytes:
        drawn.append(series)
        return real(series)

    monkeypatch.setattr(bot.web.recaps_page, "render_luck_chart", counting)
    response = await web_client.get(f"/t/{tokens['player']}/recaps/1/chart.png")
    assert (response.status, response.content_type) == (200, "image/png")
    image = Image.open(io.BytesIO(await response.read()))
    assert (image.format, image.size) == ("PNG", (800, 400))
    public = [("Mira", (11 / 12, 1 / 12, 5 / 12))]
    assert [(n, tuple(round(v, 6) for v in s)) for n, s in drawn[0]] == [
        (n, tuple(round(v, 6) for v in s)) for n, s in public
    ]
    await web_client.get(f"/t/{tokens['player']}/recaps/1/chart.png")  # kept
    assert len(drawn) == 1
    await web_client.get(f"/t/{tokens['gm']}/recaps/1/chart.png")  # the GM's: its own
    assert len(drawn) == 2 and len(drawn[1][0][1]) == 4  # the secret roll included
    clock.now = NOW + 60  # a minute later: drawn again
    await web_client.get(f"/t/{tokens['player']}/recaps/1/chart.png")
    assert len(drawn) == 3


async def test_unknown_sessions_and_bad_links(db: Any, web_client: TestClient) -> None:
    await hocs_world(db)
    tokens = await links(db, PLAYER, GM)
    for path in ("recaps/1", "recaps/1/chart.png", "recaps/" + "9" * 30, "recaps/x"):
        assert await get(web_client, f"/t/{tokens['gm']}/{path}") == (404, "Not found.\n"), path
    for path in ("recaps", "recaps/1", "recaps/1/chart.png"):
        assert await get(web_client, f"/t/{tokens['overlay']}/{path}") == (403, FORBIDDEN_HTML)
        await assert_refused(web_client, path)
