"""What the page tests read of a page: its <main> as text, its links, its refusals."""

from __future__ import annotations

import re
from typing import Any

from aiohttp.test_utils import TestClient

from bot.web.access import FORBIDDEN_HTML
from bot.web.tokens import View
from tests.web.helpers import link_token


def main(html: str) -> str:
    """The page's <main> element (its own content, without the shared header), its
    <time> elements emptied: they show the database's clock, whose digits could match
    any number a test looks for."""
    inner = html.split('<main id="main">', 1)[1].split("</main>", 1)[0]
    return re.sub(r"<time[^>]*>.*?</time>", "<time></time>", inner, flags=re.S)


def text(fragment: str) -> str:
    """``fragment``'s text: tags dropped, whitespace folded, entities as written."""
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


async def get(client: TestClient, path: str) -> tuple[int, str]:
    response = await client.get(path)
    return response.status, await response.text()


async def links(db: Any, player: int, gm: int) -> dict[str, str]:
    """A player's, the GM's and the overlay's tokens (the overlay link is the GM's)."""
    return {
        "player": await link_token(db, View.TABLE, user=player),
        "gm": await link_token(db, View.GM, user=gm),
        "overlay": await link_token(db, View.OVERLAY, user=gm),
    }


async def assert_refused(client: TestClient, path: str) -> None:
    """``path`` (after /t/{token}/) refuses a forged token with the one 403 page."""
    status, body = await get(client, f"/t/not-a-token/{path}")
    assert (status, body) == (403, FORBIDDEN_HTML)
