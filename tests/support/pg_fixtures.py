"""Fixtures for PostgreSQL: one throwaway server per session, an empty schema per test.

The test database is migrated once per test process (each xdist worker has a server
of its own); each test then starts from its tables emptied and its ids starting at 1
again, which costs milliseconds where a fresh database costs a third of a second. The
server is a test server: fsync is off (a crash loses nothing a test needs).
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
TEMPLATE = "tablebot_template"  # migrated once; the tests' database and empty_pg copy it
SHARED = "tablebot_tests"
_names = itertools.count(1)


def _admin(server: Server) -> Any:
    import psycopg

    return psycopg.connect(server.url, autocommit=True)


def create_database(
    server: Server, *, template: str | None = TEMPLATE, name: str | None = None
) -> str:
    """A new empty (or migrated, from the template) database; its URL."""
    name = name or f"tablebot_test_{os.getpid()}_{next(_names)}"
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
        if server.stop is not None:  # our own test server: durability buys nothing here
            with _admin(server) as conn:
                conn.execute("ALTER SYSTEM SET fsync = off")
                conn.execute("ALTER SYSTEM SET synchronous_commit = off")
                conn.execute("ALTER SYSTEM SET full_page_writes = off")
                conn.execute("SELECT pg_reload_conf()")
        _migrate_template(server)
        create_database(server, name=SHARED)
        yield server
    finally:
        if callable(server.stop):
            server.stop()


@pytest.fixture
async def empty_pg(pg_server: Server) -> AsyncIterator[Any]:
    """A PostgreSQL database with no tables yet (for migration tests), dropped after."""
    from bot.storage.pg_database import PgDatabase

    url = await asyncio.to_thread(create_database, pg_server, template=None)
    database = await PgDatabase.open(url)
    yield database
    await database.close()
    await asyncio.to_thread(drop_database, pg_server, url)


def pg_test_url(request: pytest.FixtureRequest) -> str:
    """The URL of the database ``pg_database`` opens (for Settings and child processes)."""
    server: Server = request.getfixturevalue("pg_server")
    return server.database_url(SHARED)


# What the tests' database holds besides the schema's own bookkeeping.
_TABLES = (
    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    " AND tablename <> 'schema_version'"
)
_FOREIGN_KEYS = (
    "SELECT child.relname, parent.relname FROM pg_constraint c"
    " JOIN pg_class child ON child.oid = c.conrelid"
    " JOIN pg_class parent ON parent.oid = c.confrelid"
    " WHERE c.contype = 'f' AND child.relnamespace = current_schema()::regnamespace"
)
_SEQUENCES = "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
_resets: dict[frozenset[str], str] = {}  # the tables present -> the script emptying them


async def _emptying_script(conn: Any) -> str:
    """DELETE every row, children before parents, and start every id at 1 again.

    What ``TRUNCATE … RESTART IDENTITY CASCADE`` does, at a tenth of its cost on tables
    this small (a truncate makes new files for every table). Tests may add tables of
    their own (the kill test's ledger), so the script follows what is there.
    """
    tables = frozenset(row[0] for row in await conn.execute_fetchall(_TABLES))
    script = _resets.get(tables)
    if script is None:
        edges = [(c, p) for c, p in await conn.execute_fetchall(_FOREIGN_KEYS) if c != p]
        order: list[str] = []
        left = set(tables)
        while left:  # a table goes once no table left refers to it
            ready = sorted(t for t in left if not any(p == t and c in left for c, p in edges))
            if not ready:
                raise AssertionError(f"foreign keys form a cycle among {sorted(left)}")
            order += ready
            left -= set(ready)
        sequences = [row[0] for row in await conn.execute_fetchall(_SEQUENCES)]
        script = "".join(f"DELETE FROM {table};" for table in order) + "".join(
            f"ALTER SEQUENCE {name} RESTART;" for name in sequences
        )
        _resets[tables] = script
    return script


@asynccontextmanager
async def pg_database(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """The session's migrated PostgreSQL database, emptied, open as ``PgDatabase``."""
    from bot.storage.pg_database import PgDatabase

    server: Server = request.getfixturevalue("pg_server")
    url = server.database_url(SHARED)
    database = await PgDatabase.open(url)
    try:
        async with database.transaction() as conn:
            await conn.execute(await _emptying_script(conn))
        yield database
    finally:
        await database.close()


async def open_second(db: Any) -> Any:
    """Another handle on ``db``'s database, as a second bot process would open it."""
    if db.backend == "postgresql":
        from bot.storage.pg_database import PgDatabase

        return await PgDatabase.open(db.url)
    from bot.storage.database import Database

    return await Database.open(db.path)


async def open_raw(db: Any) -> Any:
    """A bare connection to ``db``'s database in autocommit (a script, another program)."""
    if db.backend == "postgresql":
        from bot.storage.pg import connect

        return await connect(db.url)
    import aiosqlite

    conn = await aiosqlite.connect(str(db.path), isolation_level=None)
    await conn.execute("PRAGMA busy_timeout = 10000")
    return conn
