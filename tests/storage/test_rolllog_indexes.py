"""Migration 0016: the roll log's indexes, on both backends. Rows logged before it are
all still there (ids and counters too), and every read the log serves still finds its
rows through an index rather than a scan of the whole log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.database import Database
from bot.storage.migrations import MIGRATIONS_DIR, migrate
from bot.storage.pg_database import PgDatabase
from bot.storage.pg_migrations import PG_MIGRATIONS_DIR
from bot.storage.pg_migrations import migrate as pg_migrate
from tests.support.pg_fixtures import empty_pg as empty_pg  # (a fixture)

BEFORE = 15  # the schema version just before the migration
AFTER = 16  # the migration's own (later ones, 0018 on damage_choices, are tested apart)

ROLL_LOG_INDEXES = {
    "roll_log_by_guild",
    "roll_log_by_character",
    "roll_log_by_opponent",
    "roll_log_by_message",
}

# What each backend holds before the migration: two campaigns, two characters, rolls
# with and without a character, an opponent and a message, and a damage choice.
SETUP = (
    "INSERT INTO campaigns (guild_id) VALUES (1), (2)",
    "INSERT INTO characters (id, guild_id, owner_id, name, name_key, kind, sheet, hp,"
    " recovery, determination) VALUES (1, 1, 10, 'Bram', 'bram', 'pc', '{}', 10, 1, 1),"
    " (2, 1, 11, 'Gob', 'gob', 'antagonist', '{}', 8, 1, 1)",
    "INSERT INTO roll_log (guild_id, channel_id, user_id, kind, expression, result, total,"
    " secret, character_id, message_id, opponent_id) VALUES"
    " (1, 5, 10, 'attack', 'attack Bram → Gob', '{\"hit\":null}', 0, 0, 1, 900, 2),"
    " (1, 5, 10, 'roll', '1d6', '{\"dice\":[4]}', 4, 0, NULL, NULL, NULL),"
    " (2, 6, 12, 'roll', '2d6', '{\"dice\":[1,2]}', 3, 1, NULL, 901, NULL),"
    " (NULL, NULL, 13, 'roll', '1d20', '{\"dice\":[20]}', 20, 0, NULL, NULL, NULL)",
    "INSERT INTO damage_choices (guild_id, channel_id, user_id, attacker_id, target_id,"
    " intro, inputs, rolls, chosen_index, expires_at) VALUES"
    " (1, 5, 10, 1, 2, '{}', '{\"b\":1,\"a\":2}', '{}', 0, '2026-12-01T00:00:00.000000Z')",
)
DUMP = (
    "SELECT id, guild_id, channel_id, user_id, kind, expression, result, total, secret,"
    " created_at, character_id, message_id, opponent_id FROM roll_log ORDER BY id",
    "SELECT id, guild_id, target_id, inputs, expires_at FROM damage_choices ORDER BY id",
)
ADD_ROLL = (
    "INSERT INTO roll_log (guild_id, user_id, kind, expression, result)"
    " VALUES (2, 12, 'roll', '1d4', '{}') RETURNING id"
)


def _first_migrations(source: Path, into: Path, count: int) -> Path:
    into.mkdir()
    for path in sorted(source.glob("*.sql"))[:count]:
        (into / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return into


async def _rows(conn: Any, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in await conn.execute_fetchall(sql)]


async def test_sqlite_keeps_every_row_and_counter(tmp_path: Path) -> None:
    old = _first_migrations(MIGRATIONS_DIR, tmp_path / "old", BEFORE)
    db = await Database.open(tmp_path / "old.sqlite3")
    try:
        assert await migrate(db.connection, old) == BEFORE
        async with db.transaction() as conn:
            for sql in SETUP:
                await conn.execute(sql)
            # A deleted choice's id is never handed out again (AUTOINCREMENT stays).
            await conn.execute("DELETE FROM damage_choices")
        async with db.read() as conn:
            before = [await _rows(conn, sql) for sql in DUMP]
        assert len(before[0]) == 4
        await migrate(db.connection, _first_migrations(MIGRATIONS_DIR, tmp_path / "new", AFTER))
        async with db.read() as conn:
            assert [await _rows(conn, sql) for sql in DUMP] == before
            indexes = await _rows(
                conn,
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'roll_log'",
            )
        assert {name for (name,) in indexes} == ROLL_LOG_INDEXES
        async with db.read() as conn:
            indexes = await _rows(
                conn,
                "SELECT name FROM sqlite_master WHERE type = 'index'"
                " AND tbl_name = 'damage_choices'",
            )
        assert {name for (name,) in indexes} == {"damage_choices_by_target"}
        async with db.transaction() as conn:
            assert await _rows(conn, ADD_ROLL) == [(5,)]
            await conn.execute(
                "INSERT INTO damage_choices (guild_id, channel_id, user_id, intro, inputs,"
                " rolls, chosen_index, expires_at) VALUES (1, 5, 10, '{}', '{}', '{}', 0, 'x')"
            )
            assert await _rows(conn, "SELECT id FROM damage_choices") == [(2,)]
            # A deleted character's rolls lose their link on both sides (the partial
            # index finds them) and the rolls stay.
            await conn.execute("DELETE FROM characters WHERE id = 2")
            assert await _rows(
                conn, "SELECT id, character_id, opponent_id FROM roll_log WHERE id = 1"
            ) == [(1, 1, None)]
    finally:
        await db.close()


# Every read of the log by something other than its id, with the index it must use.
PLANS = {
    "SELECT * FROM roll_log WHERE guild_id IS ? ORDER BY id DESC LIMIT ?": "roll_log_by_guild",
    "SELECT EXISTS (SELECT 1 FROM roll_log WHERE guild_id = ?)": "roll_log_by_guild",
    "SELECT * FROM roll_log WHERE message_id = ? ORDER BY id DESC LIMIT 1": "roll_log_by_message",
    "SELECT * FROM roll_log WHERE character_id = ? AND kind IN (?, ?) ORDER BY id DESC LIMIT 1": (
        "roll_log_by_character"
    ),
    "SELECT * FROM roll_log WHERE opponent_id = ? AND kind IN (?, ?) ORDER BY id DESC LIMIT 1": (
        "roll_log_by_opponent"
    ),
    # What a deleted character's ON DELETE SET NULL runs.
    "UPDATE roll_log SET character_id = NULL WHERE character_id = ?": "roll_log_by_character",
    "UPDATE roll_log SET opponent_id = NULL WHERE opponent_id = ?": "roll_log_by_opponent",
}


async def test_sqlite_reads_of_the_log_use_an_index(db: Database) -> None:
    async with db.read() as conn:
        for sql, index in PLANS.items():
            params = (1, *["attack"] * (sql.count("?") - 1))
            plan = await conn.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
            details = " ".join(str(row[3]) for row in plan)
            assert f"INDEX {index} " in details, (sql, details)
            assert "SCAN roll_log" not in details, (sql, details)


async def test_postgresql_keeps_every_row_and_counter(tmp_path: Path, empty_pg: PgDatabase) -> None:
    old = _first_migrations(PG_MIGRATIONS_DIR, tmp_path / "old", BEFORE)
    async with empty_pg._connection() as conn:
        assert await pg_migrate(conn, old) == BEFORE
    async with empty_pg.transaction() as conn:
        for sql in SETUP:
            await conn.execute(sql)
    async with empty_pg.read() as conn:
        before = [await _rows(conn, sql) for sql in DUMP]
    assert len(before[0]) == 4
    async with empty_pg._connection() as conn:
        new = _first_migrations(PG_MIGRATIONS_DIR, tmp_path / "new", AFTER)
        assert await pg_migrate(conn, new) == AFTER
    async with empty_pg.read() as conn:
        assert [await _rows(conn, sql) for sql in DUMP] == before
        indexes = await _rows(conn, "SELECT indexname FROM pg_indexes WHERE tablename = 'roll_log'")
        choice_indexes = await _rows(
            conn, "SELECT indexname FROM pg_indexes WHERE tablename = 'damage_choices'"
        )
    assert {name for (name,) in indexes} == ROLL_LOG_INDEXES | {"roll_log_pkey"}
    assert {name for (name,) in choice_indexes} == {
        "damage_choices_pkey",
        "damage_choices_by_target",
    }
    async with empty_pg.transaction() as conn:
        assert await _rows(conn, ADD_ROLL) == [(5,)]
