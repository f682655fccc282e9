"""The SQLite → PostgreSQL rewrites of bot/storage/dialect.py, statement by statement."""

from __future__ import annotations

import pytest

from bot.storage.dialect import OVERRIDES, ROW_LOCK, NotPortable, to_postgres


def pg(sql: str, params: object = (), *, writing: bool = False) -> str:
    return to_postgres(sql, params, writing=writing)[0]  # type: ignore[arg-type]


def test_placeholders_become_psycopgs_and_percent_signs_are_doubled() -> None:
    assert pg("SELECT a FROM t WHERE b = ? AND c LIKE 'x%'") == (
        "SELECT a FROM t WHERE b = %s AND c LIKE 'x%%'"
    )
    assert pg("UPDATE t SET a = :loss WHERE id = :id", {"loss": 1, "id": 2}) == (
        "UPDATE t SET a = %(loss)s WHERE id = %(id)s"
    )
    # A ? or :name inside a string literal is text, not a parameter.
    assert pg("SELECT '?', ':x' FROM t WHERE a = ?") == "SELECT '?', ':x' FROM t WHERE a = %s"


def test_sqlite_timestamps_become_the_migrations_function() -> None:
    sql = "UPDATE t SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?"
    assert pg(sql) == "UPDATE t SET updated_at = tablebot_now() WHERE id = %s"


def test_scalar_max_and_min_become_greatest_and_least_but_aggregates_stay() -> None:
    assert pg("UPDATE c SET hp = MAX(hp, MIN(hp + ?, ?))") == (
        "UPDATE c SET hp = GREATEST(hp, LEAST(hp + %s, %s))"
    )
    aggregates = "SELECT MIN(n), MAX(x) FROM t GROUP BY y"
    assert pg(aggregates) == aggregates
    assert pg("UPDATE c SET hp = hp - MAX(:loss - temp_hp, 0)", {"loss": 1}) == (
        "UPDATE c SET hp = hp - GREATEST(%(loss)s - temp_hp, 0)"
    )


def test_json_group_array_gives_an_empty_array_over_no_rows() -> None:
    assert pg("SELECT (SELECT json_group_array(source) FROM f) AS fortune") == (
        "SELECT (SELECT COALESCE(json_agg(source)::text, '[]') FROM f) AS fortune"
    )


def test_null_comparisons_and_untyped_parameters() -> None:
    assert pg("SELECT * FROM r WHERE guild_id IS ?") == (
        "SELECT * FROM r WHERE guild_id IS NOT DISTINCT FROM %s"
    )
    assert pg("SELECT * FROM r WHERE (? IS NULL OR owner_id = ?)") == (
        "SELECT * FROM r WHERE (CAST(%s AS TEXT) IS NULL OR owner_id = %s)"
    )
    assert pg("SELECT * FROM r WHERE a IS NULL") == "SELECT * FROM r WHERE a IS NULL"


def test_like_has_no_escape_character_as_on_sqlite() -> None:
    assert pg("SELECT name FROM c WHERE name_key LIKE ?") == (
        "SELECT name FROM c WHERE name_key LIKE %s ESCAPE ''"
    )


def test_insert_or_ignore_becomes_on_conflict_do_nothing() -> None:
    assert pg("INSERT OR IGNORE INTO t (a) VALUES (?)") == (
        "INSERT INTO t (a) VALUES (%s) ON CONFLICT DO NOTHING"
    )
    assert pg("INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING a") == (
        "INSERT INTO t (a) VALUES (%s) ON CONFLICT DO NOTHING RETURNING a"
    )


def test_row_lock_locks_only_in_a_write_transaction() -> None:
    sql = f"SELECT * FROM encounters WHERE channel_id = ?{ROW_LOCK}"
    assert pg(sql, writing=True) == (
        "SELECT * FROM encounters WHERE channel_id = %s FOR NO KEY UPDATE"
    )
    assert pg(sql) == "SELECT * FROM encounters WHERE channel_id = %s"


def test_booleans_are_sent_as_sqlites_integers() -> None:
    assert to_postgres("SELECT ?, ?", (True, None))[1] == [1, None]
    assert to_postgres("SELECT :a", {"a": False})[1] == {"a": 0}


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT value FROM json_each(?)",
        "INSERT OR REPLACE INTO t VALUES (?)",
        "SELECT rowid FROM t",
        "PRAGMA user_version",
        "SELECT ifnull(a, 0) FROM t",
    ],
)
def test_sqlite_only_sql_is_refused_with_what_to_do(sql: str) -> None:
    with pytest.raises(NotPortable, match="standard SQL or add"):
        pg(sql)


def test_every_override_translates() -> None:
    for sql in OVERRIDES:
        assert "json_each" not in pg(sql)


def test_an_upserts_bare_columns_are_the_rows_not_excludeds() -> None:
    sql = (
        "INSERT INTO twod10_survival (character_id, guild_id, healing) VALUES (?, ?, ?)"
        " ON CONFLICT (character_id) DO UPDATE SET healing = excluded.healing,"
        " revision = revision + 1 RETURNING character_id, revision"
    )
    assert pg(sql).endswith(
        "DO UPDATE SET healing = excluded.healing,"
        " revision = twod10_survival.revision + 1 RETURNING character_id, revision"
    )
    shields = (
        "INSERT INTO s (character_id, shield, used) VALUES (?, ?, 1)"
        " ON CONFLICT (character_id) DO UPDATE SET"
        " used = CASE WHEN shield = excluded.shield THEN used + 1 ELSE 1 END,"
        " shield = excluded.shield WHERE shield <> excluded.shield OR used < ? RETURNING used"
    )
    assert pg(shields).endswith(
        "DO UPDATE SET used = CASE WHEN s.shield = excluded.shield THEN s.used + 1 ELSE 1 END,"
        " shield = excluded.shield WHERE s.shield <> excluded.shield OR s.used < %s RETURNING used"
    )
    stamp = "INSERT INTO g (a) VALUES (?) ON CONFLICT (a) DO UPDATE SET seen_at = tablebot_now()"
    assert pg(stamp).endswith("DO UPDATE SET seen_at = tablebot_now()")
