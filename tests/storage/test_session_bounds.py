"""A session's roll-log bounds and the fights that ended, on both backends (issue 27's
recap reads a session's rolls by id and its fights by their end)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.fights import fights_between
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionAlreadyRunning, SessionRepository
from bot.storage.twod10.encounters import TwoD10EncounterRepository
from tests.storage.test_twod10_encounters import begin

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 300  # the 2d10 encounter helper's guild
OTHER = 301


async def log(db: Database, guild: int, n: int) -> list[int]:
    ids = []
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)
        for i in range(n):
            ids.append(await RollLogRepository(conn).record(
                guild_id=guild, channel_id=1, user_id=7, kind="roll",
                expression=f"1d6 #{i}", result={"total": i}, total=i, secret=False,
            ))  # fmt: skip
    return ids


async def test_a_session_covers_the_rolls_logged_while_it_ran(db: Database) -> None:
    before = await log(db, GUILD, 2)
    async with db.transaction() as conn:
        started = await SessionRepository(conn).start(GUILD, started_by=7)
    assert started.number == 1 and started.first_log_id == before[-1] + 1
    during = await log(db, GUILD, 3)
    await log(db, OTHER, 2)  # another server's rolls interleave
    async with db.transaction() as conn:
        with pytest.raises(SessionAlreadyRunning):
            await SessionRepository(conn).start(GUILD, started_by=7)
        ended = await SessionRepository(conn).end(GUILD, ended_by=7)
    assert ended is not None and ended.last_log_id is not None
    await log(db, GUILD, 1)  # after the end
    async with db.read() as conn:
        rows = await RollLogRepository(conn).between(
            GUILD, first_id=ended.first_log_id or 1, last_id=ended.last_log_id
        )
        again = await SessionRepository(conn).numbered(GUILD, 1)
        last = await SessionRepository(conn).latest_ended(GUILD)
    assert [r.id for r in rows] == during
    assert again == ended and last == ended


async def test_an_ended_fight_is_counted_with_its_rounds(db: Database) -> None:
    await begin(db)  # a 2d10 fight in channel 10
    async with db.transaction() as conn:
        repo = TwoD10EncounterRepository(conn)
        record = await repo.get_by_channel(10)
        assert record is not None
        tracker = replace(record.tracker, encounter=replace(record.tracker.encounter, round=3))
        await repo.save(record, tracker)
    async with db.read() as conn:
        started = await SessionRepository(conn).latest(GUILD)
        assert started is None
        assert await fights_between(conn, GUILD, "2000-01-01", None) == (0, 0)
    async with db.transaction() as conn:
        await TwoD10EncounterRepository(conn).delete(10)
    async with db.read() as conn:
        assert await fights_between(conn, GUILD, "2000-01-01", None) == (1, 3)
        assert await fights_between(conn, GUILD, "2000-01-01", "2000-01-02") == (0, 0)
        assert await fights_between(conn, OTHER, "2000-01-01", None) == (0, 0)
