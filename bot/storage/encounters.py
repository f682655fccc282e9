"""Encounter rows: one initiative tracker per channel, its participants and timed effects.

The whole ``Encounter`` value is saved at once under a version number: ``save`` is a
conditional ``UPDATE … WHERE version = ?`` and rewrites the participant and effect
rows in the same transaction, so two writers (two commands, two processes) can
never both advance from the same state — the second one gets ``EncounterChanged``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    Effect,
    Encounter,
    InitiativeRoll,
    InitiativeStats,
    Participant,
    Side,
    Spent,
)
from bot.rules.hocs.skills import normalise_name
from bot.storage.sql import fetch_one


class EncounterExists(UserError):
    def __init__(self) -> None:
        super().__init__(
            "An encounter is already running in this channel: use it, or /init end it first."
        )


class EncounterChanged(UserError):
    """The stored encounter moved on since it was loaded (another writer saved first)."""

    def __init__(self) -> None:
        super().__init__("The encounter changed at the same moment: look again and retry.")


@dataclass(frozen=True, kw_only=True)
class EncounterRecord:
    id: int
    guild_id: int
    channel_id: int
    gm_id: int
    tracker_message_id: int | None
    version: int
    state: Encounter


# A hero point's extra action lasts until the end of the turn: it rides in the
# participant's ``stats`` JSON (key ``extra_actions``) rather than a column of its
# own, so no schema change was needed for it.
_EXTRA_ACTIONS = "extra_actions"


def _stats_with_bonuses(p: Participant) -> dict[str, object]:
    stats: dict[str, object] = dict(p.stats.to_dict())
    if p.extra_actions:
        stats[_EXTRA_ACTIONS] = p.extra_actions
    return stats


def _participant_row(encounter_id: int, p: Participant, slot: int | None) -> tuple[object, ...]:
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


_INSERT_PARTICIPANT = (
    "INSERT INTO encounter_participants (encounter_id, participant_id, name, name_key, side,"
    " group_name, owner_id, character_id, slot, stats, hp, max_hp, temp_hp, threshold,"
    " conditions, roll, preset, actions_spent, quick_spent, reactions_spent)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_EFFECT = (
    "INSERT INTO encounter_effects (encounter_id, effect_id, participant_id, condition, value,"
    " added_round, expires_round) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _effect_from_row(row: aiosqlite.Row) -> Effect:
    return Effect(
        id=row["effect_id"],
        condition=Condition(row["condition"]),
        value=row["value"],
        added_round=row["added_round"],
        expires_round=row["expires_round"],
    )


def _participant_from_row(row: aiosqlite.Row, effects: tuple[Effect, ...]) -> Participant:
    stats = json.loads(row["stats"])
    extra_actions = int(stats.pop(_EXTRA_ACTIONS, 0))
    return Participant(
        id=row["participant_id"],
        name=row["name"],
        side=Side(row["side"]),
        stats=InitiativeStats.from_dict(stats),
        owner_id=row["owner_id"],
        character_id=row["character_id"],
        group=row["group_name"],
        hp=row["hp"],
        max_hp=row["max_hp"],
        temp_hp=row["temp_hp"],
        threshold=row["threshold"],
        conditions=Conditions.from_dict(json.loads(row["conditions"])),
        effects=effects,
        roll=InitiativeRoll.from_dict(json.loads(row["roll"])) if row["roll"] else None,
        preset=row["preset"],
        spent=Spent(
            actions=row["actions_spent"], quick=row["quick_spent"], reactions=row["reactions_spent"]
        ),
        extra_actions=extra_actions,
    )


class EncounterRepository:
    """All SQL about encounters. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def create(
        self, *, guild_id: int, channel_id: int, gm_id: int, state: Encounter
    ) -> EncounterRecord:
        """Start the channel's encounter. Raises EncounterExists if it has one."""
        try:
            row = await fetch_one(
                self._conn,
                "INSERT INTO encounters (guild_id, channel_id, gm_id) VALUES (?, ?, ?)"
                " RETURNING id, version",
                (guild_id, channel_id, gm_id),
            )
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise EncounterExists() from None
            raise
        record = EncounterRecord(
            id=row[0],
            guild_id=guild_id,
            channel_id=channel_id,
            gm_id=gm_id,
            tracker_message_id=None,
            version=row[1],
            state=Encounter(),
        )
        return await self.save(record, state)

    async def get_by_channel(self, channel_id: int) -> EncounterRecord | None:
        row = await fetch_one(
            self._conn, "SELECT * FROM encounters WHERE channel_id = ?", (channel_id,)
        )
        return await self._load(row) if row else None

    async def get(self, encounter_id: int) -> EncounterRecord | None:
        row = await fetch_one(self._conn, "SELECT * FROM encounters WHERE id = ?", (encounter_id,))
        return await self._load(row) if row else None

    async def _load(self, row: aiosqlite.Row) -> EncounterRecord:
        encounter_id = row["id"]
        effects: dict[int, list[Effect]] = {}
        async with self._conn.execute(
            "SELECT * FROM encounter_effects WHERE encounter_id = ? ORDER BY effect_id",
            (encounter_id,),
        ) as cursor:
            for effect_row in await cursor.fetchall():
                effects.setdefault(effect_row["participant_id"], []).append(
                    _effect_from_row(effect_row)
                )
        participants: list[Participant] = []
        slots: dict[int, list[int]] = {}
        async with self._conn.execute(
            "SELECT * FROM encounter_participants WHERE encounter_id = ? ORDER BY participant_id",
            (encounter_id,),
        ) as cursor:
            for p_row in await cursor.fetchall():
                pid = p_row["participant_id"]
                participants.append(_participant_from_row(p_row, tuple(effects.get(pid, ()))))
                if p_row["slot"] is not None:
                    slots.setdefault(p_row["slot"], []).append(pid)
        state = Encounter(
            social=bool(row["social"]),
            skip_down=bool(row["skip_down"]),
            show_npc_hp=bool(row["show_npc_hp"]),
            round=row["round"],
            order=tuple(tuple(slots[index]) for index in sorted(slots)),
            current=row["current_slot"],
            turn=row["turn"],
            participants=tuple(participants),
            next_id=row["next_participant_id"],
            next_effect_id=row["next_effect_id"],
        )
        return EncounterRecord(
            id=encounter_id,
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            gm_id=row["gm_id"],
            tracker_message_id=row["tracker_message_id"],
            version=row["version"],
            state=state,
        )

    async def save(self, record: EncounterRecord, state: Encounter) -> EncounterRecord:
        """Store ``state`` if the row is still at ``record.version``; the new record.

        Raises EncounterChanged when another writer saved first (nothing is written).
        """
        cursor = await self._conn.execute(
            "UPDATE encounters SET social = ?, skip_down = ?, show_npc_hp = ?, round = ?,"
            " current_slot = ?, turn = ?, next_participant_id = ?, next_effect_id = ?,"
            " version = version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND version = ?",
            (
                int(state.social),
                int(state.skip_down),
                int(state.show_npc_hp),
                state.round,
                state.current,
                state.turn,
                state.next_id,
                state.next_effect_id,
                record.id,
                record.version,
            ),
        )
        if cursor.rowcount != 1:
            raise EncounterChanged()
        await self._conn.execute(
            "DELETE FROM encounter_participants WHERE encounter_id = ?", (record.id,)
        )
        slot_of = {pid: index for index, slot in enumerate(state.order) for pid in slot}
        await self._conn.executemany(
            _INSERT_PARTICIPANT,
            [_participant_row(record.id, p, slot_of.get(p.id)) for p in state.participants],
        )
        await self._conn.executemany(
            _INSERT_EFFECT,
            [
                (
                    record.id,
                    e.id,
                    p.id,
                    e.condition.value,
                    e.value,
                    e.added_round,
                    e.expires_round,
                )
                for p in state.participants
                for e in p.effects
            ],
        )
        return EncounterRecord(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            gm_id=record.gm_id,
            tracker_message_id=record.tracker_message_id,
            version=record.version + 1,
            state=state,
        )

    async def set_tracker_message(self, encounter_id: int, message_id: int | None) -> None:
        """Remember where the tracker is shown (not game state: the version stays)."""
        await self._conn.execute(
            "UPDATE encounters SET tracker_message_id = ? WHERE id = ?",
            (message_id, encounter_id),
        )

    async def delete(self, record: EncounterRecord) -> None:
        """End the encounter. Raises EncounterChanged if it moved on since ``record``."""
        cursor = await self._conn.execute(
            "DELETE FROM encounters WHERE id = ? AND version = ?", (record.id, record.version)
        )
        if cursor.rowcount != 1:
            raise EncounterChanged()

    async def channels_with_characters(
        self, guild_id: int, character_ids: Iterable[int]
    ) -> list[int]:
        """Channels of the guild's running encounters with any of these characters in them."""
        ids = list(dict.fromkeys(character_ids))
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        async with self._conn.execute(
            "SELECT DISTINCT e.channel_id FROM encounters e"
            " JOIN encounter_participants p ON p.encounter_id = e.id"
            f" WHERE e.guild_id = ? AND p.character_id IN ({marks})"
            " ORDER BY e.channel_id",
            (guild_id, *ids),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def participant_names(self, channel_id: int, query: str, limit: int = 25) -> list[str]:
        """Participant and group names of the channel's encounter containing ``query``."""
        pattern = "%" + normalise_name(query).replace("%", "").replace("_", "") + "%"
        async with self._conn.execute(
            "SELECT name FROM ("
            " SELECT p.name AS name, p.participant_id AS n FROM encounter_participants p"
            " JOIN encounters e ON e.id = p.encounter_id"
            " WHERE e.channel_id = ? AND p.name_key LIKE ?"
            " UNION"
            " SELECT p.group_name, MIN(p.participant_id) FROM encounter_participants p"
            " JOIN encounters e ON e.id = p.encounter_id"
            " WHERE e.channel_id = ? AND p.group_name IS NOT NULL"
            " AND lower(p.group_name) LIKE ? GROUP BY lower(p.group_name)"
            ") GROUP BY name ORDER BY MIN(n), name LIMIT ?",
            (channel_id, pattern, channel_id, pattern, limit),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]
