"""One transaction per 2d10 tracker change, and the pinned tracker message in step with it.

``SideTrackerService.change`` loads the channel's encounter, brings linked combatants in
line with their sheets, runs an operation (pure rules underneath) and saves under the
encounter's version, all in one ``BEGIN IMMEDIATE`` transaction: commands, buttons and
processes can race without a step being skipped, repeated or half-written.

Ruling (the tracker's, shown by /help): a combatant linked to a 2d10 sheet follows it.
When the sheet's hit points drop to 0 or below, or it is marked unconscious or dead, the
combatant is down (counting toward its side's momentum); when a change leaves the sheet
above 0 and neither unconscious nor dead, it is back up. /init down and /init revive set
it by hand until the sheet next changes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite
import discord

from bot.render.twod10.initiative import HP, tracker_embed
from bot.rules.twod10.initiative.turns import mark_down, revive
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.twod10.characters import (
    TwoD10CharacterRepository,
    TwoD10Condition,
    TwoD10Kind,
    TwoD10Sheet,
)
from bot.storage.twod10.encounters import Tracker, TrackerRecord, TwoD10EncounterRepository
from bot.tables.permissions import is_gm
from bot.tracker.change import TrackerChange
from bot.tracker.errors import EncounterOver
from bot.tracker.errors import NoEncounter as PlatformNoEncounter
from bot.tracker.messages import TrackerMessages, TrackerView
from cogs.twod10.initiative.deleted import leave_deleted
from cogs.twod10.initiative.dying_due import down_marks, settle_dying
from cogs.twod10.initiative.logged_rolls import log_tracker_rolls
from cogs.twod10.initiative.morale_due import morale_notes, rolled_line, settle_morale
from cogs.twod10.initiative.movement import follow_movement
from cogs.twod10.magic_tracker import add_concentration

log = logging.getLogger(__name__)

RULING_SHEETS = (
    "A combatant linked to a 2d10 sheet follows it: HP 0 or less (or unconscious or dead)"
    " puts it down, counting toward momentum; a change that leaves it above 0 brings it back."
    " /init down and /init revive set it by hand until the sheet next changes."
)


class NoEncounter(PlatformNoEncounter):
    def __init__(self) -> None:
        super().__init__("2d10")


@dataclass(frozen=True, kw_only=True)
class ChangeContext(TrackerChange[TrackerRecord]):
    """What an operation may look at while the write transaction is open."""

    tracker: Tracker  # with linked combatants brought in line with their sheets


@dataclass(frozen=True)
class Outcome:
    record: TrackerRecord  # as saved
    events: list[object]  # rules events, interrupt rolls and notes (str), in order

    @property
    def tracker(self) -> Tracker:
        return self.record.tracker


Operation = Callable[[ChangeContext], Awaitable[tuple[Tracker, list[object]]]]


def sheet_down(sheet: TwoD10Sheet) -> bool:
    return (
        sheet.hp <= 0 or sheet.has(TwoD10Condition.UNCONSCIOUS) or sheet.has(TwoD10Condition.DEAD)
    )


def follow_sheets(
    tracker: Tracker, sheets: dict[int, TwoD10Sheet], *, both_ways: bool
) -> tuple[Tracker, list[object]]:
    """Put down (and, ``both_ways``, bring back) linked combatants as their sheets say;
    one whose sheet was deleted leaves (cogs.twod10.initiative.deleted)."""
    tracker, left = leave_deleted(tracker, sheets)
    enc = tracker.encounter
    events: list[object] = [*left]
    for cid, seat in tracker.seats:
        sheet = sheets.get(seat.sheet_id) if seat.sheet_id is not None else None
        if sheet is None:
            continue
        combatant = enc.combatant(cid)
        if sheet_down(sheet) and not combatant.down:
            enc, event = mark_down(enc, cid)
            events.append(event)
        elif both_ways and combatant.down and not sheet_down(sheet):
            enc = revive(enc, cid)
            events.append(f"{combatant.name} is back up.")
    return replace(tracker, encounter=enc), events


async def load_sheets(
    conn: aiosqlite.Connection, guild_id: int, tracker: Tracker
) -> dict[int, TwoD10Sheet]:
    return await TwoD10CharacterRepository(conn).get_many(guild_id, tracker.sheet_ids())


def hp_of(tracker: Tracker, sheets: dict[int, TwoD10Sheet], *, show_npc_hp: bool) -> HP:
    """The HP the public tracker shows: player characters', and NPCs' only when the
    campaign shows NPC hit points (as /character show; their down marks stay)."""
    shown = {}
    for cid, seat in tracker.seats:
        sheet = sheets.get(seat.sheet_id) if seat.sheet_id is not None else None
        if sheet is not None and (sheet.kind is TwoD10Kind.PC or show_npc_hp):
            shown[cid] = (sheet.hp, sheet.max_hp)
    return shown


class SideTrackerService:
    """Changes to 2d10 encounters, and the tracker message that mirrors each one."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # bot.tracker.messages; its edits run after the reply (bot.delivery.followups)
        self.trackers = TrackerMessages(self._store_message_id, getattr(bot, "followups", None))
        self._changed: dict[int, set[int]] = {}  # guild id → sheets not yet followed

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
        EncounterChanged, or whatever user error the operation raises (nothing written).
        """
        async with self.bot.db.transaction() as conn:
            return await self.change_in(
                conn, guild_id=guild_id, channel_id=channel_id, member=member,
                operation=operation, encounter_id=encounter_id,
            )  # fmt: skip

    async def change_in(
        self,
        conn: aiosqlite.Connection,
        *,
        guild_id: int,
        channel_id: int,
        member: discord.abc.User,
        operation: Operation,
        encounter_id: int | None = None,
    ) -> Outcome:
        """``change`` inside a transaction the caller holds (a sheet's delete: the
        combatant leaves in the delete's own transaction)."""
        campaign = await CampaignRepository(conn).get_or_create(guild_id)
        repo = TwoD10EncounterRepository(conn)
        record = await repo.get_by_channel(channel_id)
        if record is None:
            raise NoEncounter() if encounter_id is None else EncounterOver()
        if encounter_id is not None and record.id != encounter_id:
            raise EncounterOver()
        sheets = await load_sheets(conn, guild_id, record.tracker)
        # Only downwards here: a combatant put down by hand stays down until its sheet
        # changes (the listener below follows both ways).
        tracker, synced = follow_sheets(record.tracker, sheets, both_ways=False)
        tracker = await follow_movement(conn, tracker, sheets)  # what each load allows
        context = ChangeContext(
            conn=conn, campaign=campaign, record=record, tracker=tracker, member=member,
            is_gm=is_gm(member, campaign), dice=self.bot.dice,
        )  # fmt: skip
        after, events = await operation(context)
        # Dying rolls fall due as a side's turn starts (cogs.twod10.initiative.dying).
        after, due = settle_dying(after, sheets, events)
        # NPCs falling may call their morale roll (cogs.twod10.initiative.morale_due).
        after, morale = settle_morale(after, self.bot.dice)
        saved = await repo.save(record, after)
        await log_tracker_rolls(context, events, morale)  # its dice, in the same transaction
        return Outcome(saved, [*synced, *events, *due, *map(rolled_line, morale)])

    def characters_changed_soon(self, guild_id: int, sheet_ids: Iterable[int]) -> None:
        """``characters_changed`` after the reply (``bot.delivery.followups``), one run per guild
        for every sheet changed meanwhile, so the command that changed them never waits."""
        self._changed.setdefault(guild_id, set()).update(sheet_ids)

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

        self.trackers.followups.schedule(("2d10 sheets", guild_id), work)

    async def _plays_here(self, guild_id: int) -> bool:
        """Whether the guild plays this ruleset (cached per process): a campaign can't
        switch while an encounter runs, so another ruleset's guild has none of ours."""
        sets = getattr(self.bot, "command_sets", None)
        return sets is None or await sets.ruleset_of(guild_id) is Ruleset.TWOD10

    async def characters_changed(self, guild_id: int, sheet_ids: Iterable[int]) -> None:
        """Sheets changed (``bot.delivery.events``): every encounter seating one follows them and
        its tracker is edited. Errors are logged per channel, never shown."""
        # (One statement, reading encounters only: the message ids queued are not needed.)
        async with self.bot.db.single(sees_deferred=False) as conn:
            channels = await TwoD10EncounterRepository(conn).channels_with_sheets(
                guild_id, sheet_ids
            )
        for channel_id in channels:
            try:
                await self._follow(guild_id, channel_id)
            except Exception:
                log.exception("could not refresh the 2d10 tracker in channel %s", channel_id)

    async def _follow(self, guild_id: int, channel_id: int) -> None:
        async with self.bot.db.transaction() as conn:
            repo = TwoD10EncounterRepository(conn)
            record = await repo.get_by_channel(channel_id)
            if record is None:
                return  # ended in the meantime
            sheets = await load_sheets(conn, guild_id, record.tracker)
            tracker, events = follow_sheets(record.tracker, sheets, both_ways=True)
            tracker = await follow_movement(conn, tracker, sheets)  # a load that changed
            tracker, morale = settle_morale(tracker, self.bot.dice)
            if events or morale or tracker.encounter != record.tracker.encounter:
                await repo.save(record, tracker)
        channel = self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(
            channel_id, guild_id=guild_id
        )
        if morale:
            # A hit elsewhere (/attack) felled the NPC: the roll it called is told here.
            await channel.send(
                "\n".join(map(rolled_line, morale)), allowed_mentions=discord.AllowedMentions.none()
            )
        await self.refresh_tracker(channel, force=not events)

    async def load(self, channel_id: int) -> tuple[TrackerRecord, discord.Embed] | None:
        """The channel's encounter and its tracker embed (HP, dying marks, morale and
        who concentrates on what); the tracker message and /init list both show it."""
        async with self.bot.db.read() as conn:
            record = await TwoD10EncounterRepository(conn).get_by_channel(channel_id)
            if record is None:
                return None
            sheets = await load_sheets(conn, record.guild_id, record.tracker)
            campaign = await CampaignRepository(conn).get(record.guild_id)
            # Shown as the loads stand now (and without deleted sheets), even before the
            # next change stores them.
            tracker, _ = leave_deleted(record.tracker, sheets)
            tracker = await follow_movement(conn, tracker, sheets)
        embed = tracker_embed(
            tracker.encounter,
            hp_of(tracker, sheets, show_npc_hp=bool(campaign and campaign.settings.show_npc_hp)),
            down_marks(tracker, sheets),
            morale_notes(tracker),
        )  # fmt: skip
        await add_concentration(self.bot.db, record, embed)  # cogs.twod10.magic_tracker
        return record, embed

    # --- the tracker message (the machinery is the platform's: bot.tracker.messages) ---

    async def _store_message_id(self, encounter_id: int, message_id: int) -> None:
        async with self.bot.db.transaction() as conn:
            await TwoD10EncounterRepository(conn).set_tracker_message(encounter_id, message_id)

    async def _tracker_view(self, channel_id: int) -> TrackerView | None:
        loaded = await self.load(channel_id)
        if loaded is None:
            return None
        record, embed = loaded
        return TrackerView(record.id, record.version, record.tracker_message_id, embed)

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
        self, channel: discord.abc.Messageable, record: TrackerRecord, embed: discord.Embed
    ) -> None:
        await self.trackers.close(channel, record.tracker_message_id, embed)
