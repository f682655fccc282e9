"""Participant rows on the fast path (issue 11): a save writes only the columns that
changed, and a load builds only the rows it has not seen.

``changed_columns`` must name exactly the columns where ``participant_row`` differs:
one it missed would be a change never stored, so the pure test below compares it with
the whole rows for a change to every field; the storage tests check the statements a
save sends and that the loaded state is the one saved, on both backends.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import fields, replace

import aiosqlite
import pytest

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeRoll,
    Participant,
    RecoveryClock,
    Side,
    Spent,
    next_turn,
)
from bot.rules.hocs.initiative.values import InitiativeStats, RecoveryKind
from bot.storage.database import Database
from bot.storage.hocs.encounter_rows import INSERT_PARTICIPANT, changed_columns, participant_row
from tests.storage.test_encounters import busy_state
from tests.storage.test_fastpath import mira
from tests.storage.test_fastpath_writes import load, save, save_new_round, start
from tests.support.pg_fixtures import open_raw

COLUMNS = re.search(r"\(([^)]*)\)", INSERT_PARTICIPANT)[1].replace(" ", "").split(",")  # type: ignore[index]

BASE = Participant(
    id=3,
    name="Goblin 1",
    side=Side.ANTAGONIST,
    stats=InitiativeStats(agility=2, presence=1, training=1),
    group="Goblins",
    hp=7,
    max_hp=7,
)
# One new value for every field a row holds (effects live in their own table).
CHANGES: dict[str, object] = {
    "name": "goblin 1",  # the same name_key: an update, not a delete and insert
    "side": Side.ALLY,
    "stats": InitiativeStats(agility=3, presence=1, training=1),
    "owner_id": 42,
    "character_id": 9,
    "group": None,
    "group_roll": True,
    "hp": 2,
    "max_hp": 9,
    "temp_hp": 3,
    "threshold": -6,
    "conditions": Conditions.of(fatigued=2),
    "roll": InitiativeRoll(successes=2, faces=(4, 5, 1)),
    "preset": 4,
    "spent": Spent(actions=1),
    "extra_actions": 1,
    "clock": RecoveryClock(id=1, kind=RecoveryKind.DYING, due_round=5),
}


def written(before: Participant, after: Participant, old: int | None, new: int | None) -> dict:
    """The columns whose values differ between the two whole rows."""
    rows = participant_row(1, before, old), participant_row(1, after, new)
    return {c: b for c, a, b in zip(COLUMNS, *rows, strict=True) if a != b}


def test_every_field_a_row_holds_has_a_change_here() -> None:
    assert set(CHANGES) == {f.name for f in fields(Participant)} - {"id", "effects"}


@pytest.mark.parametrize("field", sorted(CHANGES))
def test_a_changed_field_writes_exactly_the_columns_that_differ(field: str) -> None:
    after = replace(BASE, **{field: CHANGES[field]})
    expected = written(BASE, after, 0, 0)
    assert expected  # the change shows in the row
    assert changed_columns(BASE, after, 0, 0) == expected


def test_many_changes_and_a_new_slot_at_once() -> None:
    after = replace(BASE, hp=1, roll=CHANGES["roll"], spent=Spent(quick=1), preset=2)
    columns = changed_columns(BASE, after, 0, 3)
    assert columns == written(BASE, after, 0, 3)
    assert list(columns) == ["slot", "hp", "roll", "preset", "quick_spent"]
    assert columns["slot"] == 3 and columns["quick_spent"] == 1


def test_an_unchanged_participant_writes_nothing() -> None:
    assert changed_columns(BASE, replace(BASE), 2, 2) == {}
    assert changed_columns(BASE, BASE, None, None) == {}


@pytest.mark.both_backends
async def test_a_new_round_writes_only_the_rolls_and_slots(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    state: Encounter = replace(record.state, current=len(record.state.order) - 1)
    state, _ = next_turn(state, RandomDice(random.Random(3)))
    assert state.round == record.state.round + 1
    if db.backend != "sqlite":  # (the statements are the same; only SQLite's are counted)
        await save_new_round(db, record, state)
        return
    saved, sql = await save(db, record, state)
    updates = [s for s in sql if s.startswith("UPDATE encounter_participants")]
    assert updates  # one statement per set of changed columns, all rows in it
    for statement in updates:
        assigned = re.findall(r"(\w+) = \?", statement.split(" WHERE ")[0])
        assert set(assigned) <= {
            "slot", "roll", "preset", "actions_spent", "quick_spent", "reactions_spent", "stats",
        }  # fmt: skip
    assert not any(s.startswith(("DELETE", "INSERT")) for s in sql)
    assert (await load(db)).state == saved.state == state


@pytest.fixture
async def other(db: Database) -> AsyncIterator[aiosqlite.Connection]:
    """A second connection on the same database (as another bot process would have)."""
    conn = await open_raw(db)
    yield conn
    await conn.close()


@pytest.mark.both_backends
async def test_a_built_participant_is_reused_only_for_the_very_same_row(
    db: Database, other: aiosqlite.Connection
) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    first = await load(db)
    again = await load(db)
    assert again.state == first.state == record.state
    # Unchanged rows: the very same values (participant 2 has an effect: part of the key).
    pairs = zip(again.state.participants, first.state.participants, strict=True)
    assert all(a is b for a, b in pairs)
    await other.execute(  # another process writes one column of one row
        "UPDATE encounter_participants SET hp = ? WHERE participant_id = ?", (1, 3)
    )
    changed = await load(db)
    assert changed.state.participant(3).hp == 1
    assert changed.state.participant(3).max_hp == 7
    assert changed.state.participant(2) is first.state.participant(2)
    await other.execute("DELETE FROM encounter_effects")  # the effect ends elsewhere
    assert (await load(db)).state.participant(2).effects == ()
