"""The campaign and character cache (``bot.storage.read_cache``): reused between
transactions, never stale after a write by this process, another connection or another
process, on both backends (PostgreSQL simply reads every time)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage.campaigns import CampaignRepository
from bot.storage.characters import Character, CharacterRepository
from bot.storage.database import Database
from bot.storage.read_cache import CHANGES, KEEPS, UNDOES, effect_on_cached_rows
from bot.storage.roll_log import RollLogRepository
from tests.storage.test_encounters import GUILD
from tests.storage.test_fastpath import Calls, mira, write_from_another_process
from tests.support.pg_fixtures import open_raw

USER = 1  # mira's owner (tests.storage.test_encounters.new_character)


@pytest.fixture
async def other(db: Database) -> AsyncIterator[aiosqlite.Connection]:
    """A second connection on the same database (as another bot process would have)."""
    conn = await open_raw(db)
    yield conn
    await conn.close()


async def active(db: Database) -> Character:
    async with db.transaction() as conn:
        found = await CharacterRepository(conn).get_active(GUILD, USER)
    assert found is not None
    return found


async def gm_role(db: Database) -> int | None:
    async with db.transaction() as conn:
        return (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id


async def activate(db: Database) -> int:
    character_id = await mira(db)
    async with db.transaction() as conn:
        await CharacterRepository(conn).set_active(GUILD, USER, character_id)
    return character_id


@pytest.mark.both_backends
async def test_a_write_by_this_process_shows_at_once(db: Database) -> None:
    character_id = await activate(db)
    first = await active(db)
    assert await gm_role(db) is None
    async with db.transaction() as conn:  # through a repository
        assert await CharacterRepository(conn).spend_determination(character_id)
        await CampaignRepository(conn).update(GUILD, gm_role_id=7)
    assert (await active(db)).state.determination == first.state.determination - 1
    assert await gm_role(db) == 7
    async with db.transaction() as conn:  # a raw statement that knows nothing of the cache
        await conn.execute("UPDATE characters SET hp = 2 WHERE id = ?", (character_id,))
        await conn.execute("UPDATE campaigns SET gm_role_id = 8 WHERE guild_id = ?", (GUILD,))
    assert (await active(db)).state.hp == 2
    assert await gm_role(db) == 8


@pytest.mark.both_backends
async def test_a_write_then_a_read_in_a_rolled_back_transaction_is_not_kept(
    db: Database,
) -> None:
    character_id = await activate(db)
    before = await active(db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("UPDATE characters SET hp = 1 WHERE id = ?", (character_id,))
            read = await CharacterRepository(conn).get_active(GUILD, USER)
            assert read is not None and read.state.hp == 1  # (inside, the write shows)
            raise RuntimeError("the command failed")
    assert (await active(db)).state.hp == before.state.hp


@pytest.mark.both_backends
async def test_a_write_by_another_connection_shows_at_once(
    db: Database, other: aiosqlite.Connection
) -> None:
    character_id = await activate(db)
    await active(db)
    await gm_role(db)
    await other.execute("UPDATE characters SET hp = 3 WHERE id = ?", (character_id,))
    await other.execute("UPDATE campaigns SET gm_role_id = 9 WHERE guild_id = ?", (GUILD,))
    assert (await active(db)).state.hp == 3
    assert await gm_role(db) == 9
    await other.execute("DELETE FROM active_characters WHERE guild_id = ?", (GUILD,))
    async with db.transaction() as conn:
        assert await CharacterRepository(conn).get_active(GUILD, USER) is None


async def test_a_write_by_another_process_shows_at_once(db: Database) -> None:
    character_id = await activate(db)
    await active(db)
    await gm_role(db)
    write_from_another_process(
        Path(db.path), "UPDATE characters SET hp = ? WHERE id = ?", (4, character_id)
    )
    assert (await active(db)).state.hp == 4
    write_from_another_process(
        Path(db.path), "UPDATE campaigns SET gm_role_id = ? WHERE guild_id = ?", (5, GUILD)
    )
    assert await gm_role(db) == 5


async def test_an_unchanged_row_is_reused_without_reading_it(db: Database) -> None:
    character_id = await activate(db)
    first = await active(db)
    await gm_role(db)
    calls = Calls(db.connection)
    async with db.transaction() as conn:
        calls.reset()
        assert await CharacterRepository(conn).get_active(GUILD, USER) is first
        await CampaignRepository(conn).get_or_create(GUILD)
        assert await CharacterRepository(conn).find(GUILD, "mira") is not None
        assert await CharacterRepository(conn).get(character_id) is not None
        # Another table's rows change nothing cached: still no read after this insert.
        await RollLogRepository(conn).add(
            guild_id=GUILD, channel_id=1, user_id=USER, kind="pool", expression="pool 1d6",
            result={}, total=0, secret=False, character_id=character_id,
        )  # fmt: skip
        assert await CharacterRepository(conn).get_active(GUILD, USER) is first
    # Whether another connection wrote, once; then only what was never read under this
    # state: the name looked up, and the id (read when created, before set_active wrote).
    assert calls.sql.count("PRAGMA data_version") == 1
    selects = [sql for sql in calls.sql if sql.startswith("SELECT")]
    assert len(selects) == 2
    assert selects[0].endswith("c.name_key = ?") and selects[1].endswith("c.id = ?")


async def test_reads_outside_a_write_transaction_always_run(db: Database) -> None:
    await activate(db)
    await active(db)
    calls = Calls(db.connection)
    async with db.read() as conn:
        calls.reset()
        assert await CharacterRepository(conn).get_active(GUILD, USER) is not None
    assert len(calls.sql) == 2 and calls.sql[0].startswith("SELECT")  # (then ROLLBACK)


@pytest.mark.parametrize(
    ("sql", "effect"),
    [
        ("SELECT * FROM characters", KEEPS),
        ("BEGIN IMMEDIATE", KEEPS),
        ("COMMIT", KEEPS),
        ("PRAGMA data_version", KEEPS),
        ("INSERT INTO roll_log (guild_id) VALUES (?)", KEEPS),
        ("UPDATE roll_log SET message_id = ? WHERE id = ?", KEEPS),
        ("DELETE FROM gm_members WHERE guild_id = ?", KEEPS),
        ("UPDATE encounters SET round = 2", KEEPS),
        ("ROLLBACK", UNDOES),
        ("ROLLBACK TO SAVEPOINT refusable", CHANGES),
        ("UPDATE characters SET hp = 1", CHANGES),
        ("INSERT INTO fortune_points VALUES (1, 'gm')", CHANGES),
        ("DELETE FROM campaigns WHERE guild_id = 1", CHANGES),  # (cascades to characters)
        ("INSERT INTO active_characters VALUES (1, 1, 1)", CHANGES),
        ("update encounters_archive SET x = 1", CHANGES),  # another table, same prefix
        ("INSERT OR REPLACE INTO roll_log VALUES (1)", CHANGES),  # (not a form listed)
        ("SELECT 1; DELETE FROM characters", CHANGES),  # a script
        ("PRAGMA foreign_keys = OFF", CHANGES),
        ("WITH x AS (SELECT 1) UPDATE characters SET hp = 1", CHANGES),
    ],
)
def test_what_each_statement_does_to_cached_rows(sql: str, effect: str) -> None:
    def execute(*args: Any) -> None: ...

    assert effect_on_cached_rows(execute, (sql, ())) == effect


def test_calls_without_a_statement() -> None:
    def fetchone() -> None: ...

    def rollback() -> None: ...

    assert effect_on_cached_rows(fetchone, ()) == KEEPS
    assert effect_on_cached_rows(rollback, ()) == CHANGES  # (unknown: assume it wrote)


async def test_a_read_only_rollback_keeps_what_was_cached(db: Database) -> None:
    await activate(db)
    first = await active(db)
    async with db.read() as conn:  # (ends with ROLLBACK)
        await CampaignRepository(conn).get_or_create(GUILD)
    assert await active(db) is first
