"""Character repository against a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition, Conditions
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterNameTaken, CharacterRepository

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 100


def sheet(name: str = "Mira", **kw: object) -> CharacterSheet:
    values = {"strength": 3, "agility": 2, "mind": 2, "presence": 1} | kw
    return CharacterSheet(name=name, **values)  # type: ignore[arg-type]


async def create(db: Database, name: str = "Mira", owner: int = 1, **kw: object):
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        return await CharacterRepository(conn).create(
            guild_id=GUILD,
            owner_id=owner,
            kind=CharacterKind.PC,
            sheet=sheet(name, **kw),
            details=CharacterDetails(armor=2, traits=("bold", "witty", "skeptical")),
        )


async def test_new_character_starts_full(db: Database) -> None:
    mira = await create(db, training={"athletics": 1}, expertise="athletics")
    assert (mira.state.hp, mira.state.recovery, mira.state.determination) == (12, 3, 3)
    assert mira.state.hero_points == 0
    assert mira.details.traits == ("bold", "witty", "skeptical")
    assert mira.sheet.training == (("athletics", 1),)
    assert mira.sheet.expertise == "athletics"
    assert mira.fortune_sources == ()


async def test_names_are_unique_per_guild_ignoring_case(db: Database) -> None:
    await create(db, "Mira")
    with pytest.raises(CharacterNameTaken):
        await create(db, "  mira ")


async def test_find_list_active(db: Database) -> None:
    mira = await create(db, "Mira", owner=1)
    await create(db, "Bram", owner=2)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        assert (await repo.find(GUILD, "MIRA")).id == mira.id
        assert [c.name for c in await repo.list(GUILD)] == ["Bram", "Mira"]
        assert [c.name for c in await repo.list(GUILD, owner_id=2)] == ["Bram"]
        assert await repo.get_active(GUILD, 1) is None
        await repo.set_active(GUILD, 1, mira.id)
        assert (await repo.get_active(GUILD, 1)).name == "Mira"
        assert await repo.search_names(GUILD, "r", owner_id=2) == ["Bram", "Mira"]


async def test_lowering_strength_clamps_tracked_hp(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        updated = await CharacterRepository(conn).update_sheet(
            mira, sheet("Mira", strength=1), mira.details
        )
    assert updated.state.hp == 8
    assert updated.state.recovery == 1
    assert updated.version == mira.version + 1


async def test_delete_cascades_active_character(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        repo = CharacterRepository(conn)
        await repo.set_active(GUILD, 1, mira.id)
        assert await repo.delete(mira.id)
        assert await repo.get_active(GUILD, 1) is None


async def test_determination_is_spent_exactly_once_per_point(db: Database) -> None:
    mira = await create(db)  # 3 determination points

    async def spend() -> bool:
        async with db.transaction() as conn:
            return await CharacterRepository(conn).spend_determination(mira.id)

    results = await asyncio.gather(*(spend() for _ in range(200)))
    assert results.count(True) == 3
    async with db.read() as conn:
        assert (await CharacterRepository(conn).get(mira.id)).state.determination == 0


async def test_conditions_round_trip(db: Database) -> None:
    mira = await create(db)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE characters SET conditions = ? WHERE id = ?",
            ('{"staggered": 1, "fatigued": 2}', mira.id),
        )
        loaded = await CharacterRepository(conn).get(mira.id)
    assert loaded.state.conditions == Conditions.of(Condition.STAGGERED, fatigued=2)
