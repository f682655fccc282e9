"""Every write of what a 2d10 tracker shows records its character in the transaction
(bot.storage.changes): the database tells ``on_characters_changed`` once, after the
COMMIT, and never for a transaction rolled back or a write refused."""

from __future__ import annotations

import pytest

from bot.rules.twod10.ammo import AmmoState
from bot.rules.twod10.encumbrance import Item
from bot.rules.twod10.magic import Form, Tier
from bot.rules.twod10.rations import RationState
from bot.storage.changes import Changed
from bot.storage.database import Database
from bot.storage.twod10.ammo import TwoD10AmmoRepository
from bot.storage.twod10.characters import SheetChanged, TwoD10CharacterRepository, TwoD10Condition
from bot.storage.twod10.items import TwoD10ItemRepository
from bot.storage.twod10.magic import Held, TwoD10MagicRepository
from bot.storage.twod10.rations import TwoD10RationRepository
from bot.storage.twod10.survival import TwoD10SurvivalRepository
from tests.storage.test_twod10_characters import GUILD, OTHER_GUILD, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


def listen(db: Database) -> list[Changed]:
    """What the database tells, one entry per call (copied: the sets are its own)."""
    told: list[Changed] = []
    db.on_characters_changed = lambda changed: told.append(
        {guild: set(ids) for guild, ids in changed.items()}
    )
    return told


async def test_a_committed_transaction_tells_its_sheets_once_after_the_commit(
    db: Database,
) -> None:
    brann = await create(db)
    cora = await create(db, "Cora")
    elsewhere = await create(db, "Dag", guild=OTHER_GUILD)
    told = listen(db)
    async with db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        await repo.change_hp(GUILD, brann.id, -3)
        await repo.set_conditions(GUILD, brann.id, [TwoD10Condition.PRONE])
        await repo.set_hp(GUILD, cora.id, 5)
        await repo.update_sheet(OTHER_GUILD, elsewhere.id, elsewhere.character)
        assert told == []  # not while the transaction may still roll back
    assert told == [{GUILD: {brann.id, cora.id}, OTHER_GUILD: {elsewhere.id}}]
    async with db.transaction() as conn:  # reads only: nothing to tell
        await TwoD10CharacterRepository(conn).get(GUILD, brann.id)
    async with db.read() as conn:
        assert (await TwoD10CharacterRepository(conn).get(GUILD, cora.id)).hp == 5  # type: ignore[union-attr]
    assert len(told) == 1


async def test_a_rolled_back_transaction_or_a_refused_write_tells_nobody(db: Database) -> None:
    brann = await create(db)
    told = listen(db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await TwoD10CharacterRepository(conn).set_hp(GUILD, brann.id, 1)
            raise RuntimeError("the command failed after writing")
    async with db.transaction() as conn:
        with pytest.raises(SheetChanged):  # a stale revision: nothing written
            await TwoD10CharacterRepository(conn).set_hp(
                GUILD, brann.id, 1, expected_revision=brann.revision + 1
            )
    assert told == []
    async with db.read() as conn:
        assert (await TwoD10CharacterRepository(conn).get(GUILD, brann.id)).hp == brann.hp  # type: ignore[union-attr]
    # The next transaction starts afresh: only its own write is told.
    async with db.transaction() as conn:
        await TwoD10CharacterRepository(conn).change_hp(GUILD, brann.id, -1)
    assert told == [{GUILD: {brann.id}}]


async def test_what_weighs_or_shows_on_a_tracker_tells_its_character(db: Database) -> None:
    ada, bo, cy, di, ed = [await create(db, name) for name in ("Ada", "Bo", "Cy", "Di", "Ed")]
    told = listen(db)
    async with db.transaction() as conn:
        await TwoD10ItemRepository(conn).add(GUILD, ada.id, Item(name="Rope", weight=1))
        await TwoD10RationRepository(conn).save(
            GUILD, bo.id, RationState(quarters=8), expected=None
        )
        await TwoD10SurvivalRepository(conn).set_supplies(GUILD, cy.id, 3)
        await TwoD10MagicRepository(conn).hold(
            GUILD, Held(character_id=di.id, effect="ward", form=Form.SPELL, tier=Tier.ONE)
        )
        await TwoD10AmmoRepository(conn).set(GUILD, ed.id, AmmoState(points=2, quivers=1))
    assert told == [{GUILD: {ada.id, bo.id, cy.id, di.id, ed.id}}]
    async with db.transaction() as conn:  # and what takes it away again
        items = TwoD10ItemRepository(conn)
        [rope] = await items.find(GUILD, ada.id, "Rope")
        assert await items.remove(GUILD, rope, 1) == 0
        rations = TwoD10RationRepository(conn)
        meal = await rations.get(GUILD, bo.id)
        assert meal is not None and await rations.eat(GUILD, meal, RationState(quarters=4), day=1)
        assert await TwoD10SurvivalRepository(conn).spend_supply(GUILD, cy.id) == 2
        assert await TwoD10MagicRepository(conn).end(GUILD, di.id) is not None
    assert told[1:] == [{GUILD: {ada.id, bo.id, cy.id, di.id}}]
    async with db.transaction() as conn:  # points weigh nothing; spent supplies nobody has
        ammo = TwoD10AmmoRepository(conn)
        assert await ammo.spend_point(GUILD, ed.id) is not None
        row = await ammo.get(GUILD, ed.id)
        assert row is not None
        row = await ammo.save(GUILD, row, AmmoState(points=1, quivers=1))
        assert await TwoD10SurvivalRepository(conn).spend_supply(GUILD, ada.id) is None
        assert await TwoD10MagicRepository(conn).end(GUILD, di.id) is None
    assert len(told) == 2
    async with db.transaction() as conn:  # a quiver more does weigh
        assert row is not None
        await TwoD10AmmoRepository(conn).save(GUILD, row, AmmoState(points=1, quivers=2))
    assert told[2:] == [{GUILD: {ed.id}}]
