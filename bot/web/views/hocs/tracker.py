"""A HOCS channel's running encounter as its tracker page (and the overlay) shows it.

The same content as the pinned tracker (``bot.render.hocs.initiative``): the round, the
order by successes with the current slot, each participant's hit points or status word,
its visible conditions and its dying or unconscious test, the participants waiting for
round 1. NPC hit points and conditions follow this encounter's ``show_npc_hp``
(``visibility``). A participant linked to a character shows the character's current hit
points and conditions (the tracker refreshes the same way before it draws), so a page
is never behind the sheet while the bot's own refresh of the tracker is pending.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import aiosqlite

from bot.render.hocs.initiative import SIDE_TAG, actions_text, clock_text, shared_turn
from bot.rules.hocs.initiative import Encounter, Participant, Spent
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.encounters import EncounterRecord, EncounterRepository
from bot.web.views.common import PageNotFound, Vitals
from bot.web.views.hocs.visibility import participant_vitals
from bot.web.views.overlay import Overlay, OverlayEntry, for_overlay
from bot.web.views.viewer import Viewer


@dataclass(frozen=True, kw_only=True)
class HocsCombatant:
    id: int
    name: str
    side: str  # "pc", "ally", "antagonist"
    side_tag: str  # "PC", "ally", "foe"
    vitals: Vitals
    clock: str  # "dying test in round 3", "unconscious test due: roll it", or ""
    actions: str  # "actions 1/2 · quick 0/1 · reaction 0/1" once it acted or acts now


@dataclass(frozen=True, kw_only=True)
class HocsSlot:
    index: int
    state: str  # "done", "current" or "next"
    successes: str  # "3", "3*" (set by hand) or "–" (not rolled)
    label: str  # the participant's name, or a group's "Goblin ×3"
    side: str
    group: bool  # a group sharing one roll and one turn
    members: tuple[HocsCombatant, ...]


@dataclass(frozen=True, kw_only=True)
class HocsTracker:
    channel_id: int
    round: int
    started: bool
    turn: int
    social: bool
    show_npc_hp: bool
    slots: tuple[HocsSlot, ...]
    waiting: tuple[HocsCombatant, ...]  # not yet in the order (before round 1, or joining)
    acting: tuple[str, ...]  # the current slot's names


async def load_record(
    conn: aiosqlite.Connection, viewer: Viewer, channel_id: int
) -> EncounterRecord:
    """The channel's encounter with linked participants as their characters are now;
    PageNotFound when the channel has none in the viewer's server."""
    record = await EncounterRepository(conn).get_by_channel(channel_id)
    if record is None or record.guild_id != viewer.guild_id:
        raise PageNotFound("no encounter in that channel")
    linked = [p.character_id for p in record.state.participants if p.character_id is not None]
    characters = await CharacterRepository(conn).get_many(linked)
    return replace(record, state=refreshed(record.state, characters))


def refreshed(state: Encounter, characters: dict[int, Character]) -> Encounter:
    """``state`` with each linked participant's hit points and conditions its character's."""
    participants = []
    for p in state.participants:
        character = characters.get(p.character_id) if p.character_id is not None else None
        if character is not None:
            p = replace(
                p,
                hp=character.state.hp,
                max_hp=character.effective.max_hp,
                temp_hp=character.state.temp_hp,
                conditions=character.state.conditions,
            )
        participants.append(p)
    return replace(state, participants=tuple(participants))


def _combatant(p: Participant, viewer: Viewer, *, show: bool, acting: bool) -> HocsCombatant:
    return HocsCombatant(
        id=p.id,
        name=p.name,
        side=p.side.value,
        side_tag=SIDE_TAG[p.side],
        vitals=participant_vitals(p, viewer, show_npc_hp=show),
        clock=clock_text(p),
        actions=actions_text(p) if acting or p.spent != Spent() else "",
    )


def _state(enc: Encounter, index: int) -> str:
    if enc.current is None or index > enc.current:
        return "next"
    return "current" if index == enc.current else "done"


def tracker_of(record: EncounterRecord, viewer: Viewer) -> HocsTracker:
    """The page's data from a loaded record (pure)."""
    enc = record.state
    show = enc.show_npc_hp
    slots = []
    for index, slot in enumerate(enc.order):
        members = enc.slot_members(slot)
        roll = members[0].roll
        acting = index == enc.current
        shared = shared_turn(members)
        slots.append(
            HocsSlot(
                index=index,
                state=_state(enc, index),
                successes="–" if roll is None else f"{roll.successes}{'*' if roll.manual else ''}",
                label=f"{members[0].group} ×{len(members)}" if shared else members[0].name,
                side=members[0].side.value,
                group=shared or len(members) > 1,
                members=tuple(_combatant(m, viewer, show=show, acting=acting) for m in members),
            )
        )  # fmt: skip
    return HocsTracker(
        channel_id=record.channel_id,
        round=enc.round,
        started=enc.started,
        turn=enc.turn,
        social=enc.social,
        show_npc_hp=show,
        slots=tuple(slots),
        waiting=tuple(_combatant(p, viewer, show=show, acting=False) for p in enc.waiting()),
        acting=tuple(p.name for p in enc.current_participants),
    )


async def tracker(conn: aiosqlite.Connection, viewer: Viewer, channel_id: int) -> HocsTracker:
    """The tracker page of ``channel_id`` (PageNotFound when it has no encounter)."""
    return tracker_of(await load_record(conn, viewer, channel_id), viewer)


def overlay_of(page: HocsTracker) -> Overlay:
    """The tracker trimmed to what a stream shows (pure): build ``page`` for an overlay
    viewer (``for_overlay``) so nothing hidden is in it to begin with."""
    entries = []
    for slot in page.slots:
        for m in slot.members:
            entries.append(
                OverlayEntry(
                    name=m.name, side=m.side, current=slot.state == "current",
                    done=slot.state == "done", vitals=m.vitals,
                )
            )  # fmt: skip
    for m in page.waiting:
        entries.append(
            OverlayEntry(name=m.name, side=m.side, current=False, done=False, vitals=m.vitals)
        )
    heading = f"Round {page.round}" if page.started else "Not started"
    return Overlay(
        channel_id=page.channel_id, round=page.round, heading=heading, acting=page.acting,
        entries=tuple(entries),
    )  # fmt: skip


async def overlay(conn: aiosqlite.Connection, viewer: Viewer, channel_id: int) -> Overlay:
    """The overlay of ``channel_id``: a player's view of its tracker, whoever asks."""
    return overlay_of(await tracker(conn, for_overlay(viewer), channel_id))
