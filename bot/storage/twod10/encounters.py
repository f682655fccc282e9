"""2d10 encounter rows: one side-initiative tracker per channel, saved whole under a version.

The rules' ``Encounter`` is stored through its codec, beside what only the bot needs: which
combatant is which 2d10 sheet (so hit points can put it down) and who plays it (so a
player's button marks their own combatant). ``save`` is a conditional
``UPDATE … WHERE version = ?``: of two writers that loaded the same version, the second
gets ``EncounterChanged`` and its whole transaction is rolled back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.model import Encounter
from bot.storage.dialect import ROW_LOCK
from bot.storage.sql import fetch_all, fetch_one, refusable, run
from bot.storage.twod10.morale import NpcMorale, morale_from_json, morale_to_json
from bot.tracker.errors import EncounterChanged, EncounterExists

__all__ = ["EncounterChanged", "EncounterExists", "Seat", "Tracker", "TrackerRecord"]
__all__ += ["TwoD10EncounterRepository"]


@dataclass(frozen=True, kw_only=True)
class Seat:
    """Who a combatant is outside the rules: its player, and its 2d10 sheet if linked."""

    owner_id: int
    sheet_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class Tracker:
    """The rules' encounter plus the seats of its combatants and the next combatant id."""

    encounter: Encounter = field(default_factory=Encounter)
    seats: tuple[tuple[int, Seat], ...] = ()  # (combatant id, seat), sorted
    next_id: int = 1
    # Dying rolls prompted and not yet made: (combatant id, round it fell due), sorted.
    # A press rolls only while its entry is here and removes it in the same versioned
    # save, so a due roll is made exactly once (cogs.twod10.initiative.dying).
    dying_due: tuple[tuple[int, int], ...] = ()
    morale: NpcMorale | None = None  # the NPC side's morale, once the GM set a score

    def seat(self, combatant_id: int) -> Seat | None:
        return dict(self.seats).get(combatant_id)

    def sheet_ids(self) -> set[int]:
        return {s.sheet_id for _, s in self.seats if s.sheet_id is not None}


def tracker_to_json(tracker: Tracker) -> str:
    return json.dumps(
        {
            "encounter": encounter_to_dict(tracker.encounter),
            "seats": [[cid, s.owner_id, s.sheet_id] for cid, s in tracker.seats],
            "next_id": tracker.next_id,
            "dying_due": [list(due) for due in tracker.dying_due],
            "morale": None if tracker.morale is None else morale_to_json(tracker.morale),
        },
        separators=(",", ":"),
    )


def tracker_from_json(text: str) -> Tracker:
    """Raises RulesError (one sentence) when the stored document is damaged."""
    try:
        data: dict[str, Any] = json.loads(text)
        seats = tuple(
            sorted(
                (int(cid), Seat(owner_id=int(owner), sheet_id=None if s is None else int(s)))
                for cid, owner, s in data["seats"]
            )
        )
        return Tracker(
            encounter=encounter_from_dict(data["encounter"]),
            seats=seats,
            next_id=int(data["next_id"]),
            # Both are absent from documents saved before they existed.
            dying_due=tuple(sorted((int(c), int(r)) for c, r in data.get("dying_due", ()))),
            morale=morale_from_json(data["morale"]) if data.get("morale") else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError("This stored encounter is damaged; end it and start a new one.") from exc


@dataclass(frozen=True, kw_only=True)
class TrackerRecord:
    id: int
    guild_id: int
    channel_id: int
    gm_id: int
    tracker_message_id: int | None
    version: int
    tracker: Tracker

    @property
    def encounter(self) -> Encounter:
        return self.tracker.encounter


_COLUMNS = "id, guild_id, channel_id, gm_id, state, version, tracker_message_id"


def _from_row(row: aiosqlite.Row) -> TrackerRecord:
    return TrackerRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        gm_id=row["gm_id"],
        tracker_message_id=row["tracker_message_id"],
        version=row["version"],
        tracker=tracker_from_json(row["state"]),
    )


class TwoD10EncounterRepository:
    """All SQL about 2d10 encounters. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def create(
        self, *, guild_id: int, channel_id: int, gm_id: int, tracker: Tracker
    ) -> TrackerRecord:
        """A new encounter in the channel. Raises EncounterExists if one is running."""
        try:
            pending = fetch_one(
                self._conn,
                "INSERT INTO twod10_encounters (guild_id, channel_id, gm_id, state)"
                f" VALUES (?, ?, ?, ?) RETURNING {_COLUMNS}",
                (guild_id, channel_id, gm_id, tracker_to_json(tracker)),
            )
            row = await refusable(self._conn, pending)
        except aiosqlite.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise EncounterExists() from None
            raise
        assert row is not None
        return _from_row(row)

    async def get_by_channel(self, channel_id: int) -> TrackerRecord | None:
        row = await fetch_one(
            self._conn,
            f"SELECT {_COLUMNS} FROM twod10_encounters WHERE channel_id = ?{ROW_LOCK}",
            (channel_id,),
        )
        return _from_row(row) if row else None

    async def save(self, record: TrackerRecord, tracker: Tracker) -> TrackerRecord:
        """Store ``tracker`` if nobody saved since ``record`` was read (the version moves
        on by one). Raises EncounterChanged otherwise, or when the encounter ended."""
        row = await fetch_one(
            self._conn,
            "UPDATE twod10_encounters SET state = ?, version = version + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            f" WHERE id = ? AND version = ? RETURNING {_COLUMNS}",
            (tracker_to_json(tracker), record.id, record.version),
        )
        if row is None:
            raise EncounterChanged()
        return _from_row(row)

    async def set_tracker_message(self, encounter_id: int, message_id: int) -> None:
        await run(
            self._conn,
            "UPDATE twod10_encounters SET tracker_message_id = ? WHERE id = ?",
            (message_id, encounter_id),
        )

    async def delete(self, channel_id: int) -> TrackerRecord | None:
        """End the channel's encounter; the row as it was, or None if none was running.
        The fight is remembered for the recap (table fights)."""
        started = await fetch_one(
            self._conn,
            "SELECT created_at FROM twod10_encounters WHERE channel_id = ?",
            (channel_id,),
        )
        row = await fetch_one(
            self._conn,
            f"DELETE FROM twod10_encounters WHERE channel_id = ? RETURNING {_COLUMNS}",
            (channel_id,),
        )
        if row is None:
            return None
        record = _from_row(row)
        if started is not None:
            await self._conn.execute(
                "INSERT INTO fights (guild_id, ruleset, started_at, rounds)"
                " VALUES (?, '2d10', ?, ?)",
                (record.guild_id, started["created_at"], record.tracker.encounter.round),
            )
        return record

    async def channels_with_sheets(self, guild_id: int, sheet_ids: Iterable[int]) -> list[int]:
        """Channels of the guild whose encounter seats one of these sheets (one query)."""
        wanted = sorted(set(sheet_ids))
        if not wanted:
            return []
        rows = await fetch_all(
            self._conn,
            "SELECT DISTINCT e.channel_id FROM twod10_encounters AS e,"
            " json_each(e.state, '$.seats') AS seat"
            " WHERE e.guild_id = ? AND json_extract(seat.value, '$[2]')"
            " IN (SELECT value FROM json_each(?)) ORDER BY e.channel_id",
            (guild_id, json.dumps(wanted)),
        )
        return [row[0] for row in rows]
