"""One worker round trip per statement: the few ways repositories talk to aiosqlite.

Every aiosqlite call is a hop to its worker thread and back (20–70 µs, more than
most statements cost). ``async with conn.execute(...) as cur: await cur.fetchone()``
is three hops (execute, fetch, close); ``execute_fetchall`` runs the statement and
reads every row in one. A statement with ``RETURNING`` must be read to its end
before the change is complete, which ``execute_fetchall`` does too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import aiosqlite

Params = Sequence[Any] | Mapping[str, Any]
T = TypeVar("T")


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[Any]:
    """Every row of ``sql`` (one round trip)."""
    return list(await conn.execute_fetchall(sql, params))


async def fetch_one(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> Any | None:
    """The first row of ``sql``, or None (one round trip; the statement runs to its end)."""
    rows = await conn.execute_fetchall(sql, params)
    for row in rows:
        return row
    return None


async def run(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
    """Run a statement without rows; how many rows it changed (one round trip)."""
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def run_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Params]) -> None:
    """Run ``sql`` once per parameter row (one round trip for all, none for no rows)."""
    rows = list(rows)
    if rows:
        await conn.executemany(sql, rows)


async def refusable(conn: aiosqlite.Connection, statement: Awaitable[T]) -> T:
    """Run a statement that a constraint may refuse so that a refusal undoes only it.

    SQLite undoes just the failed statement and the transaction goes on, at no cost;
    PostgreSQL would abort the whole transaction, so there the statement runs behind a
    savepoint (two more round trips, on creates and renames only). Either way a caller
    may answer "name taken" and still write in the same transaction.
    """
    if getattr(conn, "backend", "sqlite") != "postgresql":
        return await statement
    await conn.execute("SAVEPOINT refusable")
    try:
        result = await statement
    except BaseException:
        await conn.execute("ROLLBACK TO SAVEPOINT refusable")
        await conn.execute("RELEASE SAVEPOINT refusable")
        raise
    await conn.execute("RELEASE SAVEPOINT refusable")
    return result
