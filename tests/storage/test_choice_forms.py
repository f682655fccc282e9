"""A hero reroll's compare-and-set on a damage choice's faces, whatever form its inputs
were stored in: the text read (``stored_inputs``), or the inputs themselves, which match
both the current form and the sorted one stored before migration 0016's release."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.attack import PriorRolls, Vitals, raw_damage_pool, roll_inputs
from bot.storage.database import Database
from bot.storage.hocs.combat import CombatRepository
from tests.storage.test_combat import GUILD, PHYSICAL, create

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def _choice_stored_sorted(db: Database) -> tuple[int, str]:
    gob = await create(db)
    inputs = roll_inputs(
        raw_damage_pool((8, 6), types=PHYSICAL, lethal=True), PHYSICAL, ScriptedDice([3, 5])
    )
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        added = await repo.add_choice(
            guild_id=GUILD, channel_id=7, user_id=1, attacker_id=None, target_id=gob.id,
            intro={}, inputs=inputs, rolls=PriorRolls(), chosen_index=1, before=Vitals(hp=10),
            after=Vitals(hp=5), now=datetime.now(UTC),
        )  # fmt: skip
        old = json.dumps(inputs.to_dict(), separators=(",", ":"), sort_keys=True)
        assert added.stored_inputs != old  # (the forms differ: these tests can fail)
        await conn.execute("UPDATE damage_choices SET inputs = ? WHERE id = ?", (old, added.id))
    return added.id, old


async def test_the_text_read_is_what_is_compared(db: Database) -> None:
    choice_id, old = await _choice_stored_sorted(db)
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        choice = await repo.get_choice(choice_id)
        assert choice is not None and choice.stored_inputs == old
        fields = dict(
            inputs=choice.inputs, rolls=PriorRolls(), chosen_index=0, after=None, intro={}
        )
        assert not await repo.replace_choice_roll(choice_id, expected="{}", **fields)
        assert await repo.replace_choice_roll(choice_id, expected=old, **fields)
        # Done once: the text it had is gone, so a second (a double click) is refused.
        assert not await repo.replace_choice_roll(choice_id, expected=old, **fields)
        again = await repo.get_choice(choice_id)
    assert again is not None and again.chosen_index == 0
    assert again.stored_inputs == json.dumps(choice.inputs.to_dict(), separators=(",", ":"))


async def test_the_inputs_match_a_choice_stored_sorted(db: Database) -> None:
    choice_id, _ = await _choice_stored_sorted(db)
    async with db.transaction() as conn:
        repo = CombatRepository(conn)
        choice = await repo.get_choice(choice_id)
        assert choice is not None
        assert await repo.replace_choice_roll(
            choice_id, expected=choice.inputs, inputs=choice.inputs, rolls=PriorRolls(),
            chosen_index=0, after=None, intro={},
        )  # fmt: skip


async def test_the_sweep_deletes_the_choices_expired_before_the_oldest_open_one(
    db: Database,
) -> None:
    gob = await create(db)
    inputs = roll_inputs(
        raw_damage_pool((8, 6), types=PHYSICAL, lethal=True), PHYSICAL, ScriptedDice([3, 5])
    )
    start = datetime(2030, 1, 1, tzinfo=UTC)

    async def add(minutes: int) -> int:
        async with db.transaction() as conn:
            added = await CombatRepository(conn).add_choice(
                guild_id=GUILD, channel_id=7, user_id=1, attacker_id=None, target_id=gob.id,
                intro={}, inputs=inputs, rolls=PriorRolls(), chosen_index=0, before=None,
                after=None, now=start + timedelta(minutes=minutes),
            )  # fmt: skip
        return added.id

    async def kept() -> set[int]:
        async with db.read() as conn:
            return {row[0] for row in await conn.execute_fetchall("SELECT id FROM damage_choices")}

    first, second, third = await add(0), await add(5), await add(10)  # open for 15 minutes
    assert await kept() == {first, second, third}
    fourth = await add(21)  # the first two have expired (at 15 and 20), the third not
    assert await kept() == {third, fourth}
    later = await add(120)  # every one has expired: all go
    assert await kept() == {later}
