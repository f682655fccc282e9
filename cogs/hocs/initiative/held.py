"""The encounters this process saved last, reused while one statement proves them current.

A change reads the channel's encounter, its participants and its linked characters
(three statements, and the rows built into values) only to save it a moment later;
the next change in that channel, usually from this same process, would read back
exactly what was saved. So the saved record is held with the characters it was
synced from and a stamp: the encounter's id, version and tracker message, and the
count and revision sum of its linked characters (``EncounterStamp``). A later read
of the stamp, one statement, tells whether anything moved since: another command or
process saving the encounter (its version), any write to a linked character (its
revision, raised by a trigger whoever writes), a character deleted (the count).
Only while it still matches is the held record used; otherwise it is read again.

After a restart nothing is held, so each channel's first change would read it all
(about 1 ms: the rows, every participant and linked character built anew). ``warm``
reads the most recently changed encounters once at start-up instead; a record read
then is held like a saved one, and the same stamp proves it current before any use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import aiosqlite

from bot.process.sharding import ShardPlan
from bot.storage.hocs.encounters import EncounterRecord, EncounterRepository, EncounterStamp
from cogs.hocs.initiative.sync import Linked, linked_characters, refresh_from


@dataclass
class Held:
    stamp: EncounterStamp
    record: EncounterRecord  # as its rows hold it (what a save is compared with)
    characters: Linked  # its linked characters, as read with it
    synced: EncounterRecord | None = None  # ``shown``, once worked out

    @property
    def shown(self) -> EncounterRecord:
        """The record with those characters synced: what a load gives. Worked out when
        first asked for (by the tracker's redraw, after the reply), not by the change."""
        if self.synced is None:
            self.synced = replace(
                self.record, state=refresh_from(self.record.state, self.characters)
            )
        return self.synced


class HeldEncounters:
    """One held record per channel (a channel has one encounter at a time)."""

    def __init__(self) -> None:
        self._by_channel: dict[int, Held] = {}

    def keep(self, saved: EncounterRecord, characters: Linked) -> None:
        """Hold ``saved`` (as its rows now hold it) and the characters it was synced from.

        The stamp is the one the database has if those characters are still at the
        revisions read: a write to one of them in the same transaction (a bleeding
        tick) has raised its revision already, so the next read finds a mismatch.
        """
        revisions = {cid: revision for cid, (_, revision) in characters.items()}
        stamp = EncounterStamp.of(saved, revisions)
        if stamp is None:
            self._by_channel.pop(saved.channel_id, None)
            return
        self._by_channel[saved.channel_id] = Held(stamp, saved, characters)

    async def warm(
        self, conn: aiosqlite.Connection, limit: int, plan: ShardPlan | None = None
    ) -> int:
        """Hold the ``limit`` most recently changed encounters of this process's guilds
        (``plan``'s shards; all without one) as their rows hold them now, with their
        linked characters; how many were held."""
        repo = EncounterRepository(conn)
        shards = None
        if plan is not None and not plan.runs_every_shard:
            assert plan.count is not None and plan.ids is not None
            shards = (plan.count, plan.ids)
        held = 0
        for channel_id in await repo.recent_channels(limit, shards=shards):
            record = await repo.get_by_channel(channel_id)
            if record is None or channel_id in self._by_channel:
                continue  # ended meanwhile, or a change already holds a newer one
            self.keep(record, await linked_characters(conn, record.state))
            held += channel_id in self._by_channel
        return held

    def get(self, channel_id: int) -> Held | None:
        return self._by_channel.get(channel_id)

    def forget(self, channel_id: int) -> None:
        self._by_channel.pop(channel_id, None)

    def message_stored(self, encounter_id: int, message_id: int | None) -> None:
        """The tracker's message id was just written (no version change): a held record
        of that encounter stays current with it, and stale if it was stale."""
        for channel_id, held in list(self._by_channel.items()):
            if held.record.id == encounter_id:
                self._by_channel[channel_id] = Held(
                    replace(held.stamp, tracker_message_id=message_id),
                    replace(held.record, tracker_message_id=message_id),
                    held.characters,
                )

    async def current(
        self, conn: aiosqlite.Connection, channel_id: int, *, stale: bool = False
    ) -> tuple[EncounterRecord, Linked] | None:
        """The channel's encounter as its rows hold it, and its linked characters, in the
        caller's write transaction (the encounter's row locked on PostgreSQL, as
        ``get_by_channel`` does); None when the channel has none. ``stale``: the caller
        knows a linked character changed, so the characters are read even when the
        stamp matches."""
        repo = EncounterRepository(conn)
        held = self._by_channel.get(channel_id)
        if held is not None:
            stamp = await repo.stamp(channel_id, lock=True)
            if stamp == held.stamp and not stale:
                return held.record, held.characters
            if stamp is not None and stamp.same_rows(held.stamp):
                # Only linked characters were written (a hit, a rest, points granted):
                # the encounter's rows are as held, so only the characters are read.
                return held.record, await linked_characters(conn, held.record.state)
        record = await repo.get_by_channel(channel_id)
        if record is None:
            self.forget(channel_id)
            return None
        return record, await linked_characters(conn, record.state)
