"""A save's participant UPDATEs batched (issue 11): as few statements as the JSON and
indexed columns allow, each row with its own values, and rows the rules handed back
unchanged not looked at.

Counts and exact parameters are asserted, never timings.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import (
    ActionKind,
    Encounter,
    InitiativeRoll,
    Participant,
    Side,
    Spent,
    next_turn,
    spend,
)
from bot.rules.hocs.initiative.values import InitiativeStats
from bot.storage.database import Database
from bot.storage.hocs.encounter_rows import changed_columns, update_batches
from tests.storage.test_encounters import busy_state
from tests.storage.test_fastpath import mira
from tests.storage.test_fastpath_writes import load, save, save_new_round, start

ROLL = InitiativeRoll(successes=1, faces=(5, 2))
GOBLIN = Participant(
    id=3,
    name="Goblin",
    side=Side.ANTAGONIST,
    stats=InitiativeStats(agility=2, presence=1, training=1),
    hp=7,
    max_hp=7,
    spent=Spent(actions=1),
    roll=ROLL,
)


def change(before: Participant, after: Participant, old: int | None, new: int | None) -> tuple:
    return after, new, changed_columns(before, after, old, new)


def test_rows_changing_different_plain_columns_share_one_statement() -> None:
    rolled = InitiativeRoll(successes=3, faces=(6, 5, 4))
    moved = change(GOBLIN, replace(GOBLIN, id=4, roll=rolled), 1, 0)  # roll and slot
    rolled_only = change(GOBLIN, replace(GOBLIN, id=5, roll=rolled), 2, 2)  # roll
    rested = change(GOBLIN, replace(GOBLIN, id=6, roll=rolled, spent=Spent()), 3, 3)
    batches = update_batches(9, [moved, rolled_only, rested])
    assert list(batches) == [("slot", "roll", "actions_spent")]
    text = '{"successes": 3, "faces": [6, 5, 4], "banes": 0, "manual": false}'
    assert batches[("slot", "roll", "actions_spent")] == [
        (0, text, 1, 9, 4),  # its unchanged spent action written as it is
        (2, text, 1, 9, 5),  # its unchanged slot and spent action as they are
        (3, text, 0, 9, 6),
    ]


def test_json_and_indexed_columns_are_written_only_by_rows_that_changed_them() -> None:
    rolled = change(GOBLIN, replace(GOBLIN, roll=InitiativeRoll(successes=0)), 0, 0)
    hurt = change(GOBLIN, replace(GOBLIN, id=4, hp=2, conditions=Conditions.of(fatigued=1)), 1, 1)
    linked = change(GOBLIN, replace(GOBLIN, id=5, character_id=8), 2, 2)
    batches = update_batches(9, [rolled, hurt, linked])
    assert batches == {
        ("roll",): [('{"successes": 0, "faces": [], "banes": 0, "manual": false}', 9, 3)],
        ("hp", "conditions"): [(2, '{"fatigued": 1}', 9, 4)],
        ("character_id",): [(8, 9, 5)],
    }


def test_no_changes_no_statements() -> None:
    assert update_batches(9, []) == {}


@pytest.mark.both_backends
async def test_a_new_round_after_spent_actions_is_one_update(db: Database) -> None:
    character_id = await mira(db)
    state = busy_state(character_id)
    acting = state.current_participants[0]
    state, _ = spend(state, acting.id, ActionKind.ACTION)
    record = await start(db, state)
    state = replace(record.state, current=len(record.state.order) - 1)
    state, _ = next_turn(state, RandomDice(random.Random(5)))
    assert state.round == record.state.round + 1
    assert state.participant(acting.id).spent == Spent()  # reset: a third mix of columns
    _, updates = await save_new_round(db, record, state)
    if db.backend == "sqlite":
        assert len(updates) == 1


async def test_equal_but_rebuilt_participants_write_nothing(db: Database) -> None:
    character_id = await mira(db)
    record = await start(db, busy_state(character_id))
    rebuilt: Encounter = replace(
        record.state, participants=tuple(replace(p) for p in record.state.participants)
    )
    assert all(
        a is not b for a, b in zip(rebuilt.participants, record.state.participants, strict=True)
    )
    saved, sql = await save(db, record, rebuilt)
    assert len(sql) == 1 and sql[0].startswith("UPDATE encounters")
    assert (await load(db)).state == saved.state == record.state
