"""Migration 0018: damage_choices_by_attacker, on both backends. Deleting a character
runs damage_choices' ON DELETE SET NULL on attacker_id; that lookup now goes through the
index instead of scanning every open damage choice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.database import Database
from bot.storage.migrations import MIGRATIONS_DIR, migrate
from bot.storage.pg_database import PgDatabase
from bot.storage.pg_migrations import migrate as pg_migrate
from tests.support.pg_fixtures import empty_pg as empty_pg  # (a fixture)

BEFORE = 17  # the schema version just before the migration

# What the ON DELETE SET NULL of a deleted character runs (SQLite's foreign key action).
SET_NULL = "UPDATE damage_choices SET attacker_id = NULL WHERE attacker_id = ?"

SETUP = (
    "INSERT INTO campaigns (guild_id) VALUES (1)",
    "INSERT INTO characters (id, guild_id, owner_id, name, name_key, kind, sheet, hp,"
    " recovery, determination) VALUES (1, 1, 10, 'Bram', 'bram', 'pc', '{}', 10, 1, 1),"
    " (2, 1, 11, 'Gob', 'gob', 'antagonist', '{}', 8, 1, 1)",
    # Bram hits Gob; Gob hits Bram; a /damage for no attacker hits Gob.
    "INSERT INTO damage_choices (guild_id, channel_id, user_id, attacker_id, target_id,"
    " intro, inputs, rolls, chosen_index, expires_at) VALUES"
    " (1, 5, 10, 1, 2, '{}', '{}', '{}', 0, 'x'),"
    " (1, 5, 11, 2, 1, '{}', '{}', '{}', 0, 'x'),"
    " (1, 5, 11, NULL, 2, '{}', '{}', '{}', 0, 'x')",
)


def _first_migrations(into: Path, count: int) -> Path:
    into.mkdir()
    for path in sorted(MIGRATIONS_DIR.glob("*.sql"))[:count]:
        (into / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return into


async def _plan(db: Database) -> str:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(f"EXPLAIN QUERY PLAN {SET_NULL}", (1,))
    return " ".join(str(row[3]) for row in rows)


async def _rows(conn: Any, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in await conn.execute_fetchall(sql)]


async def test_sqlite_the_deleted_attackers_lookup_uses_the_index(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "test.sqlite3")
    try:
        await migrate(db.connection, _first_migrations(tmp_path / "old", BEFORE))
        assert "SCAN damage_choices" in await _plan(db)  # the scan 0018 removes
        await migrate(db.connection)
        async with db.read() as conn:
            # The action is SET NULL on attacker_id (0004): the statement planned here.
            keys = await _rows(conn, "PRAGMA foreign_key_list(damage_choices)")
        assert ("attacker_id", "SET NULL") in {(k[3], k[6]) for k in keys}
        details = await _plan(db)
        assert "INDEX damage_choices_by_attacker (attacker_id=?)" in details, details
        assert "SCAN damage_choices" not in details, details
        # And the delete does what it did: the attacker's choices lose their link, the
        # choices it was the target of go (damage_choices_by_target's CASCADE).
        async with db.transaction() as conn:
            for sql in SETUP:
                await conn.execute(sql)
            await conn.execute("DELETE FROM characters WHERE id = 1")
            kept = "SELECT id, attacker_id, target_id FROM damage_choices ORDER BY id"
            assert await _rows(conn, kept) == [
                (1, None, 2),
                (3, None, 2),
            ]
            used = await _rows(
                conn,
                "SELECT count(*) FROM damage_choices INDEXED BY damage_choices_by_attacker"
                " WHERE attacker_id = 2",
            )
        assert used == [(0,)]  # Gob's choice went with its target, Bram
    finally:
        await db.close()


async def test_postgresql_the_deleted_attackers_lookup_uses_the_index(
    empty_pg: PgDatabase,
) -> None:
    async with empty_pg._connection() as conn:
        await pg_migrate(conn)
    async with empty_pg.read() as conn:
        [(definition,)] = await _rows(
            conn,
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'damage_choices_by_attacker'",
        )
    assert definition.endswith("(attacker_id) WHERE (attacker_id IS NOT NULL)"), definition
    async with empty_pg.transaction() as conn:
        for sql in SETUP:
            await conn.execute(sql)
        # With three rows the planner would scan anyway: forbid that to see the index
        # is usable for the foreign key's lookup (its NOT NULL predicate implied).
        await conn.execute("SET LOCAL enable_seqscan = off")
        plan = await _rows(
            conn, "EXPLAIN UPDATE damage_choices SET attacker_id = NULL WHERE attacker_id = 1"
        )
        await conn.execute("DELETE FROM characters WHERE id = 1")
        kept = await _rows(
            conn, "SELECT id, attacker_id, target_id FROM damage_choices ORDER BY id"
        )
    text = " ".join(str(row[0]) for row in plan)
    assert "damage_choices_by_attacker" in text, text
    assert kept == [(1, None, 2), (3, None, 2)]
