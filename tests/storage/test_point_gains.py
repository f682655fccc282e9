"""Points gained, written by the database's triggers (migration 0020), on both backends."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.point_gains import gains_between
from tests.storage.test_characters import GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def test_rises_are_written_and_falls_are_not(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        await repo.set_hero_points_of_pcs(GUILD, 1)  # 0 → 1: gained
        assert await repo.spend_hero_point(mira.id) == 0  # a fall: not a gain
        await repo.give_hero_points(mira.id, 2, 3)  # 0 → 2
        await repo.spend_determination(mira.id)
        await repo.regain_determination(mira.id, 1, 5)
        assert await repo.grant_fortune(mira.id, "luck")
        assert await repo.spend_fortune(mira.id, "luck")
    async with db.read() as conn:
        gains = await gains_between(conn, GUILD, "2000-01-01", None)
        later = await gains_between(conn, GUILD, "2999-01-01", None)
    assert gains == [(mira.id, "determination", 1), (mira.id, "fortune", 1), (mira.id, "hero", 3)]
    assert later == []
