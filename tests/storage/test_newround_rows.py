"""A new round's rows written cheaply (only the fields that are new objects compared)
but exactly as before."""

from __future__ import annotations

from dataclasses import replace

from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import InitiativeRoll, Spent
from bot.rules.hocs.initiative.values import InitiativeStats
from bot.storage.hocs.encounter_rows import changed_columns
from tests.storage.test_encounter_columns import BASE, CHANGES, written


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
