"""2d10 encounter rows against a real SQLite file: versioned saves, one per channel."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Combatant, Side, add_combatant
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.twod10.encounters import (
    EncounterChanged,
    EncounterExists,
    Seat,
    Tracker,
    TwoD10EncounterRepository,
    tracker_from_json,
    tracker_to_json,
)

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 300


def seated(tracker: Tracker, name: str, side: Side, seat: Seat) -> Tracker:
    combatant = Combatant(id=tracker.next_id, name=name, side=side, finesse=1)
    return replace(
        tracker,
        encounter=add_combatant(tracker.encounter, combatant),
        seats=(*tracker.seats, (combatant.id, seat)),
        next_id=tracker.next_id + 1,
    )


async def begin(db: Database, channel: int = 10) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        await TwoD10EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=channel, gm_id=1, tracker=Tracker()
        )


async def test_a_tracker_round_trips_and_one_channel_holds_one(db: Database) -> None:
    await begin(db)
    with pytest.raises(EncounterExists):
        await begin(db)
    tracker = seated(Tracker(), "Mira", Side.PLAYERS, Seat(owner_id=5, sheet_id=9))
    tracker = seated(tracker, "Goblin", Side.NPCS, Seat(owner_id=1))
    async with db.transaction() as conn:
        repo = TwoD10EncounterRepository(conn)
        record = await repo.get_by_channel(10)
        assert record is not None and record.version == 1
        saved = await repo.save(record, tracker)
    assert saved.version == 2 and saved.tracker == tracker
    assert tracker_from_json(tracker_to_json(tracker)) == tracker
    async with db.read() as conn:
        repo = TwoD10EncounterRepository(conn)
        assert await repo.channels_with_sheets(GUILD, [9, 4]) == [10]
        assert await repo.channels_with_sheets(GUILD, [4]) == []
        assert await repo.channels_with_sheets(GUILD + 1, [9]) == []


async def test_a_save_from_an_older_version_is_refused(db: Database) -> None:
    await begin(db)
    async with db.read() as conn:
        old = await TwoD10EncounterRepository(conn).get_by_channel(10)
    assert old is not None
    async with db.transaction() as conn:
        await TwoD10EncounterRepository(conn).save(old, replace(old.tracker, next_id=2))
    with pytest.raises(EncounterChanged):
        async with db.transaction() as conn:
            await TwoD10EncounterRepository(conn).save(old, replace(old.tracker, next_id=3))
    async with db.read() as conn:
        now = await TwoD10EncounterRepository(conn).get_by_channel(10)
    assert now is not None and (now.version, now.tracker.next_id) == (2, 2)


async def test_concurrent_saves_of_one_version_let_exactly_one_win(db: Database) -> None:
    await begin(db)
    async with db.read() as conn:
        old = await TwoD10EncounterRepository(conn).get_by_channel(10)
    assert old is not None

    async def save(n: int) -> bool:
        try:
            async with db.transaction() as conn:
                await TwoD10EncounterRepository(conn).save(old, replace(old.tracker, next_id=n))
        except EncounterChanged:
            return False
        return True

    results = await asyncio.gather(*(save(n) for n in range(2, 12)))
    assert sum(results) == 1


async def test_end_deletes_and_a_damaged_document_is_refused_in_one_sentence(
    db: Database,
) -> None:
    await begin(db)
    async with db.transaction() as conn:
        ended = await TwoD10EncounterRepository(conn).delete(10)
        assert ended is not None and ended.channel_id == 10
        assert await TwoD10EncounterRepository(conn).delete(10) is None
    with pytest.raises(RulesError, match="damaged; end it and start a new one"):
        tracker_from_json('{"encounter": {}, "seats": [], "next_id": 1}')
