"""Combat storage against a real SQLite file: vitals, wounds, open die choices, the codec."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.attack import (
    PriorRolls,
    Vitals,
    raw_damage_pool,
    roll_inputs,
)
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.wounds import Wound, WoundKind
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.character_codec import (
    CharacterDetails,
    Weapon,
    sheet_from_dict,
    sheet_to_dict,
)
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from bot.storage.migrations import MIGRATIONS_DIR, migrate
from cogs.hocs.combat.records import choice_dicts

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD = 100
PHYSICAL = (DamageType.PHYSICAL,)


async def create(db: Database, name: str = "Gob", **details: object) -> Character:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
        return await CharacterRepository(conn).create(
            guild_id=GUILD,
            owner_id=1,
            kind=CharacterKind.ANTAGONIST,
            sheet=CharacterSheet(name=name, strength=2, agility=2, mind=1, presence=1),
            details=CharacterDetails(**details),  # type: ignore[arg-type]
        )


def test_details_round_trip_with_weapons_and_defenses() -> None:
    sheet = CharacterSheet(name="Bram", strength=3, agility=2, mind=2, presence=1)
    details = CharacterDetails(
        armor=3,
        weapons=(
            Weapon(name="Greatsword", dice=(12,), types=(DamageType.SLASH,)),
            Weapon(name="Bow", dice=(8,), kind=AttackKind.RANGED, lethal=False),
        ),
        resistances=(DamageType.FIRE,),
        immunities=(DamageType.POISON,),
        weaknesses=(DamageType.HOLY, DamageType.BLUNT),
        speed=25,
    )
    data = json.loads(json.dumps(sheet_to_dict(sheet, details)))
    assert sheet_from_dict(data) == (sheet, details)
    assert details.weapon("greatsword") is details.weapons[0]


def test_sheets_stored_before_combat_fields_still_load() -> None:
    sheet = CharacterSheet(name="Old", strength=2, agility=2, mind=1, presence=1)
    data = sheet_to_dict(sheet, CharacterDetails(armor=1))
    for key in ("weapons", "resistances", "immunities", "weaknesses", "speed"):
        del data[key]
    _, details = sheet_from_dict(data)
    assert details.weapons == () and details.speed == 30 and details.armor == 1


def _first_migrations(into: Path, count: int) -> Path:
    for path in sorted(MIGRATIONS_DIR.glob("*.sql"))[:count]:
        (into / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return into


async def test_migration_adds_wounds_to_existing_rows(tmp_path: Path) -> None:
    old = tmp_path / "old-migrations"
    old.mkdir()
    _first_migrations(old, 3)
    db = await Database.open(tmp_path / "old.sqlite3")
    try:
        assert await migrate(db.connection, old) == 3
        character = await create(db)
        await migrate(db.connection)
        async with db.read() as conn:
            found = await CombatRepository(conn).get(character.id)
        assert found is not None and found.wounds == ()
        assert found.vitals == Vitals(hp=10)
    finally:
        await db.close()


async def test_vitals_and_wounds_are_saved_together(db: Database) -> None:
    gob = await create(db)
    vitals = Vitals(
        hp=-2,
        temp_hp=3,
        nonlethal=0,
        conditions=Conditions.of(Condition.STAGGERED, Condition.WOUNDED, fatigued=2),
        wounds=(Wound(WoundKind.SPEED_MINUS_10, 9, (3, 2)),),
    )
    async with db.transaction() as conn:
        await CombatRepository(conn).save_vitals(gob.id, vitals)
    async with db.read() as conn:
        found = await CombatRepository(conn).get(gob.id)
        plain = await CharacterRepository(conn).get(gob.id)
    assert found is not None and found.vitals == vitals
    assert plain is not None and plain.version == gob.version + 1
    assert plain.state.conditions == vitals.conditions


async def test_saved_vitals_raise_the_revision_by_exactly_one(db: Database) -> None:
    # save_vitals raises it itself (the trigger then stays idle): the trackers compare it.
    gob = await create(db)

    async def revision() -> int:
        async with db.read() as conn:
            found = await CharacterRepository(conn).get_many_revised([gob.id])
        return found[gob.id][1]

    first = await revision()
    async with db.transaction() as conn:
        await CombatRepository(conn).save_vitals(gob.id, Vitals(hp=7))
    assert await revision() == first + 1
    async with db.transaction() as conn:
        await CombatRepository(conn).save_vitals(gob.id, Vitals(hp=6))
        await CombatRepository(conn).save_vitals(gob.id, Vitals(hp=5))
    assert await revision() == first + 3


async def test_twenty_simultaneous_hits_all_count(db: Database) -> None:
    gob = await create(db, armor=0)
    async with db.transaction() as conn:
        await CombatRepository(conn).save_vitals(gob.id, Vitals(hp=50))

    async def hit() -> None:
        async with db.transaction() as conn:
            repo = CombatRepository(conn)
            found = await repo.get(gob.id)
            assert found is not None
            before = found.vitals
            await asyncio.sleep(0)  # let the others try to interleave
            await repo.save_vitals(gob.id, replace(before, hp=before.hp - 1))

    await asyncio.gather(*(hit() for _ in range(20)))
    async with db.read() as conn:
        found = await CombatRepository(conn).get(gob.id)
    assert found is not None and found.vitals.hp == 50 - 20


async def test_choices_are_stored_updated_and_expire(db: Database) -> None:
    gob = await create(db)
    dice = ScriptedDice([3, 5])
    inputs = roll_inputs(raw_damage_pool((8, 6), types=PHYSICAL, lethal=True), PHYSICAL, dice)
    start = datetime(2030, 1, 1, tzinfo=UTC)
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        choice_id = await _new_choice(
            repo,
            guild_id=GUILD,
            channel_id=7,
            user_id=1,
            attacker_id=None,
            target_id=gob.id,
            intro={"title": "t", "lines": []},
            inputs=inputs,
            rolls=PriorRolls(explosions=((1, ()),)),
            chosen_index=1,
            before=Vitals(hp=10),
            after=Vitals(hp=5),
            now=start,
        )
        await repo.set_choice_message(choice_id, 999)
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        choice = await repo.get_choice(choice_id)
        assert choice is not None
        assert choice.inputs == inputs and choice.chosen_index == 1 and choice.message_id == 999
        assert choice.before == Vitals(hp=10) and choice.after == Vitals(hp=5)
        assert not choice.expired(start + timedelta(minutes=14))
        assert choice.expired(start + timedelta(minutes=16))
        await repo.update_choice(choice_id, chosen_index=0, rolls=PriorRolls(), after=None)
        changed = await repo.get_choice(choice_id)
        assert changed is not None and changed.chosen_index == 0 and changed.after is None
        # Creating another choice later clears the expired ones.
        await repo.add_choice(
            guild_id=GUILD, channel_id=7, user_id=1, attacker_id=None, target_id=None,
            intro={}, inputs=inputs, rolls=PriorRolls(), chosen_index=0, before=None,
            after=None, now=start + timedelta(hours=1),
        )  # fmt: skip
        assert await repo.get_choice(choice_id) is None


async def test_a_choice_stored_from_the_roll_logs_dicts_is_stored_alike(db: Database) -> None:
    # /attack and /damage hand add_choice the dicts their roll-log record already holds;
    # the stored text must be what the values encode to, or the hero reroll's
    # compare-and-set (which re-encodes the inputs) would refuse every choice.
    gob = await create(db)
    dice = ScriptedDice([3, 5])
    inputs = roll_inputs(raw_damage_pool((8, 6), types=PHYSICAL, lethal=True), PHYSICAL, dice)
    rolls = PriorRolls(explosions=((1, ()),))
    before, after = Vitals(hp=10), Vitals(hp=5, conditions=Conditions.of(Condition.STAGGERED))
    record = {
        "damage": {"inputs": inputs.to_dict()},
        "hit": {"rolls": rolls.to_dict(), "before": before.to_dict(), "after": after.to_dict()},
    }
    fields: dict[str, Any] = dict(
        guild_id=GUILD, channel_id=7, user_id=1, attacker_id=None, target_id=gob.id,
        intro={}, inputs=inputs, rolls=rolls, chosen_index=1, before=before, after=after,
        now=datetime.now(UTC),
    )  # fmt: skip
    columns = "inputs, rolls, before_state, after_state"
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        plain = await _new_choice(repo, **fields)
        shared = await _new_choice(repo, **fields, dicts=choice_dicts(record))
        texts = {
            choice_id: tuple(
                await (
                    await conn.execute(
                        f"SELECT {columns} FROM damage_choices WHERE id = ?", (choice_id,)
                    )
                ).fetchone()
            )
            for choice_id in (plain, shared)
        }
        assert texts[shared] == texts[plain]
        assert await repo.replace_choice_roll(
            shared, expected=inputs, inputs=inputs, rolls=PriorRolls(), chosen_index=0,
            after=None, intro={},
        )  # fmt: skip


async def _new_choice(repo: CombatRepository, **fields: Any) -> int:
    return (await repo.add_choice(**fields)).id


async def test_deleting_the_target_deletes_its_choices(db: Database) -> None:
    gob = await create(db)
    dice = ScriptedDice([3, 5])
    inputs = roll_inputs(raw_damage_pool((8, 6), types=PHYSICAL, lethal=True), PHYSICAL, dice)
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        choice_id = await _new_choice(repo,
            guild_id=GUILD, channel_id=7, user_id=1, attacker_id=None, target_id=gob.id,
            intro={}, inputs=inputs, rolls=PriorRolls(), chosen_index=0, before=Vitals(hp=10),
            after=Vitals(hp=5), now=datetime.now(UTC),
        )  # fmt: skip
        await CharacterRepository(conn).delete(gob.id)
        assert await repo.get_choice(choice_id) is None


async def test_damaged_wounds_json_is_a_readable_error(db: Database) -> None:
    gob = await create(db)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE characters SET wounds = ? WHERE id = ?", ('[{"kind": "NOPE"}]', gob.id)
        )
    async with db.read() as conn:
        with pytest.raises(ValueError, match=r"damaged|no wound"):
            await CombatRepository(conn).wounds(gob.id)
