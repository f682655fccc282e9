"""The fast path (issue 11), writes: encounters saved by difference, the tracker's stamp,
writes deferred to the next transaction, and the idle maintenance task.

Counts are asserted (which statements a save sends), never timings.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import Encounter
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository, EncounterStamp
from bot.storage.roll_log import RollLogRepository, remember_message
from tests.storage.test_encounters import CHANNEL, GUILD, busy_state
from tests.storage.test_fastpath import Calls, mira
from tests.support.pg_fixtures import open_raw


@pytest.fixture
async def other(db: Database) -> AsyncIterator[aiosqlite.Connection]:
    """A second connection on the same file (as another bot process would have)."""
    conn = await open_raw(db)
    yield conn
    await conn.close()


# --- encounters -------------------------------------------------------------------------


async def start(db: Database, state: Encounter) -> Any:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        return await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=1, state=state
        )


async def load(db: Database) -> Any:
    async with db.read() as conn:
        return await EncounterRepository(conn).get_by_channel(CHANNEL)


async def save(db: Database, record: Any, state: Encounter) -> tuple[Any, list[str]]:
    calls = Calls(db.connection)
    async with db.transaction() as conn:
        calls.reset()
        saved = await EncounterRepository(conn).save(record, state)
        sql = list(calls.sql)
    return saved, sql


async def save_new_round(db: Database, record: Any, state: Encounter) -> tuple[Any, list[str]]:
    """Save a new round's ``state`` and check it reloads equal: the saved record and the
    participant UPDATEs sent, or none on PostgreSQL (the statements are the same there,
    only SQLite's are counted)."""
    if db.backend != "sqlite":
        async with db.transaction() as conn:
            saved = await EncounterRepository(conn).save(record, state)
        sql: list[str] = []
    else:
        saved, sql = await save(db, record, state)
    assert (await load(db)).state == saved.state == state
    return saved, [s for s in sql if s.startswith("UPDATE encounter_participants")]


async def test_saving_an_unchanged_encounter_writes_only_its_row(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    saved, sql = await save(db, record, record.state)
    assert len(sql) == 1 and sql[0].startswith("UPDATE encounters")
    assert (await load(db)).state == saved.state


async def test_only_the_changed_participant_is_written(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    goblin = record.state.participant(2)
    state = replace(
        record.state,
        participants=tuple(
            replace(p, hp=3) if p.id == goblin.id else p for p in record.state.participants
        ),
    )
    saved, sql = await save(db, record, state)
    assert [s.split(" SET")[0] for s in sql] == [
        "UPDATE encounters",
        "UPDATE encounter_participants",
    ]
    assert (await load(db)).state == saved.state == state


async def test_two_names_swapped_in_one_save_do_not_collide(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    one, two = record.state.participant(2), record.state.participant(3)
    swapped = {one.id: two.name, two.id: one.name}
    state = replace(
        record.state,
        participants=tuple(
            replace(p, name=swapped[p.id]) if p.id in swapped else p
            for p in record.state.participants
        ),
    )
    saved, _ = await save(db, record, state)
    loaded = await load(db)
    assert loaded.state == saved.state == state
    # The renamed participants kept their timed effects (deleted and written again).
    assert loaded.state.participant(2).effects == one.effects


async def test_removed_participants_and_moved_effects_are_saved_exactly(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    bleeding = record.state.participant(2).effects[0]
    participants = []
    for p in record.state.participants:
        if p.id == 3:
            continue  # removed
        if p.id == 2:
            p = replace(p, effects=())
        if p.id == 4:  # the bleeding moves here, stronger, and a second effect is added
            second = replace(bleeding, id=2, condition=Condition.STAGGERED, value=1)
            p = replace(p, effects=(replace(bleeding, value=3), second))
        participants.append(p)
    order = tuple(tuple(pid for pid in slot if pid != 3) for slot in record.state.order)
    state = replace(
        record.state,
        participants=tuple(participants),
        order=tuple(s for s in order if s),
        next_effect_id=3,
    )
    saved, _ = await save(db, record, state)
    assert (await load(db)).state == saved.state == state
    async with db.read() as conn, conn.execute("SELECT count(*) FROM encounter_effects") as cur:
        assert (await cur.fetchone())[0] == 2


@pytest.mark.both_backends
async def test_stamp_moves_with_any_write_to_a_linked_character(
    db: Database, other: aiosqlite.Connection
) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))

    async def stamp() -> EncounterStamp | None:
        async with db.single() as conn:
            return await EncounterRepository(conn).stamp(CHANNEL)

    first = await stamp()
    assert first == EncounterStamp.of(record, {character_id: 0})
    async with db.transaction() as conn:
        await conn.execute("UPDATE characters SET hp = 1 WHERE id = ?", (character_id,))
    second = await stamp()
    assert second is not None and second != first
    await other.execute(
        "UPDATE characters SET conditions = ? WHERE id = ?",
        (json.dumps(Conditions.of(staggered=1).to_dict()), character_id),
    )
    third = await stamp()
    assert third is not None and third not in (first, second)
    async with db.transaction() as conn:
        await EncounterRepository(conn).set_tracker_message(record.id, 42)
    assert (await stamp()) != third
    assert EncounterStamp.of(record, {}) is None  # a linked character it does not know


async def test_the_stamp_reads_participants_from_an_index_alone(db: Database) -> None:
    character_id = await mira(db)
    await start(db, busy_state(character_id))
    calls = Calls(db.connection)
    async with db.single() as conn:
        await EncounterRepository(conn).stamp(CHANNEL, lock=True)
        (sql,) = calls.sql
        plan = [row[3] for row in await conn.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", (0,))]
    participants = [step for step in plan if step.startswith("SEARCH p ")]
    assert len(participants) == 2  # the count and the sum
    assert all("COVERING INDEX encounter_participants_linked" in s for s in participants)


@pytest.mark.both_backends
async def test_a_built_character_is_reused_only_for_the_very_same_row(
    db: Database, other: aiosqlite.Connection
) -> None:
    character_id = await mira(db)

    async def get() -> Character:
        async with db.read() as conn:
            found = await CharacterRepository(conn).get(character_id)
        assert found is not None
        return found

    first = await get()
    assert await get() is first  # the same row: the same value, its effective values kept
    async with db.transaction() as conn:  # this process, through a repository
        assert await CharacterRepository(conn).spend_determination(character_id)
    spent = await get()
    assert spent.state.determination == first.state.determination - 1
    async with db.transaction() as conn:  # a fortune point: another table, the same read
        assert await CharacterRepository(conn).grant_fortune(character_id, "gm")
    assert (await get()).fortune_sources == ("gm",)
    await other.execute(  # another connection on the same database (another process)
        "UPDATE characters SET hp = ? WHERE id = ?", (1, character_id)
    )
    assert (await get()).state.hp == 1
    sheet = json.loads(await sheet_text(db, character_id))
    await other.execute(  # a raw write that forgets ``version``: the new sheet still shows
        "UPDATE characters SET sheet = ? WHERE id = ?",
        (json.dumps({**sheet, "strength": 4}), character_id),
    )
    changed = await get()
    assert changed.sheet.strength == 4 and changed.effective.sheet.strength == 4


async def sheet_text(db: Database, character_id: int) -> str:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT sheet FROM characters WHERE id = ?", (character_id,)
        )
    return str(next(iter(rows))[0])


# --- deferred writes and maintenance ----------------------------------------------------


async def message_of(db: Database, roll_id: int) -> int | None:
    async with db.read() as conn:
        logged = await RollLogRepository(conn).get(roll_id)
    assert logged is not None
    return logged.message_id


async def new_roll(db: Database) -> int:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        return await RollLogRepository(conn).record(
            guild_id=GUILD, channel_id=1, user_id=1, kind="roll", expression="1d6",
            result={}, total=1, secret=False,
        )  # fmt: skip


async def test_a_deferred_write_rides_in_the_next_transaction(db: Database) -> None:
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 1234)
    calls = Calls(db.connection)
    async with db.transaction():
        pass
    assert calls.sql[0] == "BEGIN IMMEDIATE" and calls.sql[1].startswith("UPDATE roll_log")
    assert calls.sql[2:] == ["COMMIT"]
    assert await message_of(db, roll_id) == 1234


@pytest.mark.both_backends
async def test_a_read_sees_deferred_writes(db: Database) -> None:
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 55)
    assert await message_of(db, roll_id) == 55


@pytest.mark.both_backends
async def test_deferred_writes_survive_the_next_transaction_failing(db: Database) -> None:
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 66)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("UPDATE campaigns SET gm_role_id = 1")
            raise RuntimeError("a user error, say")
    assert await message_of(db, roll_id) == 66
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id is None


@pytest.mark.both_backends
async def test_a_failing_deferred_write_does_not_spoil_the_transaction(db: Database) -> None:
    async def broken(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO no_such_table VALUES (1)")

    db.defer(broken)
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=8)
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id == 8


async def test_deferred_writes_are_written_at_close(tmp_path: Path) -> None:
    from bot.storage.migrations import migrate

    path = tmp_path / "close.sqlite3"
    db = await Database.open(path)
    await migrate(db.connection)
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 77)
    await db.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute(
            "SELECT message_id FROM roll_log WHERE id = ?", (roll_id,)
        ).fetchone() == (77,)
    finally:
        conn.close()


async def test_maintenance_writes_deferred_and_checkpoints_when_idle(db: Database) -> None:
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 88)
    assert await db.maintain_now(idle_for=60) is False  # just used: no checkpoint yet
    async with db.single() as conn:
        assert (await (await conn.execute("SELECT message_id FROM roll_log")).fetchone())[0] == 88
    assert await db.maintain_now(idle_for=0) is True
    assert await db.maintain_now(idle_for=0) is False  # nothing written since


@pytest.mark.looptime  # (the task's ticks pass in the loop's time: no waiting)
async def test_the_maintenance_task_runs_and_stops_with_the_database(tmp_path: Path) -> None:
    from bot.storage import database
    from bot.storage.migrations import migrate

    db = await Database.open(tmp_path / "m.sqlite3")
    await migrate(db.connection)
    roll_id = await new_roll(db)
    remember_message(db, roll_id, 99)
    original = database.MAINTENANCE_PERIOD_SECONDS
    database.MAINTENANCE_PERIOD_SECONDS = 0.01
    try:
        db.start_maintenance()
        for _ in range(200):
            if not db._deferred:
                break
            await asyncio.sleep(0.01)
        assert not db._deferred  # written by the task, not by a command
    finally:
        database.MAINTENANCE_PERIOD_SECONDS = original
        await db.close()
    assert db._maintenance is None


async def test_a_checkpoint_runs_beside_commands_not_before_them(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await new_roll(db)
    started, release = threading.Event(), threading.Event()
    checkpoint = db._checkpoint

    def slow_checkpoint() -> None:
        started.set()
        release.wait(10)
        checkpoint()

    monkeypatch.setattr(db, "_checkpoint", slow_checkpoint)
    job = asyncio.ensure_future(db.maintain_now(idle_for=0))
    await asyncio.to_thread(started.wait, 10)
    async with db.transaction() as conn:  # not held up by the checkpoint
        await CampaignRepository(conn).update(GUILD, gm_role_id=9)
    assert not job.done()
    release.set()
    assert await job is True
