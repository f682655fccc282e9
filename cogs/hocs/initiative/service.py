"""One transaction per tracker change, and keeping the tracker message in step.

``InitiativeService.change`` loads the channel's encounter, refreshes linked
characters' hit points and conditions, runs a pure rules operation, writes what it
did to the characters (hit points as SQL deltas, conditions as a diff) and saves
the encounter under its version — all in one ``BEGIN IMMEDIATE`` transaction, so
any number of commands, buttons or bot processes can race without a turn being
skipped or repeated.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite
import discord

from bot.render.hocs.initiative import tracker_embed
from bot.rules.hocs.conditions import Conditions
from bot.rules.hocs.initiative import (
    BleedingTick,
    Encounter,
    Event,
    update_clocks,
)
from bot.rulesets import Ruleset
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.encounters import EncounterRecord, EncounterRepository
from bot.tables.permissions import is_gm
from bot.tracker.change import TrackerChange
from bot.tracker.errors import EncounterOver, NoEncounter
from bot.tracker.messages import TrackerMessages, TrackerView
from cogs.hocs.initiative.held import HeldEncounters
from cogs.hocs.initiative.sync import (  # (re-exported: the tracker's other users import them here)
    Linked,
    initiative_stats,
    linked_characters,
    refresh_from,
    sync_characters,
)

__all__ = [
    "ChangeContext",
    "InitiativeService",
    "Linked",
    "Operation",
    "Outcome",
    "initiative_stats",
    "linked_characters",
    "refresh_from",
    "sync_characters",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class ChangeContext(TrackerChange[EncounterRecord]):
    """What an operation may look at while the write transaction is open."""

    state: Encounter  # with linked characters refreshed


@dataclass(frozen=True)
class Outcome:
    record: EncounterRecord  # as saved
    before: Encounter
    events: list[Event]
    campaign: Campaign
    is_gm: bool

    @property
    def state(self) -> Encounter:
        return self.record.state


Operation = Callable[[ChangeContext], Awaitable[tuple[Encounter, list[Event]]]]


def _diff(current: Conditions, before: Conditions, after: Conditions) -> Conditions:
    """``current`` with exactly the changes between ``before`` and ``after`` applied."""
    for condition in {*before, *after}:
        old, new = before.value(condition), after.value(condition)
        if old == new:
            continue
        current = current.remove(condition)
        if new:
            current = current.add(condition, new)
    return current


async def apply_to_characters(
    conn: aiosqlite.Connection, before: Encounter, after: Encounter, events: list[Event]
) -> None:
    """Write hit points lost and conditions changed by the rules to linked characters."""
    vitals = CharacterVitalsRepository(conn)
    for event in events:
        if isinstance(event, BleedingTick) and event.character_id is not None and event.amount:
            await vitals.adjust_hp(event.character_id, -event.amount)
    before_by_id = {p.id: p for p in before.participants}
    for participant in after.participants:
        old = before_by_id.get(participant.id)
        if participant.character_id is None or old is None or old is participant:
            continue
        if old.conditions != participant.conditions:
            await vitals.update_conditions(
                participant.character_id,
                lambda c, o=old.conditions, n=participant.conditions: _diff(c, o, n),
            )


class InitiativeService:
    """Changes to encounters, and the tracker message that mirrors each one."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # bot.tracker.messages; its edits run after the reply (bot.delivery.followups)
        self.trackers = TrackerMessages(self._store_message_id, getattr(bot, "followups", None))
        self._changed: dict[int, set[int]] = {}  # guild id → characters not yet followed
        # The record this process saved last in each channel (cogs.hocs.initiative.held).
        self.held = HeldEncounters()

    async def change(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: discord.abc.User,
        operation: Operation,
        encounter_id: int | None = None,
    ) -> Outcome:
        """Run ``operation`` on the channel's encounter in one write transaction.

        Raises NoEncounter (EncounterOver when ``encounter_id`` names an ended one),
        or whatever user error the operation raises (then nothing is written).
        """
        async with self.bot.db.transaction() as conn:
            outcome, characters = await self.change_in(
                conn, guild_id=guild_id, channel_id=channel_id, member=member,
                operation=operation, encounter_id=encounter_id,
            )  # fmt: skip
        self.held.keep(outcome.record, characters)
        return outcome

    async def change_in(
        self,
        conn: aiosqlite.Connection,
        *,
        guild_id: int,
        channel_id: int,
        member: discord.abc.User,
        operation: Operation,
        encounter_id: int | None = None,
    ) -> tuple[Outcome, Linked]:
        """``change`` inside the caller's write transaction (a character's delete takes
        it out of its fights in the delete's own), with the linked characters it read.
        Nothing is held for the next change: the caller's other writes may change them."""
        campaign = await CampaignRepository(conn).get_or_create(guild_id)
        current = await self.held.current(conn, channel_id)
        if current is None:
            raise NoEncounter() if encounter_id is None else EncounterOver()
        record, characters = current
        if encounter_id is not None and record.id != encounter_id:
            raise EncounterOver()
        before = refresh_from(record.state, characters)
        context = ChangeContext(
            conn=conn,
            campaign=campaign,
            record=record,
            state=before,
            member=member,
            is_gm=is_gm(member, campaign),
            dice=self.bot.dice,
        )
        after, events = await operation(context)
        after = update_clocks(after)
        await apply_to_characters(conn, before, after, events)
        saved = await EncounterRepository(conn).save(record, after)
        return Outcome(saved, before, events, campaign, context.is_gm), characters

    async def load(self, channel_id: int) -> EncounterRecord | None:
        """The channel's encounter with its linked characters synced (None if none).

        The state this process saved last is reused while its stamp still matches, so
        the tracker is drawn from it; anyone's later write (another process, another
        command, a raw UPDATE of a character) changes the stamp and it is read again.
        """
        held = self.held.get(channel_id)
        if held is not None:
            async with self.bot.db.single(sees_deferred=False) as conn:
                stamp = await EncounterRepository(conn).stamp(channel_id)
            if stamp == held.stamp:
                return held.shown
        async with self.bot.db.read() as conn:
            record = await EncounterRepository(conn).get_by_channel(channel_id)
            if record is not None:
                state = await sync_characters(conn, record.state)
                record = replace(record, state=state)
        return record

    def characters_changed_soon(self, guild_id: int, character_ids: Iterable[int]) -> None:
        """``characters_changed`` after the reply (``bot.delivery.followups``), one run per guild
        for every character changed meanwhile: the command that changed them does not
        wait for the encounters' saves and tracker edits, and a burst makes one each."""
        self._changed.setdefault(guild_id, set()).update(character_ids)

        async def work() -> None:
            if not await self._plays_here(guild_id):
                self._changed.pop(guild_id, None)
                return
            ids = self._changed.pop(guild_id, set())
            try:
                await self.characters_changed(guild_id, sorted(ids))
            except BaseException:  # retried (bot.delivery.followups) with these ids still owed
                self._changed.setdefault(guild_id, set()).update(ids)
                raise

        self.trackers.followups.schedule(("hocs characters", guild_id), work)

    async def _plays_here(self, guild_id: int) -> bool:
        """Whether the guild plays this ruleset (cached per process): a campaign can't
        switch while an encounter runs, so another ruleset's guild has none of ours."""
        sets = getattr(self.bot, "command_sets", None)
        return sets is None or await sets.ruleset_of(guild_id) is Ruleset.HOCS

    async def characters_changed(self, guild_id: int, character_ids: Iterable[int]) -> None:
        """Bring every running encounter of the guild that has one of these characters up
        to date: their hit points and conditions are stored (a versioned save, only if
        something changed) and the tracker is edited. Errors are logged, per channel."""
        # (Reads encounters only: the message ids queued for later are not needed.)
        async with self.bot.db.single(sees_deferred=False) as conn:
            channel_ids = await EncounterRepository(conn).channels_with_characters(
                guild_id, character_ids
            )
        for channel_id in channel_ids:
            try:
                await self._resync(guild_id, channel_id)
            except Exception:
                log.exception("could not refresh the tracker in channel %s", channel_id)

    async def _resync(self, guild_id: int, channel_id: int) -> None:
        async with self.bot.db.transaction() as conn:
            # (Called because a linked character changed: a held record is stale.)
            current = await self.held.current(conn, channel_id, stale=True)
            if current is None:
                return  # ended in the meantime
            record, characters = current
            state = refresh_from(record.state, characters)
            if state != record.state:
                record = await EncounterRepository(conn).save(record, state)
        self.held.keep(record, characters)
        channel = self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(
            channel_id, guild_id=guild_id
        )
        await self.refresh_tracker(channel)

    # --- the tracker message (the machinery is the platform's: bot.tracker.messages) ---

    async def _store_message_id(self, encounter_id: int, message_id: int) -> None:
        async with self.bot.db.transaction() as conn:
            await EncounterRepository(conn).set_tracker_message(encounter_id, message_id)
        self.held.message_stored(encounter_id, message_id)

    async def _tracker_view(self, channel_id: int) -> TrackerView | None:
        record = await self.load(channel_id)
        if record is None:
            return None
        return TrackerView(
            record.id, record.version, record.tracker_message_id, tracker_embed(record.state)
        )

    async def refresh_tracker(
        self, channel: discord.abc.Messageable, *, force: bool = False
    ) -> None:
        """Show the stored state in the channel's tracker, reposting it if it was deleted."""
        channel_id = getattr(channel, "id", 0)
        await self.trackers.refresh(channel, lambda: self._tracker_view(channel_id), force=force)

    def refresh_soon(self, channel: discord.abc.Messageable, *, force: bool = False) -> None:
        """``refresh_tracker`` after the reply, coalesced per channel (``followups``)."""
        channel_id = getattr(channel, "id", 0)
        self.trackers.refresh_soon(channel, lambda: self._tracker_view(channel_id), force=force)

    async def close_tracker(
        self, channel: discord.abc.Messageable, record: EncounterRecord, embed: discord.Embed
    ) -> None:
        """After /init end: the tracker shows the summary and is unpinned."""
        await self.trackers.close(channel, record.tracker_message_id, embed)
