"""The web server starts with the bot, listens where the settings say, stops with it."""

from __future__ import annotations

import logging
import socket
from typing import Any

import aiohttp
import discord
import pytest

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.web.errors import WebServerUnavailable
from tests.web.helpers import add_character, link_token


def web_bot(settings: Settings, db: Any, **web: Any) -> TableBot:
    changed = settings.model_copy(update={"web_port": 0, "web_host": "127.0.0.1", **web})
    return TableBot(changed, db, sync_mode=SyncMode.SKIP, intents=discord.Intents.default())


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def refused(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


async def test_starts_in_the_setup_hook_and_stops_on_close(
    settings: Settings, db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = web_bot(settings, db)
    monkeypatch.setattr(client, "start_background", lambda: None)  # (no idle tasks here)
    await client.setup_hook()
    assert client.web is not None and client.web.running
    port = client.web.port
    assert port and port > 0  # port 0: any free one, and the server says which
    await add_character(db, "Mira")
    status, html = await fetch(port, f"/t/{await link_token(db)}/")
    assert status == 200 and "Mira" in html
    await client.close()
    assert not client.web.running
    assert refused(port)
    await client.web.stop()  # idempotent


async def test_no_port_no_server(settings: Settings, db: Any) -> None:
    client = web_bot(settings, db, web_port=None)
    await client.start_web()
    assert client.web is None
    await client.close()


async def test_a_taken_port_is_one_readable_error(settings: Settings, db: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        client = web_bot(settings, db, web_port=port)
        with pytest.raises(WebServerUnavailable) as error:
            await client.start_web()
    assert str(error.value).startswith(f"the web pages can't listen on 127.0.0.1 port {port} (")
    assert str(error.value).endswith("): set WEB_HOST and WEB_PORT to a free address")
    await client.close()


async def test_the_access_log_never_holds_a_token(
    settings: Settings, db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = web_bot(settings, db)
    await client.start_web()
    assert client.web is not None and client.web.port
    token = await link_token(db)
    forged = token[:40] + ("B" if token[40] == "A" else "A") + token[41:]
    try:
        with caplog.at_level(logging.DEBUG):
            assert (await fetch(client.web.port, f"/t/{token}/"))[0] == 200
            assert (await fetch(client.web.port, f"/t/{token}/nothing"))[0] == 404
            assert (await fetch(client.web.port, f"/t/{forged}/"))[0] == 403
    finally:
        await client.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.web.requests"]
    assert [line.rsplit(" ", 2)[0] for line in lines] == [
        "GET /t/…/ 200", "GET /t/…/nothing 404", "GET /t/…/ 403",
    ]  # fmt: skip
    assert token not in caplog.text and forged not in caplog.text
