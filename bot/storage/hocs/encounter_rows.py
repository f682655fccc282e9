"""Encounter rows as values and back: participants and timed effects.

Parsing a stored JSON column is a pure function of its text, so the parsed values
(all immutable) are reused for identical text: never stale, whoever wrote the row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import aiosqlite

from bot.rules.generic.names import normalise_name
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


# Participants built from rows, by the row's values and effects (both immutable, as is
# the Participant): a load of an encounter finds most of its rows unchanged since the
# last, and building one costs more than reading it. Never stale: the key is the row.
_BUILT: dict[tuple[tuple[Any, ...], tuple[Effect, ...]], Participant] = {}
PARTICIPANT_CACHE_SIZE = 4096


def participant_from_row(row: aiosqlite.Row, effects: tuple[Effect, ...]) -> Participant:
    key = (tuple(row), effects)
    built = _BUILT.get(key)
    if built is None:
        built = _build(row, effects)
        if len(_BUILT) >= PARTICIPANT_CACHE_SIZE:
            _BUILT.pop(next(iter(_BUILT)))  # the oldest entry: a bound, not an LRU
        _BUILT[key] = built
    return built


def _build(row: aiosqlite.Row, effects: tuple[Effect, ...]) -> Participant:
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


def changed_columns(
    before: Participant, after: Participant, old_slot: int | None, new_slot: int | None
) -> dict[str, object]:
    """The columns of ``after``'s row (``participant_row``) whose values differ from
    ``before``'s, with the new values; empty when the row would not change.

    A save writes only these: a new round changes each row's roll and slot, a turn
    one row's spent actions, and a narrow UPDATE neither re-encodes the unchanged
    JSON columns nor touches the indexes of columns it leaves alone.
    """
    # A field the rules handed on is the very same object: only the others can differ
    # (a new round renews every participant and changes two or three fields of each).
    old = before.__dict__
    differ = {name for name, value in after.__dict__.items() if old[name] is not value}
    if not differ:
        return {} if old_slot == new_slot else {"slot": new_slot}
    columns: dict[str, object] = {}
    if "name" in differ and before.name != after.name:  # spelt anew: the same key
        columns["name"] = after.name
    if "side" in differ and before.side is not after.side:
        columns["side"] = after.side.value
    if "group" in differ and before.group != after.group:
        columns["group_name"] = after.group
    if "owner_id" in differ and before.owner_id != after.owner_id:
        columns["owner_id"] = after.owner_id
    if "character_id" in differ and before.character_id != after.character_id:
        columns["character_id"] = after.character_id
    if old_slot != new_slot:
        columns["slot"] = new_slot
    if not differ.isdisjoint(_IN_STATS) and (
        before.stats, before.extra_actions, before.clock, before.group_roll
    ) != (after.stats, after.extra_actions, after.clock, after.group_roll):  # fmt: skip
        columns["stats"] = json.dumps(_stats_with_bonuses(after))
    if "hp" in differ and before.hp != after.hp:
        columns["hp"] = after.hp
    if "max_hp" in differ and before.max_hp != after.max_hp:
        columns["max_hp"] = after.max_hp
    if "temp_hp" in differ and before.temp_hp != after.temp_hp:
        columns["temp_hp"] = after.temp_hp
    if "threshold" in differ and before.threshold != after.threshold:
        columns["threshold"] = after.threshold
    if "conditions" in differ and before.conditions != after.conditions:
        columns["conditions"] = json.dumps(after.conditions.to_dict())
    if "roll" in differ and before.roll != after.roll:
        columns["roll"] = json.dumps(after.roll.to_dict()) if after.roll else None
    if "preset" in differ and before.preset != after.preset:
        columns["preset"] = after.preset
    old_spent, new_spent = before.spent, after.spent
    if "spent" in differ and old_spent != new_spent:
        if old_spent.actions != new_spent.actions:
            columns["actions_spent"] = new_spent.actions
        if old_spent.quick != new_spent.quick:
            columns["quick_spent"] = new_spent.quick
        if old_spent.reactions != new_spent.reactions:
            columns["reactions_spent"] = new_spent.reactions
    return columns


# The fields the ``stats`` column holds.
_IN_STATS = frozenset({"stats", "extra_actions", "clock", "group_roll"})

# The columns ``changed_columns`` may name, in its order (an UPDATE's text follows it).
COLUMNS = (
    "name", "side", "group_name", "owner_id", "character_id", "slot", "stats", "hp", "max_hp",
    "temp_hp", "threshold", "conditions", "roll", "preset", "actions_spent", "quick_spent",
    "reactions_spent",
)  # fmt: skip

# Columns a row may also write unchanged, to share another row's UPDATE: plain values,
# read straight off the participant, in no index (so rewriting one with the value it
# already has changes nothing and costs nothing). The JSON columns would be encoded
# again, and ``character_id`` is indexed: those only when they really changed.
_PLAIN: dict[str, Callable[[Participant, int | None], object]] = {
    "name": lambda p, slot: p.name,
    "side": lambda p, slot: p.side.value,
    "group_name": lambda p, slot: p.group,
    "owner_id": lambda p, slot: p.owner_id,
    "slot": lambda p, slot: slot,
    "hp": lambda p, slot: p.hp,
    "max_hp": lambda p, slot: p.max_hp,
    "temp_hp": lambda p, slot: p.temp_hp,
    "threshold": lambda p, slot: p.threshold,
    "preset": lambda p, slot: p.preset,
    "actions_spent": lambda p, slot: p.spent.actions,
    "quick_spent": lambda p, slot: p.spent.quick,
    "reactions_spent": lambda p, slot: p.spent.reactions,
}


def update_batches(
    encounter_id: int, changes: Iterable[tuple[Participant, int | None, dict[str, object]]]
) -> dict[tuple[str, ...], list[tuple[object, ...]]]:
    """The UPDATE parameters of changed rows (participant, its slot, ``changed_columns``),
    by the columns each statement assigns: as few statements as the JSON and indexed
    columns allow. A new round changes every row's roll, and some rows' slots or spent
    actions too; rather than one statement per mix, all of them go in one that assigns
    the plain columns any of them changed (each row's own values, mostly unchanged)."""
    groups: dict[frozenset[str], list[tuple[Participant, int | None, dict[str, object]]]] = {}
    for change in changes:
        costly = frozenset(column for column in change[2] if column not in _PLAIN)
        groups.setdefault(costly, []).append(change)
    batches: dict[tuple[str, ...], list[tuple[object, ...]]] = {}
    for rows in groups.values():
        wanted = set().union(*(columns for _, _, columns in rows))
        assigned = tuple(column for column in COLUMNS if column in wanted)
        batch = batches.setdefault(assigned, [])
        for p, slot, columns in rows:
            values = [
                columns[column] if column in columns else _PLAIN[column](p, slot)
                for column in assigned
            ]
            batch.append((*values, encounter_id, p.id))
    return batches


@lru_cache(maxsize=256)
def update_participant(columns: tuple[str, ...]) -> str:
    """The UPDATE of these columns of one participant (its key the last two parameters)."""
    assignments = ", ".join(f"{column} = ?" for column in columns)
    return (
        f"UPDATE encounter_participants SET {assignments}"
        " WHERE encounter_id = ? AND participant_id = ?"
    )


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
