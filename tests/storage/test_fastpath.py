"""The fast path (issue 11): fewer round trips, caches that never serve a stale value,
encounters saved by difference, writes deferred to the next transaction.

Counts are asserted (how many worker round trips a method costs), never timings.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.hocs.character import CharacterSheet
from bot.storage.campaigns import CampaignRepository, CampaignSettings
from bot.storage.database import Database
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.combat import _json as combat_json
from bot.storage.roll_log import RollLogRepository
from bot.storage.roll_log import _json as roll_log_json
from tests.storage.test_encounters import GUILD, new_character


class Calls:
    """Counts the calls a connection hands to aiosqlite's worker thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.count = 0
        self.sql: list[str] = []
        original = conn._execute

        async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            if args and isinstance(args[0], str):
                self.sql.append(args[0])
            return await original(fn, *args, **kwargs)

        conn._execute = counted  # type: ignore[method-assign]

    def reset(self) -> None:
        self.count = 0
        self.sql.clear()


@pytest.fixture
async def other(db: Database) -> AsyncIterator[aiosqlite.Connection]:
    """A second connection on the same file (as another bot process would have)."""
    conn = await aiosqlite.connect(str(db.path), isolation_level=None)
    await conn.execute("PRAGMA busy_timeout = 10000")
    yield conn
    await conn.close()


def write_from_another_process(path: Path, sql: str, params: tuple[object, ...]) -> None:
    script = (
        "import sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], timeout=10)\n"
        "conn.execute(sys.argv[2], tuple(int(a) if a.lstrip('-').isdigit() else a"
        " for a in sys.argv[3:]))\n"
        "conn.commit()\n"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(path), sql, *map(str, params)], check=True, timeout=60
    )


async def mira(db: Database) -> int:
    return await new_character(db)


# --- round trips ------------------------------------------------------------------------


async def test_reads_and_writes_cost_one_round_trip_each(db: Database) -> None:
    character_id = await mira(db)
    calls = Calls(db.connection)
    async with db.transaction() as conn:
        calls.reset()
        await CampaignRepository(conn).get_or_create(GUILD)  # the row exists
        assert calls.count == 1
        calls.reset()
        await CharacterRepository(conn).get(character_id)
        assert calls.count == 1
        character = await CharacterRepository(conn).get(character_id)
        assert character is not None
        calls.reset()
        left = await CharacterRepository(conn).spend_determination_left(character_id)
        assert left == character.state.determination - 1 and calls.count == 1
        calls.reset()
        logged = await RollLogRepository(conn).add(
            guild_id=GUILD, channel_id=1, user_id=1, kind="pool", expression="pool 1d6",
            result={"x": 1}, total=1, secret=False, character_id=character_id,
        )  # fmt: skip
        assert calls.count == 1
        assert logged.result == {"x": 1} and logged.character_id == character_id
        calls.reset()
        found = await CharacterRepository(conn).get_many([character_id, character_id, 999])
        assert list(found) == [character_id] and calls.count == 1


async def test_a_transaction_makes_no_round_trip_to_the_worker(db: Database) -> None:
    character_id = await mira(db)
    connection: Any = db.connection
    calls = Calls(db.connection)
    before = connection.worker_calls
    async with db.transaction() as conn:
        await CharacterRepository(conn).get(character_id)
    switches = connection.pragma_statements
    async with db.read() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    async with db.transaction() as conn:
        await CharacterRepository(conn).get(character_id)
    assert connection.worker_calls == before
    assert connection.pragma_statements == switches  # no busy_timeout per transaction
    assert calls.sql == [
        "BEGIN IMMEDIATE", calls.sql[1], "COMMIT",
        "BEGIN", calls.sql[4], "ROLLBACK",
        "BEGIN IMMEDIATE", calls.sql[7], "COMMIT",
    ]  # fmt: skip


async def busy_timeout(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA busy_timeout") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_the_busy_timeout_is_zero_on_the_loop_and_waits_on_the_worker(db: Database) -> None:
    # On the loop's thread a wait would stop the bot: a locked file must fail at once
    # there (and BEGIN IMMEDIATE then goes to the worker, which may wait).
    async with db.read() as conn:
        assert await busy_timeout(conn) == 0
    assert await busy_timeout(db.connection) == 10_000  # not inline: on the worker
    async with db.transaction() as conn:
        assert await busy_timeout(conn) == 0
    assert await busy_timeout(db.connection) == 10_000


async def test_a_busy_write_lock_is_awaited_on_the_worker_not_the_loop(
    db: Database, other: aiosqlite.Connection
) -> None:
    await other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    async def write() -> None:
        async with db.transaction() as conn:
            await CampaignRepository(conn).update(GUILD, gm_role_id=4)
        done.set()

    connection: Any = db.connection
    before = connection.worker_calls
    running = asyncio.gather(ticker(), write())
    for _ in range(50):
        await asyncio.sleep(0)
    assert connection.worker_calls == before + 1  # BEGIN IMMEDIATE is on the worker,
    assert not done.is_set() and ticks >= 40  # waiting, and the loop kept running
    await other.execute("COMMIT")
    await asyncio.wait_for(running, 10)
    assert connection.worker_calls == before + 1  # only BEGIN IMMEDIATE went to the worker
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id == 4


async def test_a_transaction_left_open_by_a_cancelled_begin_is_rolled_back(
    db: Database,
) -> None:
    await db.connection.execute("BEGIN IMMEDIATE")  # as if its caller had been cancelled
    await db.connection.execute("INSERT INTO campaigns (guild_id) VALUES (5)")
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(6)
    async with db.read() as conn, conn.execute("SELECT guild_id FROM campaigns") as cursor:
        assert [row[0] for row in await cursor.fetchall()] == [6]


async def test_a_cursor_left_on_the_worker_does_not_block_the_next_commit(
    db: Database,
) -> None:
    # aiosqlite's worker holds its last result; a cursor still on a row would keep its
    # statement open and SQLite would refuse the COMMIT of the next (inline) transaction.
    await db.connection.execute("SELECT 1 UNION ALL SELECT 2")
    await db.connection.execute("PRAGMA journal_mode")
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=3)
    assert await db.maintain_now(idle_for=0) is True  # a checkpoint on the worker
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=4)
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id == 4


# --- the campaign row and parsed sheets: never stale ---------------------------------


async def test_campaign_cache_sees_a_raw_update(db: Database) -> None:
    async with db.transaction() as conn:
        repo = CampaignRepository(conn)
        first = await repo.get_or_create(GUILD)
        assert await repo.get_or_create(GUILD) is first  # unchanged row: the parsed value
        await conn.execute("UPDATE campaigns SET gm_role_id = 77 WHERE guild_id = ?", (GUILD,))
        assert (await repo.get_or_create(GUILD)).gm_role_id == 77


async def test_campaign_cache_sees_another_connection_and_process(
    db: Database, other: aiosqlite.Connection
) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    await other.execute(
        "UPDATE campaigns SET settings = ? WHERE guild_id = ?", ('{"show_npc_hp": true}', GUILD)
    )
    async with db.read() as conn:
        campaign = await CampaignRepository(conn).get_or_create(GUILD)
    assert campaign.settings == CampaignSettings(show_npc_hp=True)
    write_from_another_process(
        Path(db.path), "UPDATE campaigns SET gm_channel_id = ? WHERE guild_id = ?", (5, GUILD)
    )
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_channel_id == 5


async def test_campaign_update_returns_the_row_in_one_statement(db: Database) -> None:
    calls = Calls(db.connection)
    async with db.transaction() as conn:
        calls.reset()
        campaign = await CampaignRepository(conn).update(9, gm_role_id=3)  # no row yet
        assert calls.count == 1
        assert campaign.gm_role_id == 3 and campaign.settings == CampaignSettings()
        campaign = await CampaignRepository(conn).update(
            9, settings=CampaignSettings(one_shot=True)
        )
        assert campaign.gm_role_id == 3 and campaign.settings.one_shot


async def test_parsed_sheet_is_never_stale(db: Database, other: aiosqlite.Connection) -> None:
    character_id = await mira(db)
    async with db.read() as conn:
        before = await CharacterRepository(conn).get(character_id)
    assert before is not None and before.sheet.strength == 3
    raw = "UPDATE characters SET sheet = json_set(sheet, '$.strength', ?) WHERE id = ?"
    async with db.transaction() as conn:
        await conn.execute(raw, (4, character_id))
        after = await CharacterRepository(conn).get(character_id)
    assert after is not None and after.sheet.strength == 4
    await other.execute(raw, (1, character_id))
    async with db.read() as conn:
        again = await CharacterRepository(conn).get(character_id)
    assert again is not None and again.sheet.strength == 1
    write_from_another_process(Path(db.path), raw, (2, character_id))
    async with db.read() as conn:
        last = await CharacterRepository(conn).get(character_id)
    assert last is not None and last.sheet.strength == 2 and last.effective.sheet.strength == 2


async def test_every_write_raises_the_revision_whoever_writes(
    db: Database, other: aiosqlite.Connection
) -> None:
    character_id = await mira(db)

    async def version_and_revision() -> tuple[int, int]:
        async with db.read() as conn:
            found = await CharacterRepository(conn).get_many_revised([character_id])
        character, revision = found[character_id]
        return character.version, revision

    assert await version_and_revision() == (1, 0)
    async with db.transaction() as conn:
        await conn.execute("UPDATE characters SET hp = 3 WHERE id = ?", (character_id,))
    assert await version_and_revision() == (1, 1)  # version is the code's; revision moved
    async with db.transaction() as conn:
        await CharacterRepository(conn).spend_determination(character_id)
    assert await version_and_revision() == (2, 2)
    await other.execute("UPDATE characters SET temp_hp = 2 WHERE id = ?", (character_id,))
    assert await version_and_revision() == (2, 3)


async def test_a_new_character_row_costs_two_round_trips(db: Database) -> None:
    calls = Calls(db.connection)
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        calls.reset()
        created = await CharacterRepository(conn).create(
            guild_id=GUILD, owner_id=1, kind=CharacterKind.PC,
            sheet=CharacterSheet(name="Ash", strength=1, agility=1, mind=1, presence=1),
            details=CharacterDetails(),
        )  # fmt: skip
        assert calls.count == 2  # the INSERT, then the row as read
    assert created.name == "Ash"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_the_shared_encoders_write_the_text_json_dumps_wrote(value: Any) -> None:
    # A compare-and-set compares stored text with a new encoding: it must not change.
    assert roll_log_json(value) == json.dumps(value, separators=(",", ":"))
    assert combat_json(value) == json.dumps(value, separators=(",", ":"), sort_keys=True)
