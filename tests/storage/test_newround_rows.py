"""A new round's rows written cheaply (the roll's JSON written out, only the fields that
are new objects compared) but exactly as before."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import InitiativeRoll, Spent
from bot.rules.hocs.initiative.values import InitiativeStats
from bot.storage.encounter_rows import changed_columns, roll_text
from tests.storage.test_encounter_columns import BASE, CHANGES, written


@pytest.mark.parametrize(
    "roll",
    [
        InitiativeRoll(successes=0),
        InitiativeRoll(successes=3, faces=(6, 5, 4), banes=2),
        InitiativeRoll(successes=4, manual=True),
        InitiativeRoll(successes=12, faces=(1, 2, 3, 4, 5, 6) * 5, banes=30),
        InitiativeRoll(successes=True, faces=(True, 2)),  # not plain ints: the encoder's text
    ],
)
def test_a_rolls_text_is_json_dumps_text(roll: InitiativeRoll) -> None:
    assert roll_text(roll) == json.dumps(roll.to_dict())


def test_equal_values_rebuilt_as_new_objects_write_nothing() -> None:
    """A field that is a new object but an equal value is compared, and not written."""
    before = replace(BASE, roll=InitiativeRoll(successes=1, faces=(4, 2)), spent=Spent(quick=1))
    rebuilt = replace(
        before,
        name="".join(["Goblin", " 1"]),
        stats=InitiativeStats(agility=2, presence=1, training=1),
        conditions=Conditions.of(),
        roll=InitiativeRoll(successes=1, faces=(4, 2)),
        spent=Spent(quick=1),
    )
    assert rebuilt.name is not before.name and rebuilt.roll is not before.roll
    assert changed_columns(before, rebuilt, 1, 1) == {}
    assert changed_columns(before, rebuilt, 1, 2) == {"slot": 2}


def test_a_renewed_participant_writes_what_its_whole_row_changes() -> None:
    """As a new round renews one: a new roll, nothing spent, no preset, a new slot."""
    before = replace(BASE, spent=Spent(actions=1, reactions=1), preset=3, roll=CHANGES["roll"])
    after = replace(before, spent=Spent(), preset=None, roll=InitiativeRoll(successes=0))
    columns = changed_columns(before, after, 4, 0)
    assert columns == written(before, after, 4, 0)
    assert list(columns) == ["slot", "roll", "preset", "actions_spent", "reactions_spent"]
