"""A PostgreSQL connection that answers like the aiosqlite connection repositories use.

Repositories call ``execute`` (a cursor with ``rowcount``, ``fetchone``/``fetchall``,
usable as ``async with``), ``execute_fetchall`` and ``executemany`` with SQLite's
dialect; rows are read by column name and by index. ``PgConnection`` gives them the
same over psycopg 3, translating each statement once (``bot.storage.dialect``).

Errors keep SQLite's classes where repositories catch them: a constraint violation
is raised as ``PgIntegrityError``, a ``sqlite3.IntegrityError`` (which is
``aiosqlite.IntegrityError``) whose message starts like SQLite's ("UNIQUE constraint
failed"), so ``except aiosqlite.IntegrityError`` and its ``"UNIQUE" in str(exc)`` test
work unchanged. Unlike SQLite, PostgreSQL aborts the whole transaction on a failed
statement; every repository that catches one re-raises a user error, which rolls the
transaction back anyway (``PgDatabase`` uses savepoints where it must go on).

psycopg is imported here only, and this module only when a ``postgresql://`` URL is
configured: the SQLite default needs nothing but Python.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from bot.errors import UserError
from bot.storage.dialect import to_postgres

Params = Sequence[Any] | Mapping[str, Any]


class PgIntegrityError(sqlite3.IntegrityError):
    """A PostgreSQL constraint violation, worded like SQLite's."""


class DatabaseBusy(UserError):
    """PostgreSQL broke a deadlock between two processes' commands by refusing this one
    (rare: only two shards writing one guild's rows at once, as during a re-shard).
    Nothing of it was written; the user is told to run it again."""

    def __init__(self) -> None:
        super().__init__("The table was busy at that very moment: run the command again.")


class Row:
    """One result row: ``row[0]``, ``row["name"]``, iteration, ``keys()`` (like sqlite3.Row)."""

    __slots__ = ("_index", "_values")

    def __init__(self, values: tuple[Any, ...], index: dict[str, int]) -> None:
        self._values = values
        self._index = index

    def __getitem__(self, key: int | str | slice) -> Any:
        if isinstance(key, str):
            return self._values[self._index[key]]
        return self._values[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Row):
            return self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"Row{self._values!r}"


def _row_factory(cursor: Any) -> Any:
    description = cursor.description or ()
    index: dict[str, int] = {}
    for i, column in enumerate(description):
        index.setdefault(column.name, i)  # like sqlite3.Row: the first of a repeated name

    def make(values: Sequence[Any]) -> Row:
        return Row(tuple(values), index)

    return make


class PgCursor:
    """The part of aiosqlite's cursor repositories use; rows are already fetched."""

    def __init__(self, rows: list[Row], rowcount: int, description: Any) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        self.description = description

    async def fetchone(self) -> Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Row]:
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows

    async def fetchmany(self, size: int = 1) -> list[Row]:
        rows = self._rows[self._next : self._next + size]
        self._next += len(rows)
        return rows

    async def close(self) -> None:
        self._rows = []

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __aiter__(self) -> PgCursor:
        return self

    async def __anext__(self) -> Row:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row


class _Pending:
    """``await conn.execute(...)`` or ``async with conn.execute(...) as cursor``."""

    def __init__(self, conn: PgConnection, sql: str, params: Params) -> None:
        self._run = conn._execute(sql, params)
        self._cursor: PgCursor | None = None

    def __await__(self) -> Any:
        return self._run.__await__()

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self._run
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class PgConnection:
    """One psycopg connection (autocommit: ``PgDatabase`` sends BEGIN and COMMIT)."""

    backend = "postgresql"

    def __init__(self, raw: psycopg.AsyncConnection[Any]) -> None:
        self.raw = raw
        self.row_factory: Any = None  # set by callers for aiosqlite; rows here always have names
        self.statements = 0  # statements sent, ever (each is one round trip; for the bench)
        self.writing = False  # inside PgDatabase.transaction: ROW_LOCK locks (dialect)
        # What the open write transaction changed (bot.storage.changes); None outside one.
        self.changed_characters: dict[int, set[int]] | None = None

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    def execute(self, sql: str, params: Params = ()) -> _Pending:
        return _Pending(self, sql, params)

    async def _execute(self, sql: str, params: Params) -> PgCursor:
        text, values = to_postgres(sql, params, writing=self.writing)
        self.statements += 1
        cursor = self.raw.cursor(row_factory=_row_factory)
        try:
            # Parameters always given (even none): psycopg then undoes the doubled ``%``.
            await cursor.execute(text, values)
            rows = await cursor.fetchall() if cursor.description is not None else []
            return PgCursor(rows, cursor.rowcount, cursor.description)
        except (pg_errors.IntegrityError, pg_errors.InvalidTextRepresentation) as exc:
            mapped = _integrity(exc)
            if mapped is exc:
                raise
            raise mapped from exc
        except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure) as exc:
            raise DatabaseBusy() from exc
        finally:
            await cursor.close()

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        cursor = await self._execute(sql, params)
        return await cursor.fetchall()

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        rows = list(rows)
        if not rows:
            return
        text, _ = to_postgres(sql, rows[0])
        values = [to_postgres(sql, row)[1] for row in rows]
        self.statements += 1  # psycopg pipelines the batch: one round trip
        try:
            async with self.raw.cursor() as cursor:
                await cursor.executemany(text, values)
        except (pg_errors.IntegrityError, pg_errors.InvalidTextRepresentation) as exc:
            mapped = _integrity(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    async def executescript(self, script: str) -> None:
        """Run PostgreSQL text as it is (migrations): no translation, no parameters."""
        self.statements += 1
        await self.raw.execute(script.encode())  # bytes: psycopg leaves ``%`` alone

    async def close(self) -> None:
        await self.raw.close()


def _integrity(exc: psycopg.Error) -> Exception:
    """SQLite's wording, which repositories test for (``"UNIQUE" in str(exc)``)."""
    diag = exc.diag
    if isinstance(exc, pg_errors.InvalidTextRepresentation):
        # The migrations' json_valid() casts: invalid JSON fails the cast, where
        # SQLite's CHECK (json_valid(x)) fails the check. Any other bad text stays.
        if "json" not in str(exc).lower():
            return exc
        return PgIntegrityError("CHECK constraint failed: json_valid")
    what = diag.constraint_name or diag.column_name or ""
    if isinstance(exc, pg_errors.UniqueViolation):
        return PgIntegrityError(f"UNIQUE constraint failed: {what}")
    if isinstance(exc, pg_errors.ForeignKeyViolation):
        return PgIntegrityError("FOREIGN KEY constraint failed")
    if isinstance(exc, pg_errors.NotNullViolation):
        return PgIntegrityError(f"NOT NULL constraint failed: {what}")
    if isinstance(exc, pg_errors.CheckViolation):
        return PgIntegrityError(f"CHECK constraint failed: {what}")
    return PgIntegrityError(str(exc))


async def connect(url: str) -> PgConnection:
    """A new connection in autocommit mode (raises psycopg.OperationalError)."""
    raw = await psycopg.AsyncConnection.connect(url, autocommit=True)
    return PgConnection(raw)
