"""Encounter rows: one initiative tracker per channel, its participants and timed effects.

The whole ``Encounter`` value is saved at once under a version number: ``save`` is a
conditional ``UPDATE … WHERE version = ?`` and rewrites the participant and effect
rows in the same transaction, so two writers (two commands, two processes) can
never both advance from the same state — the second one gets ``EncounterChanged``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from bot.rules.generic.names import normalise_name
from bot.rules.hocs.initiative import (
    Effect,
    Encounter,
    Participant,
)
from bot.storage.dialect import ROW_LOCK
from bot.storage.hocs.encounter_rows import (
    INSERT_EFFECT,
    INSERT_PARTICIPANT,
    changed_columns,
    effect_from_row,
    effect_row,
    participant_from_row,
    participant_row,
    update_batches,
    update_participant,
)
from bot.storage.sql import fetch_all, fetch_one, refusable, run, run_many
from bot.tracker.errors import EncounterChanged, EncounterExists


@dataclass(frozen=True, kw_only=True)
class EncounterRecord:
    id: int
    guild_id: int
    channel_id: int
    gm_id: int
    tracker_message_id: int | None
    version: int
    state: Encounter


def _slots(state: Encounter) -> dict[int, int]:
    """Participant id → its place in the round's order."""
    return {pid: index for index, slot in enumerate(state.order) for pid in slot}


@dataclass(frozen=True)
class EncounterStamp:
    encounter_id: int
    version: int
    tracker_message_id: int | None
    linked: int  # participants whose character exists
    linked_revisions: int  # the sum of those characters' revisions

    def same_rows(self, other: EncounterStamp | None) -> bool:
        """Whether the encounter's own rows are as they were at ``other``: the same
        encounter at the same version and tracker message, none of its linked
        characters deleted (their participants' ``character_id`` would be nulled).
        Only linked characters' rows may have been written since."""
        return other is not None and (
            self.encounter_id,
            self.version,
            self.tracker_message_id,
            self.linked,
        ) == (other.encounter_id, other.version, other.tracker_message_id, other.linked)

    @staticmethod
    def of(record: EncounterRecord, revisions: dict[int, int]) -> EncounterStamp | None:
        """The stamp ``record`` will have if the linked characters are still at
        ``revisions`` (character id → revision); None if one of them is not in it."""
        linked = [p.character_id for p in record.state.participants if p.character_id]
        if any(cid not in revisions for cid in linked):
            return None
        return EncounterStamp(
            encounter_id=record.id,
            version=record.version,
            tracker_message_id=record.tracker_message_id,
            linked=len(linked),
            linked_revisions=sum(revisions[cid] for cid in linked),
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
            pending = fetch_one(
                self._conn,
                "INSERT INTO encounters (guild_id, channel_id, gm_id) VALUES (?, ?, ?)"
                " RETURNING id, version",
                (guild_id, channel_id, gm_id),
            )
            row = await refusable(self._conn, pending)
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
            self._conn, f"SELECT * FROM encounters WHERE channel_id = ?{ROW_LOCK}", (channel_id,)
        )
        return await self._load(row) if row else None

    async def get(self, encounter_id: int) -> EncounterRecord | None:
        row = await fetch_one(
            self._conn, f"SELECT * FROM encounters WHERE id = ?{ROW_LOCK}", (encounter_id,)
        )
        return await self._load(row) if row else None

    async def _load(self, row: aiosqlite.Row) -> EncounterRecord:
        encounter_id = row["id"]
        effects: dict[int, list[Effect]] = {}
        # Effect ids come from next_effect_id: while it is still 1 the encounter has
        # never had one, so the query can be skipped (most fights have none).
        if row["next_effect_id"] > 1:
            for effect_row in await fetch_all(
                self._conn,
                "SELECT * FROM encounter_effects WHERE encounter_id = ? ORDER BY effect_id",
                (encounter_id,),
            ):
                effects.setdefault(effect_row["participant_id"], []).append(
                    effect_from_row(effect_row)
                )
        participants: list[Participant] = []
        slots: dict[int, list[int]] = {}
        for p_row in await fetch_all(
            self._conn,
            "SELECT * FROM encounter_participants WHERE encounter_id = ? ORDER BY participant_id",
            (encounter_id,),
        ):
            pid = p_row["participant_id"]
            participants.append(participant_from_row(p_row, tuple(effects.get(pid, ()))))
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
        await self._save_rows(record, state)
        return EncounterRecord(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            gm_id=record.gm_id,
            tracker_message_id=record.tracker_message_id,
            version=record.version + 1,
            state=state,
        )

    async def _save_rows(self, record: EncounterRecord, state: Encounter) -> None:
        """Write only the participant and effect rows that differ from ``record.state``.

        ``record.state`` is what the rows hold at ``record.version`` (the conditional
        UPDATE just proved nobody saved since), so the difference is exact. A renamed
        participant is deleted and inserted again (with its effects), so two names
        swapped in one save never collide on the unique name.
        """
        old_slots = _slots(record.state)
        # The order is often the very same tuple (a turn, an action): same places.
        new_slots = old_slots if state.order == record.state.order else _slots(state)
        old = {p.id: p for p in record.state.participants}
        new_ids = {p.id for p in state.participants}
        gone = [pid for pid in old if pid not in new_ids]
        inserts: list[Participant] = []
        changes: list[tuple[Participant, int | None, dict[str, object]]] = []
        for p in state.participants:
            before = old.get(p.id)
            slot = new_slots.get(p.id)
            if before is p and old_slots.get(p.id) == slot:
                continue  # the rules handed back the very same value: its row is as it was
            if before is None or (
                before.name != p.name and normalise_name(before.name) != normalise_name(p.name)
            ):  # (the same name is the same key: a new round renames nobody)
                if before is not None:
                    gone.append(p.id)
                inserts.append(p)
                continue
            columns = changed_columns(before, p, old_slots.get(p.id), slot)
            if columns:
                changes.append((p, slot, columns))
        if gone:
            marks = ", ".join("?" * len(gone))
            await run(
                self._conn,
                "DELETE FROM encounter_participants WHERE encounter_id = ?"
                f" AND participant_id IN ({marks})",
                (record.id, *gone),
            )
        for columns, rows in update_batches(record.id, changes).items():
            await run_many(self._conn, update_participant(columns), rows)
        await run_many(
            self._conn,
            INSERT_PARTICIPANT,
            [participant_row(record.id, p, new_slots.get(p.id)) for p in inserts],
        )
        # Effects: the deleted participants' went with them (ON DELETE CASCADE), a
        # re-inserted one's are all written, and only changed tuples are compared.
        rewritten = {p.id for p in inserts}
        old_effects: dict[int, tuple[object, ...]] = {}
        new_effects: dict[int, tuple[object, ...]] = {}
        for p in state.participants:
            before = old.get(p.id)
            if p.id not in rewritten and before is not None:
                if before.effects == p.effects:
                    continue
                old_effects.update((e.id, effect_row(record.id, p.id, e)) for e in before.effects)
            new_effects.update((e.id, effect_row(record.id, p.id, e)) for e in p.effects)
        stale = [eid for eid, row in old_effects.items() if new_effects.get(eid) != row]
        if stale:
            marks = ", ".join("?" * len(stale))
            await run(
                self._conn,
                f"DELETE FROM encounter_effects WHERE encounter_id = ? AND effect_id IN ({marks})",
                (record.id, *stale),
            )
        await run_many(
            self._conn,
            INSERT_EFFECT,
            [row for eid, row in new_effects.items() if old_effects.get(eid) != row],
        )

    async def stamp(self, channel_id: int, *, lock: bool = False) -> EncounterStamp | None:
        """What tells whether a synced record of the channel's encounter is still current:
        its id, version and tracker message, and the count and revision sum of the
        characters linked to it (a character's revision rises with every write to
        its row, a trigger sees to it). One statement; None when there is none.
        ``lock``: in a write transaction, lock the encounter's row as ``get_by_channel``
        does (the read a save under its version follows)."""
        row = await fetch_one(
            self._conn,
            "SELECT e.id, e.version, e.tracker_message_id,"
            " (SELECT COUNT(*) FROM encounter_participants p JOIN characters c"
            "  ON c.id = p.character_id WHERE p.encounter_id = e.id),"
            " (SELECT COALESCE(SUM(c.revision), 0) FROM encounter_participants p"
            "  JOIN characters c ON c.id = p.character_id WHERE p.encounter_id = e.id)"
            f" FROM encounters e WHERE e.channel_id = ?{ROW_LOCK if lock else ''}",
            (channel_id,),
        )
        return None if row is None else EncounterStamp(*row)

    async def recent_channels(
        self, limit: int, *, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[int]:
        """Channels of the running encounters (ended ones are deleted), the most
        recently changed first, at most ``limit``; with ``shards`` (the shard count and
        this process's shard ids) only those of guilds on these shards (Discord's
        formula, ``bot.process.sharding.shard_of``)."""
        where, params = "", ()
        if shards is not None:
            count, ids = shards
            where = f" WHERE ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
            params = (count, *ids)
        rows = await fetch_all(
            self._conn,
            f"SELECT channel_id FROM encounters{where} ORDER BY updated_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [row[0] for row in rows]

    async def set_tracker_message(self, encounter_id: int, message_id: int | None) -> None:
        """Remember where the tracker is shown (not game state: the version stays)."""
        await self._conn.execute(
            "UPDATE encounters SET tracker_message_id = ? WHERE id = ?",
            (message_id, encounter_id),
        )

    async def delete(self, record: EncounterRecord) -> None:
        """End the encounter. Raises EncounterChanged if it moved on since ``record``."""
        # The fight is remembered for the recap (fights) before its row goes.
        await self._conn.execute(
            "INSERT INTO fights (guild_id, ruleset, started_at, rounds)"
            " SELECT guild_id, 'hocs', created_at, round FROM encounters"
            " WHERE id = ? AND version = ?",
            (record.id, record.version),
        )
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
        rows = await fetch_all(
            self._conn,
            "SELECT DISTINCT e.channel_id FROM encounters e"
            " JOIN encounter_participants p ON p.encounter_id = e.id"
            f" WHERE e.guild_id = ? AND p.character_id IN ({marks})"
            " ORDER BY e.channel_id",
            (guild_id, *ids),
        )
        return [row[0] for row in rows]

    async def participant_names(self, channel_id: int, query: str, limit: int = 25) -> list[str]:
        """Participant and group names of the channel's encounter containing ``query``."""
        pattern = "%" + normalise_name(query).replace("%", "").replace("_", "") + "%"
        rows = await fetch_all(
            self._conn,
            "SELECT name FROM ("
            " SELECT p.name AS name, p.participant_id AS n FROM encounter_participants p"
            " JOIN encounters e ON e.id = p.encounter_id"
            " WHERE e.channel_id = ? AND p.name_key LIKE ?"
            " UNION"
            # Each group once, spelt as its first member spells it (standard SQL: no
            # bare column beside an aggregate, which PostgreSQL refuses).
            " SELECT p.group_name, p.participant_id FROM encounter_participants p"
            " JOIN encounters e ON e.id = p.encounter_id"
            " WHERE e.channel_id = ? AND p.group_name IS NOT NULL"
            " AND lower(p.group_name) LIKE ? AND NOT EXISTS (SELECT 1"
            "  FROM encounter_participants q WHERE q.encounter_id = p.encounter_id"
            "  AND lower(q.group_name) = lower(p.group_name)"
            "  AND q.participant_id < p.participant_id)"
            ") AS found GROUP BY name ORDER BY MIN(n), name LIMIT ?",
            (channel_id, pattern, channel_id, pattern, limit),
        )
        return [row[0] for row in rows]
