"""Encounter and character-vitals storage against a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    ActionKind,
    Encounter,
    InitiativeStats,
    NewParticipant,
    Side,
    add_effect,
    add_participants,
    next_turn,
    set_result,
    spend,
)
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from bot.tracker.errors import EncounterChanged, EncounterExists
from tests.support.pg_fixtures import open_second

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 100
CHANNEL = 555


def npc(name: str, side: Side = Side.ANTAGONIST, **kw: object) -> NewParticipant:
    return NewParticipant(
        name=name,
        side=side,
        stats=InitiativeStats(agility=2, presence=1, training=1),
        **kw,  # type: ignore[arg-type]
    )


async def new_character(db: Database, name: str = "Mira") -> int:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        character = await CharacterRepository(conn).create(
            guild_id=GUILD,
            owner_id=1,
            kind=CharacterKind.PC,
            sheet=CharacterSheet(name=name, strength=3, agility=2, mind=2, presence=1),
            details=CharacterDetails(),
        )
    return character.id


def busy_state(character_id: int) -> Encounter:
    dice = RandomDice(random.Random(7))
    enc, _ = add_participants(
        Encounter(skip_down=True, show_npc_hp=True),
        [
            npc("Mira", Side.PC, owner_id=1, character_id=character_id, hp=12, max_hp=12,
                threshold=-6),
            npc("Goblin 1", group="Goblins", group_roll=True, hp=7, max_hp=7),
            npc("Goblin 2", group="Goblins", group_roll=True, hp=7, max_hp=7),
            npc("Sergeant", Side.ALLY, conditions=Conditions.of(fatigued=2)),
        ],
        dice,
    )  # fmt: skip
    enc, _ = next_turn(enc, dice)
    enc, _ = add_effect(enc, [2], Condition.BLEEDING, value=2, rounds=2)
    enc, _ = add_effect(enc, [4], Condition.STAGGERED)
    first = enc.current_slot[0]
    enc, _ = spend(enc, first, ActionKind.ACTION)
    enc, _ = set_result(enc, [first], 4)
    return enc


async def test_save_and_load_round_trip(db: Database) -> None:
    character_id = await new_character(db)
    state = busy_state(character_id)
    async with db.transaction() as conn:
        record = await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=state
        )
    async with db.read() as conn:
        loaded = await EncounterRepository(conn).get_by_channel(CHANNEL)
    assert loaded is not None
    assert loaded.state == state
    assert (loaded.id, loaded.version, loaded.gm_id) == (record.id, record.version, 9)
    assert loaded.tracker_message_id is None


async def test_a_locked_stamp_is_the_stamp(db: Database) -> None:
    character_id = await new_character(db)
    async with db.transaction() as conn:
        record = await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=busy_state(character_id)
        )
    async with db.read() as conn:
        unlocked = await EncounterRepository(conn).stamp(CHANNEL)
    async with db.transaction() as conn:  # (PostgreSQL: FOR NO KEY UPDATE on the row)
        locked = await EncounterRepository(conn).stamp(CHANNEL, lock=True)
        assert await EncounterRepository(conn).stamp(CHANNEL + 1, lock=True) is None
    assert locked == unlocked is not None
    assert (locked.encounter_id, locked.version, locked.linked) == (record.id, record.version, 1)


async def test_one_encounter_per_channel(db: Database) -> None:
    await new_character(db)
    async with db.transaction() as conn:
        repo = EncounterRepository(conn)
        await repo.create(guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=Encounter())
        with pytest.raises(EncounterExists):
            await repo.create(guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=Encounter())
        await repo.create(guild_id=GUILD, channel_id=CHANNEL + 1, gm_id=9, state=Encounter())


async def test_a_stale_save_is_refused_and_writes_nothing(db: Database) -> None:
    await new_character(db)
    dice = ScriptedDice([4, 4, 4])
    state, _ = add_participants(Encounter(), [npc("Goblin")], dice)
    async with db.transaction() as conn:
        record = await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=state
        )
    advanced, _ = next_turn(state, dice)
    async with db.transaction() as conn:
        saved = await EncounterRepository(conn).save(record, advanced)
    assert saved.version == record.version + 1
    with pytest.raises(EncounterChanged):
        async with db.transaction() as conn:
            await EncounterRepository(conn).save(record, advanced)
    with pytest.raises(EncounterChanged):
        async with db.transaction() as conn:
            await EncounterRepository(conn).delete(record)
    async with db.read() as conn:
        loaded = await EncounterRepository(conn).get(record.id)
    assert loaded is not None and loaded.state.turn == 1 and loaded.version == saved.version


async def test_tracker_message_and_delete(db: Database) -> None:
    await new_character(db)
    async with db.transaction() as conn:
        repo = EncounterRepository(conn)
        record = await repo.create(guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=Encounter())
        await repo.set_tracker_message(record.id, 777)
        loaded = await repo.get(record.id)
        assert loaded is not None
        assert loaded.tracker_message_id == 777 and loaded.version == record.version
        await repo.delete(loaded)
        assert await repo.get_by_channel(CHANNEL) is None


async def test_participant_names_for_autocomplete(db: Database) -> None:
    character_id = await new_character(db)
    async with db.transaction() as conn:
        repo = EncounterRepository(conn)
        await repo.create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=busy_state(character_id)
        )
        assert await repo.participant_names(CHANNEL, "gob") == ["Goblin 1", "Goblins", "Goblin 2"]
        assert await repo.participant_names(CHANNEL, "") == [
            "Mira", "Goblin 1", "Goblins", "Goblin 2", "Sergeant",
        ]  # fmt: skip
        assert await repo.participant_names(CHANNEL + 1, "") == []


async def test_deleting_a_character_unlinks_its_participant(db: Database) -> None:
    character_id = await new_character(db)
    async with db.transaction() as conn:
        await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=busy_state(character_id)
        )
        await CharacterRepository(conn).delete(character_id)
        loaded = await EncounterRepository(conn).get_by_channel(CHANNEL)
    assert loaded is not None and loaded.state.participant(1).character_id is None


async def advance(db: Database, times: int) -> None:
    for _ in range(times):
        async with db.transaction() as conn:
            repo = EncounterRepository(conn)
            record = await repo.get_by_channel(CHANNEL)
            assert record is not None
            state, _ = next_turn(record.state, RandomDice(random.Random(record.version)))
            await repo.save(record, state)


async def test_two_connections_advancing_at_once_never_lose_a_turn(
    db: Database, tmp_path: Path
) -> None:
    """Two processes (two connections to one file) each advance 25 turns concurrently."""
    await new_character(db)
    state, _ = add_participants(
        Encounter(), [npc(f"Rat {n}") for n in range(7)], RandomDice(random.Random(3))
    )
    async with db.transaction() as conn:
        await EncounterRepository(conn).create(
            guild_id=GUILD, channel_id=CHANNEL, gm_id=9, state=state
        )
    other = await open_second(db)
    try:
        await asyncio.gather(advance(db, 25), advance(other, 25))
    finally:
        await other.close()
    async with db.read() as conn:
        record = await EncounterRepository(conn).get_by_channel(CHANNEL)
    assert record is not None
    assert record.state.turn == 50
    assert (record.state.round, record.state.current) == (8, 0)  # 7 turns a round: 7×7 + 1


# --- character vitals -------------------------------------------------------------------


async def test_hp_loss_takes_temporary_hit_points_first(db: Database) -> None:
    character_id = await new_character(db)
    async with db.transaction() as conn:
        await conn.execute("UPDATE characters SET temp_hp = 3 WHERE id = ?", (character_id,))
        vitals = CharacterVitalsRepository(conn)
        change = await vitals.adjust_hp(character_id, -5)
        assert change is not None
        assert (change.hp_before, change.hp, change.temp_absorbed, change.hp_lost) == (12, 10, 3, 2)
        change = await vitals.adjust_hp(character_id, -20, temporary_first=False)
        assert change is not None and change.hp == -10
        change = await vitals.adjust_hp(character_id, 30, maximum=12)
        assert change is not None and change.hp == 12
        assert await vitals.adjust_hp(character_id + 99, -1) is None
        after = await vitals.get(character_id)
    assert after is not None and after.version == 4  # created at 1, three changes


async def test_concurrent_hp_losses_all_count(db: Database, tmp_path: Path) -> None:
    character_id = await new_character(db)
    other = await open_second(db)

    async def bleed(database: Database) -> None:
        for _ in range(10):
            async with database.transaction() as conn:
                await CharacterVitalsRepository(conn).adjust_hp(character_id, -1)

    try:
        await asyncio.gather(bleed(db), bleed(other))
    finally:
        await other.close()
    async with db.read() as conn:
        vitals = await CharacterVitalsRepository(conn).get(character_id)
    assert vitals is not None and vitals.hp == 12 - 20


async def test_conditions_change_by_compare_and_set(db: Database) -> None:
    character_id = await new_character(db)
    async with db.transaction() as conn:
        vitals = CharacterVitalsRepository(conn)
        assert await vitals.add_condition(character_id, Condition.FATIGUED, 2) == Conditions.of(
            fatigued=2
        )
        assert await vitals.add_condition(character_id, Condition.STAGGERED) == Conditions.of(
            Condition.STAGGERED, fatigued=2
        )
        assert await vitals.remove_condition(character_id, Condition.FATIGUED, 1) == (
            Conditions.of(Condition.STAGGERED, fatigued=1)
        )
        assert await vitals.remove_condition(character_id, Condition.STAGGERED) == (
            Conditions.of(fatigued=1)
        )
        stale = await vitals.get(character_id)
        assert stale is not None
        await vitals.add_condition(character_id, Condition.SLOW)
        assert not await vitals.set_conditions(
            character_id, Conditions(), expected_version=stale.version
        )
        assert await vitals.add_condition(character_id + 99, Condition.SLOW) is None
        character = await CharacterRepository(conn).get(character_id)
    assert character is not None
    assert character.state.conditions == Conditions.of(Condition.SLOW, fatigued=1)
