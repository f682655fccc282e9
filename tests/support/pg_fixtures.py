"""Fixtures for PostgreSQL: one throwaway server per session, one database per test.

The server's template database is migrated once; each test's database is a copy of
it (``CREATE DATABASE … TEMPLATE``), so a test starts at the latest schema without
paying for the migrations again, and is dropped afterwards.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.support.pg_server import NoServer, Server, start

BACKENDS = ("sqlite", "postgresql")
TEMPLATE = "tablebot_template"
_names = itertools.count(1)


def _admin(server: Server) -> Any:
    import psycopg

    return psycopg.connect(server.url, autocommit=True)


def create_database(server: Server, *, template: str | None = TEMPLATE) -> str:
    """A new empty (or migrated, from the template) database; its URL."""
    name = f"tablebot_test_{os.getpid()}_{next(_names)}"
    with _admin(server) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        if template:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        else:
            conn.execute(f"CREATE DATABASE {name}")
    return server.database_url(name)


def drop_database(server: Server, url: str) -> None:
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(url)["dbname"]
    with _admin(server) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _migrate_template(server: Server) -> None:
    from bot.storage.pg_database import PgDatabase

    async def migrate() -> None:
        database = await PgDatabase.open(server.database_url(TEMPLATE))
        try:
            await database.migrate()
        finally:
            await database.close()

    with _admin(server) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        conn.execute(f"CREATE DATABASE {TEMPLATE}")
    # On a thread with a loop of its own: a test's event loop may be running here.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, migrate()).result()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """The session's PostgreSQL server; skips (fails under CI) when none can start."""
    try:
        server = start()
    except NoServer as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test PostgreSQL too, but no server started: {exc}")
        pytest.skip(f"no PostgreSQL server available: {exc}")
    try:
        _migrate_template(server)
        yield server
    finally:
        if callable(server.stop):
            server.stop()


@asynccontextmanager
async def pg_database(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """A migrated PostgreSQL database of the test's own, open as ``PgDatabase``."""
    from bot.storage.pg_database import PgDatabase

    server: Server = request.getfixturevalue("pg_server")
    url = await asyncio.to_thread(create_database, server)
    database = await PgDatabase.open(url)
    try:
        yield database
    finally:
        await database.close()
        await asyncio.to_thread(drop_database, server, url)
