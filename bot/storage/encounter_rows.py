"""Encounter rows as values and back: participants and timed effects.

Parsing a stored JSON column is a pure function of its text, so the parsed values
(all immutable) are reused for identical text: never stale, whoever wrote the row.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import aiosqlite

from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    Effect,
    InitiativeRoll,
    InitiativeStats,
    Participant,
    RecoveryClock,
    Side,
    Spent,
)
from bot.rules.hocs.skills import normalise_name

# A hero point's extra action lasts until the end of the turn: it rides in the
# participant's ``stats`` JSON (key ``extra_actions``) rather than a column of its
# own, so no schema change was needed for it. The dying/unconscious test clock rides
# there too (key ``clock``), and so does the group initiative flag (``group_roll``).
_EXTRA_ACTIONS = "extra_actions"
_CLOCK = "clock"
_GROUP_ROLL = "group_roll"


def _stats_with_bonuses(p: Participant) -> dict[str, object]:
    stats: dict[str, object] = dict(p.stats.to_dict())
    if p.extra_actions:
        stats[_EXTRA_ACTIONS] = p.extra_actions
    if p.clock is not None:
        stats[_CLOCK] = p.clock.to_dict()
    if p.group_roll:
        stats[_GROUP_ROLL] = True
    return stats


def participant_row(encounter_id: int, p: Participant, slot: int | None) -> tuple[object, ...]:
    return (
        encounter_id,
        p.id,
        p.name,
        normalise_name(p.name),
        p.side.value,
        p.group,
        p.owner_id,
        p.character_id,
        slot,
        json.dumps(_stats_with_bonuses(p)),
        p.hp,
        p.max_hp,
        p.temp_hp,
        p.threshold,
        json.dumps(p.conditions.to_dict()),
        json.dumps(p.roll.to_dict()) if p.roll else None,
        p.preset,
        p.spent.actions,
        p.spent.quick,
        p.spent.reactions,
    )


INSERT_PARTICIPANT = (
    "INSERT INTO encounter_participants (encounter_id, participant_id, name, name_key, side,"
    " group_name, owner_id, character_id, slot, stats, hp, max_hp, temp_hp, threshold,"
    " conditions, roll, preset, actions_spent, quick_spent, reactions_spent)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_EFFECT = (
    "INSERT INTO encounter_effects (encounter_id, effect_id, participant_id, condition, value,"
    " added_round, expires_round) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def effect_from_row(row: aiosqlite.Row) -> Effect:
    return Effect(
        id=row["effect_id"],
        condition=Condition(row["condition"]),
        value=row["value"],
        added_round=row["added_round"],
        expires_round=row["expires_round"],
    )


@lru_cache(maxsize=4096)
def _stats_from_text(
    text: str,
) -> tuple[InitiativeStats, int, RecoveryClock | None, bool]:
    stats = json.loads(text)
    extra_actions = int(stats.pop(_EXTRA_ACTIONS, 0))
    clock = stats.pop(_CLOCK, None)
    group_roll = bool(stats.pop(_GROUP_ROLL, False))
    return (
        InitiativeStats.from_dict(stats),
        extra_actions,
        RecoveryClock.from_dict(clock) if clock else None,
        group_roll,
    )


@lru_cache(maxsize=1024)
def _conditions_from_text(text: str) -> Conditions:
    return Conditions.from_dict(json.loads(text))


@lru_cache(maxsize=4096)
def _roll_from_text(text: str) -> InitiativeRoll:
    return InitiativeRoll.from_dict(json.loads(text))


def participant_from_row(row: aiosqlite.Row, effects: tuple[Effect, ...]) -> Participant:
    stats, extra_actions, clock, group_roll = _stats_from_text(row["stats"])
    return Participant(
        id=row["participant_id"],
        name=row["name"],
        side=Side(row["side"]),
        stats=stats,
        owner_id=row["owner_id"],
        character_id=row["character_id"],
        group=row["group_name"],
        group_roll=group_roll,
        hp=row["hp"],
        max_hp=row["max_hp"],
        temp_hp=row["temp_hp"],
        threshold=row["threshold"],
        conditions=_conditions_from_text(row["conditions"]),
        effects=effects,
        roll=_roll_from_text(row["roll"]) if row["roll"] else None,
        preset=row["preset"],
        spent=Spent(
            actions=row["actions_spent"], quick=row["quick_spent"], reactions=row["reactions_spent"]
        ),
        extra_actions=extra_actions,
        clock=clock,
    )


UPDATE_PARTICIPANT = (
    "UPDATE encounter_participants SET name = ?, name_key = ?, side = ?, group_name = ?,"
    " owner_id = ?, character_id = ?, slot = ?, stats = ?, hp = ?, max_hp = ?, temp_hp = ?,"
    " threshold = ?, conditions = ?, roll = ?, preset = ?, actions_spent = ?, quick_spent = ?,"
    " reactions_spent = ? WHERE encounter_id = ? AND participant_id = ?"
)


def as_update(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A ``participant_row`` (key first) as UPDATE_PARTICIPANT's parameters (key last)."""
    return (*row[2:], row[0], row[1])


def effect_row(encounter_id: int, participant_id: int, e: Effect) -> tuple[Any, ...]:
    return (
        encounter_id,
        e.id,
        participant_id,
        e.condition.value,
        e.value,
        e.added_round,
        e.expires_round,
    )
