"""Rations, the campaign day, infections and items against a real SQLite file: each
write conditional on what was read, caps held in SQL, rows gone with the character."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.rules.twod10.disease import Course, Disease, Infection, Severity
from bot.rules.twod10.encumbrance import Item
from bot.rules.twod10.rations import RationState
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.infections import MAX_INFECTIONS, TwoD10InfectionRepository
from bot.storage.twod10.items import MAX_ROWS, TwoD10ItemRepository
from bot.storage.twod10.rations import TwoD10CalendarRepository, TwoD10RationRepository
from bot.storage.twod10.survival import TwoD10SurvivalRepository
from tests.storage.test_twod10_characters import GUILD, OTHER_GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

FEVER = Disease(name="Fever", difficulty=-5, course=Course.ACUTE, severity=Severity.MINOR)


async def test_the_day_starts_at_one_and_moves_per_guild(db: Database) -> None:
    async with db.transaction() as conn:
        for guild in (GUILD, OTHER_GUILD):
            await CampaignRepository(conn).get_or_create(guild)
        days = TwoD10CalendarRepository(conn)
        assert await days.today(GUILD) == 1
        assert await days.advance(GUILD, 1) == 2
        assert await days.advance(GUILD, 1) == 3
        assert await days.today(OTHER_GUILD) == 1


async def test_a_meal_is_recorded_once_per_day_and_only_over_what_was_read(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10RationRepository(conn)
        assert await repo.save(GUILD, sheet.id, RationState(quarters=8), expected=None)
        # A second "first" write lost a race: refused, nothing written.
        assert not await repo.save(GUILD, sheet.id, RationState(quarters=80), expected=None)
        row = await repo.get(GUILD, sheet.id)
        assert row is not None and row.state.quarters == 8 and row.last_day is None
        assert await repo.eat(GUILD, row, RationState(quarters=4), day=1)
        # The same read again (stale revision) and the same day: refused.
        assert not await repo.eat(GUILD, row, RationState(quarters=0), day=1)
        fresh = await repo.get(GUILD, sheet.id)
        assert fresh is not None and fresh.last_day == 1
        assert not await repo.eat(GUILD, fresh, RationState(quarters=0), day=1)
        assert await repo.eat(GUILD, fresh, RationState(quarters=0), day=2)
        assert (await repo.get(GUILD, sheet.id)).state.quarters == 0  # type: ignore[union-attr]


async def test_infections_are_unique_capped_and_written_once(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        repo = TwoD10InfectionRepository(conn)
        assert await repo.add(GUILD, sheet.id, Infection(disease=FEVER), due_day=2) is not None
        # The same disease (by normalised name) again: refused.
        same = Disease(name=" fever ", difficulty=0, course=Course.CHRONIC,
                       severity=Severity.SEVERE)  # fmt: skip
        assert await repo.add(GUILD, sheet.id, Infection(disease=same), due_day=2) is None
        for n in range(MAX_INFECTIONS - 1):
            other = Disease(name=f"Pox {n}", difficulty=0, course=Course.ACUTE,
                            severity=Severity.MINOR)  # fmt: skip
            assert await repo.add(GUILD, sheet.id, Infection(disease=other), due_day=2)
        extra = Disease(name="One too many", difficulty=0, course=Course.ACUTE,
                        severity=Severity.MINOR)  # fmt: skip
        assert await repo.add(GUILD, sheet.id, Infection(disease=extra), due_day=2) is None
        row = await repo.find(GUILD, sheet.id, "FEVER")
        assert row is not None and row.due_day == 2 and row.character_name == "Brann"
        treated = Infection(disease=FEVER, treated=True)
        assert await repo.treat(GUILD, row, treated, day=1)
        assert not await repo.update(GUILD, row, treated, due_day=3)  # stale
        row = await repo.find(GUILD, sheet.id, "fever")
        assert row is not None and row.infection.treated and row.treated_day == 1
        assert not await repo.treat(GUILD, row, treated, day=1)  # once a day
        assert await repo.remove(GUILD, row)
        assert not await repo.remove(GUILD, row)
        assert len(await repo.list(GUILD, owner_id=1)) == MAX_INFECTIONS - 1
        assert await repo.list(GUILD, owner_id=2) == []


async def test_items_stack_cap_and_weigh_with_rations_and_supplies(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        items = TwoD10ItemRepository(conn)
        rope = await items.add(GUILD, sheet.id, Item(name="Rope", weight=1, count=3))
        assert rope is not None and rope.item.count == 3
        # The same name in the same place stacks (its first weight stays).
        more = await items.add(GUILD, sheet.id, Item(name="rope", weight=2, count=2))
        assert more is not None and more.item.count == 5 and more.item.weight == 1
        assert await items.add(GUILD, sheet.id, Item(name="Rope", weight=1, count=196)) is None
        await items.add(GUILD, sheet.id, Item(name="Cloak", weight=Fraction(3, 4), worn=True))
        await TwoD10RationRepository(conn).save(GUILD, sheet.id, RationState(quarters=6),
                                                expected=None)  # fmt: skip
        await TwoD10SurvivalRepository(conn).set_supplies(GUILD, sheet.id, 2)
        weights = await items.weights(GUILD, sheet.id)
        assert (weights.worn, weights.backpack) == (Fraction(3, 4), 5)
        assert (weights.rations, weights.supplies) == (Fraction(3, 2), 2)
        listed = await items.list(GUILD, sheet.id)
        assert [r.item.name for r in listed] == ["Cloak", "Rope"]  # worn first
        rope_row = listed[1]
        assert await items.remove(GUILD, rope_row, 2) == 3
        assert await items.remove(GUILD, rope_row, 5) is None  # stale: only 3 left
        for n in range(MAX_ROWS - 2):
            assert await items.add(GUILD, sheet.id, Item(name=f"Thing {n}", weight=0))
        assert await items.add(GUILD, sheet.id, Item(name="Straw", weight=0)) is None
        # Stacking onto a listed item still works at the cap.
        assert await items.add(GUILD, sheet.id, Item(name="Rope", weight=1)) is not None


async def test_the_rows_go_with_the_character(db: Database) -> None:
    sheet = await create(db)
    async with db.transaction() as conn:
        await TwoD10ItemRepository(conn).add(GUILD, sheet.id, Item(name="Rope", weight=1))
        await TwoD10RationRepository(conn).save(GUILD, sheet.id, RationState(quarters=4),
                                                expected=None)  # fmt: skip
        await TwoD10InfectionRepository(conn).add(GUILD, sheet.id, Infection(disease=FEVER),
                                                  due_day=2)  # fmt: skip
        assert await TwoD10CharacterRepository(conn).delete(GUILD, sheet.id)
        for table in ("twod10_items", "twod10_rations", "twod10_infections"):
            rows = await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table}")
            assert next(iter(rows))[0] == 0, table
