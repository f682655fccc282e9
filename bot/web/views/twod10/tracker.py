"""A 2d10 channel's running encounter as its tracker page (and the overlay) shows it.

The pinned tracker's content (``bot.render.twod10.initiative``): the round and phase, the
side acting now first, each combatant's finesse, what it did this turn, whether it is
down; a linked sheet's hit points and conditions as the viewer may see them
(``visibility``, ruling web-2d10-tracker-hp) and its public down marks. A combatant whose
sheet was deleted is left out, as the tracker drops it (ruling seat-deleted).
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.render.twod10.initiative import phase_text
from bot.rules.twod10.initiative.model import Action, Combatant, Encounter, Phase, Side
from bot.storage.campaigns import Campaign
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Sheet
from bot.storage.twod10.encounters import TrackerRecord, TwoD10EncounterRepository
from bot.web.views.common import PageNotFound, Vitals, load_campaign
from bot.web.views.overlay import Overlay, OverlayEntry, for_overlay
from bot.web.views.twod10.visibility import sees_sheet, sheet_vitals
from bot.web.views.viewer import Viewer


@dataclass(frozen=True, kw_only=True)
class TwoD10Combatant:
    id: int
    name: str
    side: str  # "players" or "npcs"
    finesse: int
    down: bool
    linked: bool  # follows a 2d10 sheet (a quick combatant has no hit points)
    vitals: Vitals
    actions: tuple[str, ...]  # "movement", "attack", "interact", "bonus" taken this turn
    reaction_used: bool
    aware: bool


@dataclass(frozen=True, kw_only=True)
class TwoD10SideView:
    side: str
    label: str  # "Players", "NPCs"
    acting: bool  # its turn now
    done: bool  # its turn this round is over
    standing: int
    combatants: tuple[TwoD10Combatant, ...]


@dataclass(frozen=True, kw_only=True)
class TwoD10Tracker:
    channel_id: int
    round: int
    phase: str  # the rules' phase ("not started", "side turn"…)
    phase_text: str  # the tracker's sentence for it
    surprise: bool
    first: str | None  # the side that won this round's initiative
    acting: str | None
    sides: tuple[TwoD10SideView, ...]  # the acting side first


async def _load(
    conn: aiosqlite.Connection, viewer: Viewer, channel_id: int
) -> tuple[TrackerRecord, dict[int, TwoD10Sheet], Campaign]:
    record = await TwoD10EncounterRepository(conn).get_by_channel(channel_id)
    if record is None or record.guild_id != viewer.guild_id:
        raise PageNotFound("no encounter in that channel")
    sheets = await TwoD10CharacterRepository(conn).get_many(
        viewer.guild_id, record.tracker.sheet_ids()
    )
    return record, sheets, await load_campaign(conn, viewer.guild_id)


def _side_done(enc: Encounter, side: Side) -> bool:
    if enc.phase not in (Phase.TURN, Phase.END_OF_TURN):
        return False
    if enc.phase is Phase.END_OF_TURN and side is enc.acting:
        return True
    return enc.first is side and enc.acting is not side


def tracker_of(
    record: TrackerRecord, sheets: dict[int, TwoD10Sheet], campaign: Campaign, viewer: Viewer
) -> TwoD10Tracker:
    """The page's data from what was read (pure)."""
    tracker, enc = record.tracker, record.encounter
    seats = dict(tracker.seats)
    due = {cid for cid, _ in tracker.dying_due}

    def combatant(c: Combatant) -> TwoD10Combatant | None:
        seat = seats.get(c.id)
        sheet_id = seat.sheet_id if seat is not None else None
        sheet = sheets.get(sheet_id) if sheet_id is not None else None
        if sheet_id is not None and sheet is None:
            return None  # its sheet was deleted: it has left (ruling seat-deleted)
        if sheet is None:
            vitals = Vitals(hidden=False, hp=None, max_hp=None, status="down" if c.down else "")
        else:
            vitals = sheet_vitals(
                sheet, shown=sees_sheet(viewer, sheet, campaign), down=c.down,
                dying_roll_due=c.id in due,
            )  # fmt: skip
        state = enc.state(c.id)
        return TwoD10Combatant(
            id=c.id, name=c.name, side=c.side.value, finesse=c.finesse, down=c.down,
            linked=sheet is not None, vitals=vitals,
            actions=tuple(a.value for a in Action if a in state.actions),
            reaction_used=state.reaction_used, aware=c.aware,
        )  # fmt: skip

    first_side = enc.acting or Side.PLAYERS
    sides = []
    for side in (first_side, first_side.other):
        members = tuple(m for m in map(combatant, enc.side(side)) if m is not None)
        sides.append(
            TwoD10SideView(
                side=side.value, label=side.label,
                acting=enc.acting is side and enc.phase in (Phase.TURN, Phase.SURPRISE),
                done=_side_done(enc, side), standing=sum(1 for m in members if not m.down),
                combatants=members,
            )
        )  # fmt: skip
    return TwoD10Tracker(
        channel_id=record.channel_id, round=enc.round, phase=enc.phase.value,
        phase_text=phase_text(enc), surprise=enc.phase is Phase.SURPRISE,
        first=enc.first.value if enc.first else None,
        acting=enc.acting.value if enc.acting else None, sides=tuple(sides),
    )  # fmt: skip


async def tracker(conn: aiosqlite.Connection, viewer: Viewer, channel_id: int) -> TwoD10Tracker:
    """The tracker page of ``channel_id`` (PageNotFound when it has no encounter)."""
    record, sheets, campaign = await _load(conn, viewer, channel_id)
    return tracker_of(record, sheets, campaign, viewer)


def overlay_of(page: TwoD10Tracker) -> Overlay:
    """The tracker trimmed to what a stream shows (pure; build ``page`` with
    ``for_overlay`` so nothing hidden is in it)."""
    entries = tuple(
        OverlayEntry(name=c.name, side=c.side, current=s.acting, done=s.done, vitals=c.vitals)
        for s in page.sides
        for c in s.combatants
    )
    acting = tuple(s.label for s in page.sides if s.acting)
    if page.phase == Phase.NOT_STARTED.value:
        heading = "Not started"
    elif page.surprise:
        heading = "Surprise round"
    else:
        heading = f"Round {page.round}" + (f" · the {acting[0]}' turn" if acting else "")
    return Overlay(
        channel_id=page.channel_id, round=page.round, heading=heading, acting=acting,
        entries=entries,
    )  # fmt: skip


async def overlay(conn: aiosqlite.Connection, viewer: Viewer, channel_id: int) -> Overlay:
    """The overlay of ``channel_id``: a player's view of its tracker, whoever asks."""
    return overlay_of(await tracker(conn, for_overlay(viewer), channel_id))
