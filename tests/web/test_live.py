"""The live updates' event stream (bot.web.live) through aiohttp's test client."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.web.keys import STREAMS
from bot.web.limits import RETRY_AFTER_SECONDS, STREAMS_FULL
from bot.web.live import SETTINGS, WATCHER
from bot.web.server import build_app, runner_options
from bot.web.tokens import View
from tests.web.helpers import GUILD, Clock, add_character, assert_forbidden, link_token, revoke


async def hurt(db: Any, name: str = "Ada", amount: int = 3) -> int:
    """``name`` loses ``amount`` hit points (a write through the repository); the HP left."""
    async with db.transaction() as conn:
        character = await CharacterRepository(conn).find(GUILD, name)
        assert character is not None
        change = await CharacterVitalsRepository(conn).adjust_hp(character.id, -amount)
    assert change is not None
    return change.hp


async def next_block(response: ClientResponse, within: float = 2.0) -> str:
    """The stream's next block (up to its blank line), as text."""
    raw = await asyncio.wait_for(response.content.readuntil(b"\n\n"), within)
    return raw.decode()


def event_of(block: str) -> tuple[str, str]:
    fields = dict(re.findall(r"^(event|data): ?(.*)$", block, re.M))
    return fields.get("event", ""), fields.get("data", "")


@pytest.fixture
async def live_client(db: Any, clock: Clock) -> AsyncIterator[TestClient]:
    app = build_app(db, clock=clock, max_streams=2)
    app[WATCHER].poll_seconds = 0.02
    app[SETTINGS].heartbeat_seconds = 60.0
    app[SETTINGS].liveness_seconds = 0.05
    async with TestClient(TestServer(app, **runner_options())) as client:
        yield client


async def open_stream(client: TestClient, token: str, **headers: str) -> ClientResponse:
    response = await client.get(f"/t/{token}/events", headers=headers)
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    return response


async def test_a_change_is_pushed_within_a_poll(db: Any, live_client: TestClient) -> None:
    await add_character(db, "Ada")
    token = await link_token(db, View.OVERLAY)
    stream = await open_stream(live_client, token)
    ready = await next_block(stream)
    assert ready.startswith("retry: 2000\n")
    name, first = event_of(ready)
    assert name == "ready" and re.fullmatch(r"[0-9a-f]{16}", first)
    loop = asyncio.get_running_loop()
    before = loop.time()
    await hurt(db)
    name, second = event_of(await next_block(stream, within=1.0))
    assert (name, second != first) == ("changed", True)
    assert loop.time() - before < 1.0
    stream.close()


async def test_the_page_carries_the_stamp_the_stream_compares(
    db: Any, live_client: TestClient
) -> None:
    await add_character(db, "Ada")
    token = await link_token(db, View.TABLE)
    html = await (await live_client.get(f"/t/{token}/")).text()
    found = re.search(r'data-events="([^"]+)" data-version="([0-9a-f]{16})"', html)
    assert found is not None and found.group(1) == f"/t/{token}/events"
    stamp = found.group(2)
    # the same state: the stream says only "ready"
    stream = await open_stream(live_client, token)
    assert event_of(await next_block(stream)) == ("ready", stamp)
    stream.close()
    # a change between the page's read and the stream's start is told at once
    await hurt(db)
    stream = await live_client.get(f"/t/{token}/events?since={stamp}")
    name, now = event_of(await next_block(stream))
    assert name == "ready" and now != stamp
    assert event_of(await next_block(stream)) == ("changed", now)
    stream.close()
    # so is one seen by a reconnecting browser (Last-Event-ID wins over ?since)
    stream = await open_stream(live_client, token, **{"Last-Event-ID": stamp})
    await next_block(stream)
    assert event_of(await next_block(stream)) == ("changed", now)
    stream.close()


async def test_a_heartbeat_keeps_the_stream_open(db: Any, live_client: TestClient) -> None:
    live_client.app[SETTINGS].heartbeat_seconds = 0.05
    stream = await open_stream(live_client, await link_token(db, View.GM, user=22))
    await next_block(stream)
    assert await next_block(stream) == ": still here\n\n"
    assert await next_block(stream) == ": still here\n\n"
    stream.close()


async def test_past_the_limit_a_stream_is_refused_politely(
    db: Any, live_client: TestClient
) -> None:
    token = await link_token(db, View.OVERLAY)
    streams = [await open_stream(live_client, token) for _ in range(2)]
    for stream in streams:
        await next_block(stream)
    refused = await live_client.get(f"/t/{token}/events")
    assert refused.status == 503
    assert refused.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert await refused.text() == STREAMS_FULL
    streams[0].close()  # the visitor leaves: the server notices and frees the slot
    for _ in range(100):
        await asyncio.sleep(0.02)
        if live_client.app[STREAMS].open < 2:
            break
    assert live_client.app[STREAMS].open == 1
    again = await open_stream(live_client, token)
    assert event_of(await next_block(again))[0] == "ready"
    again.close()
    streams[1].close()


async def test_a_revoked_link_ends_its_stream(db: Any, live_client: TestClient) -> None:
    live_client.app[SETTINGS].recheck_seconds = 0.05
    token = await link_token(db, View.TABLE)
    stream = await open_stream(live_client, token)
    await next_block(stream)
    await revoke(db)
    assert event_of(await next_block(stream)) == ("gone", "")
    assert await asyncio.wait_for(stream.content.read(), 1.0) == b""  # ended
    refused = await live_client.get(f"/t/{token}/events")
    assert_forbidden(refused.status, await refused.text())


async def test_a_bad_link_gets_the_403_page(db: Any, live_client: TestClient) -> None:
    response = await live_client.get("/t/not-a-token/events")
    assert_forbidden(response.status, await response.text())
    assert live_client.app[WATCHER].stamp_of(GUILD) is None  # nothing watched


async def test_server_stop_ends_every_stream(db: Any, clock: Clock) -> None:
    app = build_app(db, clock=clock)
    client = TestClient(TestServer(app, **runner_options()))
    await client.start_server()
    stream = await open_stream(client, await link_token(db, View.OVERLAY))
    await next_block(stream)
    closing = asyncio.create_task(client.server.close())  # (the server only, not the client)
    assert await asyncio.wait_for(stream.content.read(), 2.0) == b""  # ended, not cut
    await asyncio.wait_for(closing, 2.0)
    assert app[WATCHER].closing
    await client.close()


@pytest.mark.both_backends
async def test_another_process_change_reaches_the_stream(
    db: Any, live_client: TestClient, backend: str
) -> None:
    """A second connection to the same database stands for another shard process: the
    watcher's poll sees its commit (and on PostgreSQL its NOTIFY wakes it sooner)."""
    from bot.storage.backend import open_database

    await add_character(db, "Ada")
    stream = await open_stream(live_client, await link_token(db, View.OVERLAY))
    await next_block(stream)
    url = db.url if backend == "postgresql" else f"sqlite:///{db.path}"
    other = await open_database(url)
    try:
        await hurt(other)
        assert event_of(await next_block(stream, within=1.0))[0] == "changed"
    finally:
        await other.close()
    stream.close()


async def test_one_read_polls_every_watched_server(db: Any) -> None:
    """The watcher's poll: one read transaction whatever the number of servers."""
    from bot.web.live_watcher import VersionWatcher

    asked: list[int] = []
    versions = {1: (1,), 2: (5,)}

    async def read_version(conn: Any, guild_id: int) -> tuple[int, ...]:
        asked.append(guild_id)
        return versions[guild_id]

    watcher = VersionWatcher(db, read_version=read_version)
    async with watcher.watch(1) as one, watcher.watch(2) as two, watcher.watch(2):
        assert asked == [1, 2]  # (the first stream of each server reads its version)
        versions[2] = (6,)
        await watcher.poll()
        assert asked == [1, 2, 1, 2] and watcher.polls == 1
        assert await watcher.wait_change(1, one, 0.01) == one  # no change: the timeout
        assert await watcher.wait_change(2, two, 0.01) == watcher.stamp((6,)) != two
    assert watcher.stamp_of(1) is None and watcher.stamp_of(2) is None  # unwatched


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_postgresql_notify_wakes_the_watcher_at_once(db: Any, clock: Clock) -> None:
    """With polling all but off, another process's NOTIFY alone brings the change."""
    from bot.storage.pg_database import PgDatabase
    from bot.web.live import _PG
    from bot.web.live_pg import PgChanges
    from bot.web.live_watcher import VersionWatcher

    app = build_app(db, clock=clock)
    app[WATCHER].poll_seconds = 60.0
    await add_character(db, "Ada")
    async with TestClient(TestServer(app, **runner_options())) as client:
        await asyncio.wait_for(app[_PG].listening.wait(), 5.0)  # type: ignore[attr-defined]
        stream = await open_stream(client, await link_token(db, View.OVERLAY))
        await next_block(stream)
        other = await PgDatabase.open(db.url)  # another shard process's database
        try:
            await hurt(other)
            PgChanges(other, VersionWatcher(other)).tell(GUILD)
            assert event_of(await next_block(stream, within=1.0))[0] == "changed"
        finally:
            await asyncio.sleep(0.05)  # (the NOTIFY's task is done: the event came after)
            await other.close()
        assert app[_PG].received == 1  # type: ignore[attr-defined]
        stream.close()


class ListeningBot:
    """Just what the live pages use of the bot: its listeners, its (empty) guild cache."""

    def __init__(self) -> None:
        self.listeners: dict[str, Any] = {}

    def add_listener(self, func: Any, name: str) -> None:
        self.listeners[name] = func

    def remove_listener(self, func: Any, name: str) -> None:
        assert self.listeners.pop(name) is func

    def get_guild(self, guild_id: int) -> None:
        return None


async def test_this_process_notice_wakes_the_watcher_at_once(db: Any, clock: Clock) -> None:
    bot = ListeningBot()
    app = build_app(db, bot=bot, clock=clock)
    app[WATCHER].poll_seconds = 60.0  # (no poll would come in time)
    await add_character(db, "Ada")
    async with TestClient(TestServer(app, **runner_options())) as client:
        stream = await open_stream(client, await link_token(db, View.OVERLAY))
        await next_block(stream)
        await hurt(db)
        await bot.listeners["on_characters_changed"](GUILD, (1,))
        assert event_of(await next_block(stream, within=1.0))[0] == "changed"
        stream.close()
    assert bot.listeners == {}  # removed when the server stopped


async def test_a_nudge_reads_only_its_server(db: Any) -> None:
    """A notice for one server reads that server's version alone, at once."""
    from bot.web.live_watcher import VersionWatcher

    asked: list[int] = []

    async def read_version(conn: Any, guild_id: int) -> tuple[int, ...]:
        asked.append(guild_id)
        return (len(asked),)  # (a new version at every read)

    watcher = VersionWatcher(db, poll_seconds=60.0, read_version=read_version)
    watcher.start()
    try:
        async with watcher.watch(1), watcher.watch(2) as two:
            asked.clear()
            watcher.nudge(3)  # nobody watches it: nothing read
            watcher.nudge(2)
            assert await watcher.wait_change(2, two, 1.0) != two
            assert asked == [2] and watcher.polls == 1
    finally:
        await watcher.stop()
    assert watcher.closing
