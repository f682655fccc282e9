"""The sheet page over HTTP, for the player and the GM, in both rulesets: a hidden NPC's
numbers are on the GM's page and nowhere on a player's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.web.access import FORBIDDEN_HTML
from tests.web.page_checks import assert_refused, get, links, main, text
from tests.web.views.support import (
    GHOUL_HP,
    GHOUL_MAX,
    GM,
    OGRE_HP,
    OGRE_MAX,
    PLAYER,
    hocs_sheet,
    hocs_world,
    twod10_world,
)


def facts(html: str) -> dict[str, str]:
    """The sheet's "State" list: term → text."""
    block = html.split('<dl class="facts">', 1)[1].split("</dl>", 1)[0]
    return {text(t): text(d) for t, d in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block)}


@pytest.mark.both_backends
async def test_a_hocs_sheet_for_the_player_and_the_gm(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    tokens = await links(db, PLAYER, GM)
    status, html = await get(web_client, f"/t/{tokens['player']}/sheet/{world.mira}")
    assert status == 200
    assert '<h1>Mira <span class="tag">yours</span></h1>' in html
    assert facts(html) == {
        "Hit points": "12 / 12 unhurt", "Conditions": "none", "Non-lethal damage": "0",
        "Recovery": "3 / 3", "Determination": "3 / 3", "Hero points": "2", "Fortune": "luck",
        "Threshold": "-6", "Toughness": "1", "Mettle": "2", "Speed": "30", "Carrying": "0 / 11",
    }  # fmt: skip
    assert "<td>3</td><td>1d8</td>" in html  # strength 3: a d8
    # The GM sees the hidden NPC's numbers and conditions; the player doesn't.
    _, gm = await get(web_client, f"/t/{tokens['gm']}/sheet/{world.ogre}")
    assert facts(gm)["Hit points"] == f"{OGRE_HP} / {OGRE_MAX} hurt"
    assert facts(gm)["Conditions"] == "bleeding 2"
    assert '<span class="tag">yours</span>' not in gm  # (the GM screen marks nobody's)
    _, player = await get(web_client, f"/t/{tokens['player']}/sheet/{world.ogre}")
    assert "The GM keeps this character's hit points and conditions hidden." in player
    assert facts(player)["Hit points"] == "hurt"
    assert "Conditions" not in facts(player) and "Recovery" not in facts(player)
    page = main(player)
    assert f"{OGRE_HP} / {OGRE_MAX}" not in page and "bleeding" not in page
    assert f">{OGRE_HP}<" not in page and f">{OGRE_MAX}<" not in page


async def test_a_2d10_sheet_for_the_player_and_the_gm(db: Any, web_client: TestClient) -> None:
    world = await twod10_world(db)
    tokens = await links(db, PLAYER, GM)
    _, html = await get(web_client, f"/t/{tokens['player']}/sheet/{world.brann}")
    assert '<h1>Brann <span class="tag">yours</span></h1>' in html
    assert '<p class="ruleset">Player character · Smith</p>' in html
    assert facts(html)["Hit points"] == "25 / 25"
    assert "<li>One-handed axe: 1d8 (axe, one-handed, extra die on 19+)</li>" in html
    assert "<p>Strong grip, Iron lungs</p>" in html
    _, gm = await get(web_client, f"/t/{tokens['gm']}/sheet/{world.ghoul}")
    assert (facts(gm)["Hit points"], facts(gm)["Conditions"]) == (
        f"{GHOUL_HP} / {GHOUL_MAX}",
        "prone",
    )
    _, player = await get(web_client, f"/t/{tokens['player']}/sheet/{world.ghoul}")
    assert facts(player)["Hit points"] == "hidden"
    page = main(player)
    assert str(GHOUL_HP) not in page and "prone" not in page and "Death threshold" not in page


async def test_the_table_links_each_name_to_its_sheet(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    token = (await links(db, PLAYER, GM))["player"]
    _, html = await get(web_client, f"/t/{token}/")
    for character in (world.mira, world.ogre, world.bob, world.pet):
        assert f'<a href="/t/{token}/sheet/{character}">' in html


async def test_a_hostile_name_is_text(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    token = (await links(db, PLAYER, GM))["player"]
    _, html = await get(web_client, f"/t/{token}/sheet/{world.bob}")
    assert "<h1>**Bob** &lt;script&gt;alert(1)&lt;/script&gt; @everyone `x`</h1>" in html
    assert "<script>alert" not in html


async def test_unknown_characters_are_not_found(db: Any, web_client: TestClient) -> None:
    world = await hocs_world(db)
    tokens = await links(db, PLAYER, GM)
    async with db.transaction() as conn:  # another server's character
        from bot.storage.hocs.character_codec import CharacterDetails
        from bot.storage.hocs.characters import CharacterKind, CharacterRepository
        from tests.web.views.support import OTHER_GUILD

        other = await CharacterRepository(conn).create(
            guild_id=OTHER_GUILD, owner_id=PLAYER, kind=CharacterKind.PC,
            sheet=hocs_sheet("Elsewhere"), details=CharacterDetails(armor=0, traits=("shy",)),
        )  # fmt: skip
    for path in (f"sheet/{other.id}", "sheet/9999", "sheet/" + "9" * 30, "sheet/abc"):
        assert await get(web_client, f"/t/{tokens['gm']}/{path}") == (404, "Not found.\n"), path
    # the overlay link opens the overlay only; a bad link is the one 403
    status, body = await get(web_client, f"/t/{tokens['overlay']}/sheet/{world.mira}")
    assert (status, body) == (403, FORBIDDEN_HTML)
    await assert_refused(web_client, f"sheet/{world.mira}")
