"""The tracker page over HTTP, for the player and the GM, in both rulesets: the order,
the current turn, and a hidden NPC's hit points on the GM's page only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

import bot.web.tracker_page
from bot.web.access import FORBIDDEN_HTML
from tests.web.page_checks import assert_refused, get, links, main, text
from tests.web.views.support import (
    BRUTE_HP,
    BRUTE_MAX,
    CHANNEL,
    GHOUL_HP,
    GHOUL_MAX,
    GM,
    OGRE_HP,
    OGRE_MAX,
    PLAYER,
    hocs_encounter,
    hocs_world,
    twod10_encounter,
    twod10_world,
)


def slots(html: str) -> list[str]:
    """Each slot (HOCS) or side (2d10) of the order as its text, its state class first."""
    found = re.findall(
        r'<(?:li class="slot|section class="side) ([^"]*)"[^>]*>(.*?)'
        r'</(?:li>\s*(?=<li class="slot|</ol>)|section>)',
        main(html), flags=re.S,
    )  # fmt: skip
    return [f"[{classes}] {text(body)}" for classes, body in found]


@pytest.mark.both_backends
async def test_a_hocs_tracker_for_the_player_and_the_gm(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    tokens = await links(db, PLAYER, GM)
    status, player = await get(web_client, f"/t/{tokens['player']}/tracker/{CHANNEL}")
    assert status == 200
    assert '<p class="phase">Round 1: Ogre to act</p>' in player
    actions = "actions 0/2 · quick 0/1 · reaction 0/1"
    assert slots(player) == [
        f"[current side-antagonist] 2 Ogre acting foe hurt {actions}",
        "[next side-pc] 0 Mira PC 12 / 12 unhurt",
        "[next side-antagonist] 0 Brute foe hurt",
    ]
    assert player.count('aria-current="step"') == 1
    _, gm = await get(web_client, f"/t/{tokens['gm']}/tracker/{CHANNEL}")
    assert slots(gm) == [
        f"[current side-antagonist] 2 Ogre acting foe {OGRE_HP} / {OGRE_MAX} hurt"
        f" · bleeding 2 {actions}",
        "[next side-pc] 0 Mira PC 12 / 12 unhurt",
        f"[next side-antagonist] 0 Brute foe {BRUTE_HP} / {BRUTE_MAX} hurt · bleeding 3",
    ]
    page = main(player)
    for number in (OGRE_HP, OGRE_MAX, BRUTE_HP, BRUTE_MAX):
        assert str(number) not in page
    assert "bleeding" not in page


async def test_a_2d10_tracker_for_the_player_and_the_gm(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    await twod10_encounter(db, world)
    tokens = await links(db, PLAYER, GM)
    _, player = await get(web_client, f"/t/{tokens['player']}/tracker/{CHANNEL}")
    assert '<p class="phase">Round 1: The Players&#39; turn.</p>' in player
    assert slots(player) == [
        "[side-players current] Players acting 1 standing Brann (finesse +1) 25 / 25",
        "[side-npcs] NPCs 2 standing Ghoul (finesse +1) hidden Rat (finesse +1)",
    ]
    _, gm = await get(web_client, f"/t/{tokens['gm']}/tracker/{CHANNEL}")
    assert slots(gm)[1] == (
        f"[side-npcs] NPCs 2 standing Ghoul (finesse +1) {GHOUL_HP} / {GHOUL_MAX} · prone"
        " Rat (finesse +1)"
    )
    assert str(GHOUL_HP) not in main(player) and "prone" not in main(player)


async def test_the_table_links_its_encounters(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world)
    token = (await links(db, PLAYER, GM))["gm"]
    _, html = await get(web_client, f"/t/{token}/")
    assert f'<a href="/t/{token}/tracker/{CHANNEL}">Encounter 1</a>' in html


async def test_long_orders_are_bounded(
    db: Any, web_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await hocs_world(db)
    await hocs_encounter(db, world, extra=4)  # 7 combatants
    monkeypatch.setattr(bot.web.tracker_page, "MAX_LIST_ROWS", 5)
    _, html = await get(web_client, f"/t/{(await links(db, PLAYER, GM))['gm']}/tracker/{CHANNEL}")
    assert len(slots(html)) == 5
    assert "And 2 more, not listed here." in html


async def test_hostile_names_are_text(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    await twod10_encounter(db, world)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE twod10_encounters SET state = REPLACE(state, '\"Rat\"', ?)",
            ('"<b>Rat</b>"',),
        )
    _, html = await get(
        web_client, f"/t/{(await links(db, PLAYER, GM))['player']}/tracker/{CHANNEL}"
    )
    assert "<strong>&lt;b&gt;Rat&lt;/b&gt;</strong>" in html and "<b>Rat" not in html


async def test_no_encounter_there_is_not_found(db: Any, web_client: TestClient) -> None:
    await hocs_world(db)
    tokens = await links(db, PLAYER, GM)
    for path in (f"tracker/{CHANNEL}", "tracker/" + "9" * 25, "tracker/x"):
        assert await get(web_client, f"/t/{tokens['gm']}/{path}") == (404, "Not found.\n")
    status, body = await get(web_client, f"/t/{tokens['overlay']}/tracker/{CHANNEL}")
    assert (status, body) == (403, FORBIDDEN_HTML)
    await assert_refused(web_client, f"tracker/{CHANNEL}")
