"""Hero, fortune and determination points and sessions against a real SQLite file.

Spends are conditional statements; these tests run them from two connections (two
bot processes on one file) at once and check exactly one wins.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import pytest

from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.meta_currencies import plan_session_start
from bot.storage.database import Database
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.sessions import SessionAlreadyRunning, SessionRepository
from tests.storage.test_characters import GUILD, create
from tests.support.pg_fixtures import open_second

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def get(db: Database, character: Character) -> Character:
    async with db.read() as conn:
        found = await CharacterRepository(conn).get(character.id)
    assert found is not None
    return found


async def second_process(db: Database) -> Database:
    return await open_second(db)


async def test_hero_point_spends_only_what_there_is(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        assert await repo.spend_hero_point(mira.id) is None
        assert await repo.give_hero_points(mira.id, 2, 99) == 2
        assert await repo.spend_hero_point(mira.id) == 1
        assert await repo.take_hero_points(mira.id, 5) == (1, 0)
        assert await repo.give_hero_points(mira.id, 150, 99) == 99


async def test_two_processes_spend_one_hero_point_once(db: Database, tmp_path: Path) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        await CharacterRepository(conn).give_hero_points(mira.id, 1, 99)
    other = await second_process(db)
    try:

        async def spend(database: Database) -> int | None:
            async with database.transaction() as conn:
                return await CharacterRepository(conn).spend_hero_point(mira.id)

        results = await asyncio.gather(*(spend(d) for d in [db, other] * 10))
    finally:
        await other.close()
    assert sorted(results, key=lambda r: r is None) == [0] + [None] * 19
    assert (await get(db, mira)).state.hero_points == 0


async def test_hero_point_for_determination_respects_the_maximum(db: Database) -> None:
    mira = await create(db)  # determination 3 of 3
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        await repo.give_hero_points(mira.id, 2, 99)
        assert await repo.hero_point_for_determination(mira.id, 3) is None
        assert await repo.spend_determination(mira.id)
        assert await repo.hero_point_for_determination(mira.id, 3) == (1, 3)
    state = (await get(db, mira)).state
    assert (state.hero_points, state.determination) == (1, 3)


async def test_set_hero_points_touches_player_characters_only(db: Database) -> None:
    mira = await create(db, "Mira")
    bram = await create(db, "Bram")
    async with db.transaction() as conn:
        await conn.execute("UPDATE characters SET kind = 'ally' WHERE id = ?", (bram.id,))
        done = await CharacterRepository(conn).set_hero_points_of_pcs(GUILD, 1)
    assert done == [(mira.id, "Mira")]
    assert (await get(db, mira)).state.hero_points == 1
    assert (await get(db, bram)).state.hero_points == 0
    assert (await get(db, bram)).kind is CharacterKind.ALLY


async def test_fortune_one_per_source_spent_once_across_processes(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        assert await repo.grant_fortune(mira.id, "cooking")
        assert not await repo.grant_fortune(mira.id, "cooking")
        assert await repo.grant_fortune(mira.id, "character")
    assert (await get(db, mira)).fortune_sources == ("character", "cooking")
    other = await second_process(db)
    try:

        async def spend(database: Database) -> bool:
            async with database.transaction() as conn:
                return await CharacterRepository(conn).spend_fortune(mira.id, "cooking")

        results = await asyncio.gather(*(spend(d) for d in [db, other] * 10))
    finally:
        await other.close()
    assert results.count(True) == 1
    assert (await get(db, mira)).fortune_sources == ("character",)


async def test_regain_determination_stops_at_the_maximum(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        await conn.execute("UPDATE characters SET determination = 1 WHERE id = ?", (mira.id,))
        assert await repo.regain_determination(mira.id, 5, 3) == 3
        assert await repo.regain_determination(mira.id, 1, 2) == 3  # never lowered


async def test_write_recovery_needs_the_version_and_the_points(db: Database) -> None:
    mira = await create(db)
    fatigued = Conditions.of(fatigued=1)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        stale = mira
        assert await repo.write_recovery(
            mira, hp=10, nonlethal=1, recovery=2, determination=3, conditions=fatigued,
            recovery_needed=1,
        )  # fmt: skip
        assert not await repo.write_recovery(
            stale, hp=1, nonlethal=0, recovery=0, determination=0, conditions=fatigued
        )
        now = await repo.get(mira.id)
        assert now is not None
        assert not await repo.write_recovery(
            now, hp=1, nonlethal=0, recovery=0, determination=0, conditions=fatigued,
            recovery_needed=3,
        )  # fmt: skip
    state = (await get(db, mira)).state
    assert (state.hp, state.nonlethal, state.recovery, state.determination) == (10, 1, 2, 3)
    assert state.conditions.value(Condition.FATIGUED) == 1


async def test_sessions_number_on_and_only_one_runs(db: Database) -> None:
    await create(db)
    async with db.transaction() as conn:
        sessions = SessionRepository(conn)
        assert await sessions.latest(GUILD) is None
        plan = plan_session_start(None, one_shot=False, new_adventure=False)
        first = await sessions.start_planned(GUILD, plan, one_shot=False, started_by=7)
        assert (first.number, first.adventure, first.running) == (1, 1, True)
        with pytest.raises(SessionAlreadyRunning):
            await sessions.start_planned(GUILD, plan, one_shot=False, started_by=7)
        ended = await sessions.end(GUILD, ended_by=7)
        assert ended is not None and not ended.running and ended.ended_by == 7
        assert await sessions.end(GUILD, ended_by=7) is None
        second = await sessions.start_planned(GUILD, plan, one_shot=False, started_by=7)
        assert second.number == 2
    # The database itself refuses a second running session, whatever the code does.
    with pytest.raises(aiosqlite.IntegrityError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO sessions (guild_id, number, adventure, started_by)"
                " VALUES (?, 3, 1, 7)",
                (GUILD,),
            )
