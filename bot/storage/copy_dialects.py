"""What the copy tool (``bot.storage.copy``) must ask each backend in its own SQL:
which tables and columns exist, which tables reference which, and the id counters.

Rows themselves move with plain ``SELECT`` / ``INSERT`` that both backends share; only
these catalogue questions differ, so they are the whole of this module.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.storage.sql import fetch_all, run


class Dialect(Protocol):
    """The catalogue questions, for one backend. ``conn`` is inside a read or write."""

    async def tables(self, conn: Any) -> list[str]: ...

    async def columns(self, conn: Any, table: str) -> list[str]: ...

    async def parents(self, conn: Any, table: str) -> set[str]: ...

    async def counters(self, conn: Any) -> dict[str, int]: ...

    async def set_counters(self, conn: Any, counters: dict[str, int]) -> None: ...

    async def defer_constraints(self, conn: Any) -> None: ...


def quoted(name: str) -> str:
    """An identifier from the catalogue, double-quoted (both backends' standard)."""
    return '"' + name.replace('"', '""') + '"'


class SqliteDialect:
    async def tables(self, conn: Any) -> list[str]:
        rows = await fetch_all(
            conn,
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
        return [str(row[0]) for row in rows]

    async def columns(self, conn: Any, table: str) -> list[str]:
        rows = await fetch_all(conn, f"SELECT name FROM pragma_table_info({_literal(table)})")
        return [str(row[0]) for row in rows]

    async def parents(self, conn: Any, table: str) -> set[str]:
        rows = await fetch_all(
            conn, f'SELECT "table" FROM pragma_foreign_key_list({_literal(table)})'
        )
        return {str(row[0]) for row in rows}

    async def counters(self, conn: Any) -> dict[str, int]:
        # AUTOINCREMENT's high-water marks: ids of deleted rows are never handed out
        # again (a stale button naming one must not find a new row), so they move too.
        rows = await fetch_all(conn, "SELECT name, seq FROM sqlite_sequence ORDER BY name")
        return {str(row[0]): int(row[1]) for row in rows}

    async def set_counters(self, conn: Any, counters: dict[str, int]) -> None:
        for table, seq in counters.items():
            await run(conn, "DELETE FROM sqlite_sequence WHERE name = ?", (table,))
            await run(conn, "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))

    async def defer_constraints(self, conn: Any) -> None:
        # Foreign keys are checked at COMMIT (a self-reference may point forward).
        await run(conn, "PRAGMA defer_foreign_keys = ON")


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class PostgresDialect:
    """The same questions of PostgreSQL's catalogue, in the current schema. The
    migrations' own bookkeeping (``schema_version``) is not data: each end keeps its own."""

    async def tables(self, conn: Any) -> list[str]:
        rows = await fetch_all(
            conn,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            " AND table_name <> 'schema_version' ORDER BY table_name",
        )
        return [str(row[0]) for row in rows]

    async def columns(self, conn: Any, table: str) -> list[str]:
        rows = await fetch_all(
            conn,
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?"
            " ORDER BY ordinal_position",
            (table,),
        )
        return [str(row[0]) for row in rows]

    async def parents(self, conn: Any, table: str) -> set[str]:
        rows = await fetch_all(
            conn,
            "SELECT DISTINCT referenced.relname FROM pg_constraint AS c"
            " JOIN pg_class AS referenced ON referenced.oid = c.confrelid"
            " WHERE c.contype = 'f' AND c.conrelid = ?::regclass",
            (quoted(table),),
        )
        return {str(row[0]) for row in rows}

    async def _identities(self, conn: Any) -> dict[str, str]:
        rows = await fetch_all(
            conn,
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'",
        )
        return {str(row[0]): str(row[1]) for row in rows}

    async def counters(self, conn: Any) -> dict[str, int]:
        # An identity's sequence counts as SQLite's AUTOINCREMENT mark once it was used.
        found: dict[str, int] = {}
        for table, column in sorted((await self._identities(conn)).items()):
            rows = await fetch_all(
                conn,
                "SELECT s.last_value FROM pg_sequences AS s"
                " WHERE quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename)"
                " = pg_get_serial_sequence(?, ?)",
                (quoted(table), column),
            )
            if rows and rows[0][0] is not None:
                found[table] = int(rows[0][0])
        return found

    async def set_counters(self, conn: Any, counters: dict[str, int]) -> None:
        identities = await self._identities(conn)
        for table, seq in counters.items():
            if table in identities:
                await fetch_all(
                    conn,
                    "SELECT setval(pg_get_serial_sequence(?, ?)::regclass, ?, true)",
                    (quoted(table), identities[table], seq),
                )

    async def defer_constraints(self, conn: Any) -> None:
        # The schema's foreign keys are not DEFERRABLE: the load order keeps them.
        await run(conn, "SET CONSTRAINTS ALL DEFERRED")
