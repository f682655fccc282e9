"""2d10 concentration rows against a real SQLite file: one per character, replaced by a
new one, ended exactly once, gone with the character, kept across a reopen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import pytest

from bot.rules.twod10.magic import Form, Tier
from bot.storage.database import Database
from bot.storage.migrations import migrate
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.magic import Held, TwoD10MagicRepository
from tests.storage.test_twod10_characters import GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


def held(character_id: int, effect: str = "levitate", tier: Tier = Tier.ONE) -> Held:
    return Held(character_id=character_id, effect=effect, form=Form.SPELL, tier=tier)


async def test_hold_replaces_and_end_returns_what_ended(db: Database) -> None:
    sheet = await create(db)
    other = await create(db, "Cora")
    async with db.transaction() as conn:
        magic = TwoD10MagicRepository(conn)
        assert await magic.get(GUILD, sheet.id) is None
        await magic.hold(GUILD, held(sheet.id))
        stored = await magic.hold(GUILD, held(sheet.id, "ward the door", Tier.TWO))
        assert stored == held(sheet.id, "ward the door", Tier.TWO)
        await magic.hold(GUILD, Held(character_id=other.id, effect="prepared in the amulet",
                                     form=Form.RITUAL, tier=Tier.THREE, roll_id=None))  # fmt: skip
        many = await magic.get_many(GUILD, [sheet.id, other.id, 999])
        assert set(many) == {sheet.id, other.id} and many[other.id].form is Form.RITUAL
        assert [h.character_id for h in await magic.list(GUILD)] == [sheet.id, other.id]
        assert await magic.get_many(GUILD + 1, [sheet.id]) == {}  # scoped to the guild
        assert await magic.end(GUILD + 1, sheet.id) is None
        ended = await magic.end(GUILD, sheet.id)
        assert ended is not None and ended.effect == "ward the door"
        assert await magic.end(GUILD, sheet.id) is None


async def test_concentration_goes_with_the_character(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        await TwoD10MagicRepository(conn).hold(GUILD, held(sheet.id))
        assert await TwoD10CharacterRepository(conn).delete(GUILD, sheet.id)
        assert await TwoD10MagicRepository(conn).list(GUILD) == []


async def test_bad_rows_are_refused_by_the_schema(db: Database) -> None:
    sheet = await create(db)
    with pytest.raises(aiosqlite.IntegrityError):
        async with db.transaction() as conn:
            await TwoD10MagicRepository(conn).hold(GUILD, held(sheet.id, "x" * 101))


async def test_two_concurrent_ends_end_it_once(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        await TwoD10MagicRepository(conn).hold(GUILD, held(sheet.id))

    async def end() -> Held | None:
        async with db.transaction() as conn:
            return await TwoD10MagicRepository(conn).end(GUILD, sheet.id)

    results = await asyncio.gather(end(), end())
    assert sorted(r is None for r in results) == [False, True]


async def test_concentration_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "magic.sqlite3"
    first = await Database.open(path)
    await migrate(first.connection)
    try:
        sheet = await create(first)
        async with first.transaction() as conn:
            await TwoD10MagicRepository(conn).hold(GUILD, held(sheet.id))
    finally:
        await first.close()
    again = await Database.open(path)
    try:
        async with again.read() as conn:
            found = await TwoD10MagicRepository(conn).get(GUILD, sheet.id)
        assert found == held(sheet.id)
    finally:
        await again.close()
