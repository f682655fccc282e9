"""Ammo points and oil against a real SQLite file: conditional spends, bounds, cascade."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from bot.rules.twod10.ammo import AmmoState
from bot.storage.database import Database
from bot.storage.twod10.ammo import TwoD10AmmoRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository
from tests.storage.test_twod10_characters import GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def test_points_are_spent_one_at_a_time_until_none_are_left(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10AmmoRepository(conn)
        assert await repo.get(GUILD, sheet.id) is None  # untracked
        assert await repo.spend_point(GUILD, sheet.id) is None
        row = await repo.set(GUILD, sheet.id, AmmoState(points=2, quivers=1))
        assert (row.state, row.revision) == (AmmoState(points=2, quivers=1), 1)
        first = await repo.spend_point(GUILD, sheet.id)
        assert first is not None and first.state == AmmoState(points=1, quivers=1, spent=1)
        second = await repo.spend_point(GUILD, sheet.id)
        assert second is not None and second.state == AmmoState(points=0, quivers=1, spent=2)
        assert await repo.spend_point(GUILD, sheet.id) is None
        # A save over a stale read writes nothing.
        assert await repo.save(GUILD, row, AmmoState(points=2, quivers=1)) is None
        assert await repo.save(GUILD, second, AmmoState(points=1, quivers=1)) is not None


async def test_the_table_refuses_more_points_than_the_quivers_hold(db: Database) -> None:
    sheet = await create(db)
    with pytest.raises(aiosqlite.IntegrityError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO twod10_ammo (character_id, guild_id, quivers, points)"
                " VALUES (?, ?, 1, 3)",
                (sheet.id, GUILD),
            )


async def test_concurrent_spends_take_each_point_once(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        await TwoD10AmmoRepository(conn).set(GUILD, sheet.id, AmmoState(points=3, quivers=2))
        await TwoD10AmmoRepository(conn).set_oil(GUILD, sheet.id, 2)

    async def spend() -> tuple[bool, bool]:
        async with db.transaction() as conn:
            repo = TwoD10AmmoRepository(conn)
            point = await repo.spend_point(GUILD, sheet.id)
            oil = await repo.spend_oil(GUILD, sheet.id)
            return point is not None, oil is not None

    results = await asyncio.gather(*(spend() for _ in range(5)))
    assert sum(p for p, _ in results) == 3 and sum(o for _, o in results) == 2
    async with db.read() as conn:
        repo = TwoD10AmmoRepository(conn)
        row = await repo.get(GUILD, sheet.id)
        assert row is not None and row.state == AmmoState(points=0, quivers=2, spent=3)
        assert await repo.oil(GUILD, sheet.id) == 0


async def test_ammo_and_oil_go_with_the_character(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10AmmoRepository(conn)
        await repo.set(GUILD, sheet.id, AmmoState(points=1, quivers=1))
        assert await repo.set_oil(GUILD, sheet.id, 3) == 3
        assert await TwoD10CharacterRepository(conn).delete(GUILD, sheet.id)
        assert await repo.get(GUILD, sheet.id) is None
        assert await repo.oil(GUILD, sheet.id) == 0
