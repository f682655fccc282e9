"""Shield blocks and the attack's conditional writes against a real SQLite file."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.twod10.characters import SheetChanged, TwoD10CharacterRepository, TwoD10Condition
from bot.storage.twod10.shields import ShieldBlockRepository
from cogs.twod10.combat_apply import save_vitals
from tests.storage.test_twod10_characters import GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def test_blocks_are_counted_until_the_shield_breaks(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        shields = ShieldBlockRepository(conn)
        assert await shields.used(sheet.id, "Buckler") == 0
        assert [await shields.spend(sheet.id, "Light round shield", 2) for _ in range(2)] == [1, 2]
        with pytest.raises(LookupError):
            await shields.spend(sheet.id, "Light round shield", 2)
        assert await shields.used(sheet.id, "Light round shield") == 2
        # Another shield starts afresh; repairing forgets the count.
        assert await shields.spend(sheet.id, "Buckler", 1) == 1
        assert await shields.used(sheet.id, "Light round shield") == 0
        assert await shields.repair(sheet.id)
        assert await shields.used(sheet.id, "Buckler") == 0
        assert not await shields.repair(sheet.id)


async def test_blocks_go_with_the_character(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        await ShieldBlockRepository(conn).spend(sheet.id, "Buckler", 1)
        assert await TwoD10CharacterRepository(conn).delete(GUILD, sheet.id)
        assert await ShieldBlockRepository(conn).used(sheet.id, "Buckler") == 0


async def test_damage_over_a_changed_sheet_writes_nothing(db: Database) -> None:
    sheet = await create(db)  # toughness 2: 25 HP, dies at -4
    async with db.transaction() as conn:
        await TwoD10CharacterRepository(conn).change_hp(GUILD, sheet.id, -1)
    with pytest.raises(SheetChanged):
        async with db.transaction() as conn:
            await save_vitals(conn, sheet, delta=-30, prone=True)
    async with db.read() as conn:
        now = await TwoD10CharacterRepository(conn).get(GUILD, sheet.id)
    assert now is not None and now.hp == 24 and now.conditions == ()


async def test_damage_marks_dead_and_prone_in_one_go(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        after = await save_vitals(conn, sheet, delta=-40, prone=True)
    assert after.hp == -4
    assert set(after.conditions) == {TwoD10Condition.DEAD, TwoD10Condition.PRONE}
    assert after.revision == sheet.revision + 2
