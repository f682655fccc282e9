"""Copy a campaign database to another backend (SQLite ↔ PostgreSQL), verified row for row.

    python -m bot.storage.copy SOURCE DEST

SOURCE and DEST are database URLs (``sqlite:data/tablebot.sqlite3``, a plain file path,
or ``postgresql://user@host/db``). Stop the bot first. Both are migrated to this code's
schema version; the destination must then be empty and have the same tables and
columns as the source, or the tool refuses in one line and writes nothing.

The source is read in ONE read transaction (a consistent snapshot) and the destination
written in ONE write transaction, which is committed only after the destination,
re-read inside that same transaction, shows every table's row count and content
digest equal to the source's: a copy is whole and verified, or not there at all.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bot.storage.copy_dialects import quoted
from bot.storage.copy_endpoints import CopyRefused, Endpoint, check_url, open_endpoint
from bot.storage.errors import StorageError
from bot.storage.sql import run_many

BATCH_ROWS = 500
_DIGEST_MODULUS = 2**256


@dataclass(frozen=True)
class TableFigures:
    """A table's row count and content digest: the sum of a hash of each row (modulo
    2^256), so it does not depend on the order the backends return rows in (their
    text collations differ), yet any row changed, lost or doubled changes it."""

    table: str
    rows: int
    digest: str


@dataclass(frozen=True)
class CopyReport:
    version: int
    tables: list[TableFigures]
    counters: dict[str, int]

    @property
    def rows(self) -> int:
        return sum(figures.rows for figures in self.tables)


def canonical(value: Any) -> Any:
    """One spelling of a value on both backends (a driver may hand back a bool or a
    Decimal where SQLite keeps an integer)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value).hex()}
    return value


def row_hash(row: Sequence[Any]) -> int:
    encoded = json.dumps([canonical(value) for value in row], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(encoded.encode()).digest(), "big")


async def batches(conn: Any, sql: str) -> AsyncIterator[list[tuple[Any, ...]]]:
    async with conn.execute(sql) as cursor:
        while rows := await cursor.fetchmany(BATCH_ROWS):
            yield [tuple(row) for row in rows]


async def table_figures(conn: Any, table: str, columns: list[str]) -> TableFigures:
    select = f"SELECT {', '.join(map(quoted, columns))} FROM {quoted(table)}"
    count, total = 0, 0
    async for rows in batches(conn, select):
        count += len(rows)
        for row in rows:
            total = (total + row_hash(row)) % _DIGEST_MODULUS
    return TableFigures(table, count, f"{total:064x}")


def load_order(parents: dict[str, set[str]]) -> list[str]:
    """Tables with every table they reference first (self-references aside)."""
    ordered: list[str] = []
    placed: set[str] = set()
    pending = sorted(parents)
    while pending:
        ready = [t for t in pending if parents[t] - {t} <= placed]
        if not ready:  # a reference cycle: the backend defers its checks to COMMIT
            ready = pending[:1]
        for table in ready:
            ordered.append(table)
            placed.add(table)
        pending = [t for t in pending if t not in placed]
    return ordered


async def schema(endpoint: Endpoint, conn: Any) -> dict[str, list[str]]:
    dialect = endpoint.dialect
    return {table: await dialect.columns(conn, table) for table in await dialect.tables(conn)}


async def copy_database(source_url: str, dest_url: str) -> CopyReport:
    """Copy every row from ``source_url`` into the empty ``dest_url``; raise CopyRefused."""
    if source_url == dest_url:
        raise CopyRefused("the source and the destination are the same database")
    check_url(source_url)
    check_url(dest_url)
    source = await open_endpoint(source_url, must_exist=True)
    try:
        dest = await open_endpoint(dest_url, must_exist=False)
        try:
            return await _copy(source, dest)
        finally:
            await dest.close()
    finally:
        await source.close()


async def _copy(source: Endpoint, dest: Endpoint) -> CopyReport:
    version = await source.migrate()
    dest_version = await dest.migrate()
    if version != dest_version:
        raise CopyRefused(
            f"{source.label} is at schema version {version} but {dest.label} at {dest_version}"
        )
    async with source.db.read() as src:
        tables = await schema(source, src)
        parents = {table: await source.dialect.parents(src, table) for table in tables}
        counters = await source.dialect.counters(src)
        async with dest.db.transaction() as dst:
            dest_tables = await schema(dest, dst)
            if _shape(dest_tables) != _shape(tables):  # (column order may differ)
                raise CopyRefused(_mismatch(source.label, tables, dest.label, dest_tables))
            for table, columns in tables.items():
                if (await table_figures(dst, table, columns)).rows:
                    raise CopyRefused(
                        f"{dest.label} is not empty (table {table} has rows);"
                        " copy into a new, empty database"
                    )
            await dest.dialect.defer_constraints(dst)
            expected = []
            for table in load_order(parents):
                expected.append(await _copy_table(src, dst, table, tables[table]))
            await dest.dialect.set_counters(dst, counters)
            for figures in expected:
                found = await table_figures(dst, figures.table, tables[figures.table])
                if found != figures:  # raising rolls the whole copy back
                    raise CopyRefused(
                        f"verification failed for table {figures.table}: {figures.rows} rows"
                        f" read, {found.rows} found written (digests differ); nothing kept"
                    )
            if await dest.dialect.counters(dst) != counters:
                raise CopyRefused("verification failed for the id counters; nothing kept")
    return CopyReport(version, sorted(expected, key=lambda f: f.table), counters)


async def _copy_table(src: Any, dst: Any, table: str, columns: list[str]) -> TableFigures:
    names = ", ".join(map(quoted, columns))
    insert = f"INSERT INTO {quoted(table)} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    count, total = 0, 0
    async for rows in batches(src, f"SELECT {names} FROM {quoted(table)}"):
        await run_many(dst, insert, rows)
        count += len(rows)
        for row in rows:
            total = (total + row_hash(row)) % _DIGEST_MODULUS
    return TableFigures(table, count, f"{total:064x}")


def _shape(tables: dict[str, list[str]]) -> dict[str, set[str]]:
    return {table: set(columns) for table, columns in tables.items()}


def _mismatch(
    source: str, tables: dict[str, list[str]], dest: str, dest_tables: dict[str, list[str]]
) -> str:
    only_source = sorted(set(tables) - set(dest_tables))
    only_dest = sorted(set(dest_tables) - set(tables))
    if only_source or only_dest:
        what = f"table {(only_source or only_dest)[0]} exists only in "
        what += source if only_source else dest
    else:
        table = next(t for t in sorted(tables) if set(tables[t]) != set(dest_tables[t]))
        what = f"table {table} has other columns in {dest}"
    return f"the schemas differ ({what}); both must come from this version of the bot"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.copy",
        description="Copy a campaign database into an empty one, verified row for row.",
    )
    parser.add_argument("source", help="sqlite:PATH, a file path, or postgresql://…")
    parser.add_argument("dest", help="an empty database: sqlite:PATH or postgresql://…")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        report = asyncio.run(copy_database(args.source, args.dest))
    except (CopyRefused, StorageError) as exc:
        print(f"error: {exc}.".replace("..", "."), file=sys.stderr)
        return 1
    width = max((len(f.table) for f in report.tables), default=5)
    for figures in report.tables:
        print(f"{figures.table:<{width}}  {figures.rows:>8} rows  {figures.digest[:16]}")
    print(
        f"copied {report.rows} rows in {len(report.tables)} tables at schema version"
        f" {report.version}; every table's count and digest verified"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
