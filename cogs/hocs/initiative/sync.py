"""Linked participants kept in step with their characters' rows (pure but for one read).

A participant linked to a character sheet carries a snapshot of its hit points,
conditions and initiative pool; every change and every tracker drawing refreshes it
from the character's current row first.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache

import aiosqlite

from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.effective import EffectiveValues
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeStats,
    Participant,
    refresh_participant,
    update_clocks,
)
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.storage.hocs.characters import Character, CharacterRepository


@lru_cache(maxsize=4096)  # pure, of an immutable value: worked out once per sheet state
def initiative_stats(values: EffectiveValues) -> InitiativeStats:
    """Agility, presence, training and expertise in initiative, and injury banes, from a
    character's effective values (so a wound to agility or a broken torso counts)."""
    sheet = values.sheet
    pool = values.skill_pool("initiative")
    skill = pool.skill
    assert skill is not None
    return InitiativeStats(
        agility=sheet.agility,
        presence=sheet.presence,
        training=sheet.training_in(skill),
        expertise=sheet.has_expertise(skill),
        injury_banes=_injury_banes(values, Attribute.AGILITY),
        social_injury_banes=_injury_banes(values, Attribute.PRESENCE),
    )


def _injury_banes(values: EffectiveValues, attribute: Attribute) -> int:
    """Banes a roll of ``attribute`` takes from injuries (no conditions given)."""
    return min(MAX_MODIFIER, sum(n for _, n in values.roll_banes(attribute)))


async def sync_characters(conn: aiosqlite.Connection, state: Encounter) -> Encounter:
    """Refresh each linked participant from its character's current row."""
    return refresh_from(state, await linked_characters(conn, state))


# character id → (the character, its row's revision)
Linked = dict[int, tuple[Character, int]]


async def linked_characters(conn: aiosqlite.Connection, state: Encounter) -> Linked:
    """The characters linked to the encounter's participants, by id (one query)."""
    return await CharacterRepository(conn).get_many_revised(
        p.character_id for p in state.participants if p.character_id is not None
    )


# The stats a sheet gives; ``bonus`` and ``boons`` are the GM's, kept by a refresh.
_SHEET_STATS = tuple(f.name for f in fields(InitiativeStats) if f.name not in {"bonus", "boons"})


def _up_to_date(
    participant: Participant, character: Character, values: EffectiveValues, stats: InitiativeStats
) -> bool:
    """Whether ``refresh_participant`` would give ``participant`` back unchanged: most
    participants of most changes, twice a command (the state read and the one saved)."""
    return (
        participant.hp == character.state.hp
        and participant.temp_hp == character.state.temp_hp
        and participant.max_hp == values.max_hp
        and participant.threshold == values.threshold
        and participant.conditions == character.state.conditions
        and all(getattr(participant.stats, n) == getattr(stats, n) for n in _SHEET_STATS)
    )


# (character id, participant id) → a character and a participant already up to date
# with it. Both are immutable and loads hand back the very same objects while their
# rows are unchanged (the row caches), so most checks are two identity tests instead
# of a hash of the effective values and a field-by-field comparison. Strong references:
# an id is never reused while its object is held here.
_FRESH: dict[tuple[int, int], tuple[Character, Participant]] = {}
FRESH_CACHE_SIZE = 4096


def _same_snapshot(fresh: Participant, participant: Participant) -> bool:
    """Whether ``participant`` holds the very values ``_up_to_date`` compares that
    ``fresh`` holds (the same objects, as the rules' copies keep them)."""
    return (
        participant.stats is fresh.stats
        and participant.conditions is fresh.conditions
        and participant.hp == fresh.hp
        and participant.temp_hp == fresh.temp_hp
        and participant.max_hp == fresh.max_hp
        and participant.threshold == fresh.threshold
    )


def refresh_from(state: Encounter, characters: Linked) -> Encounter:
    """``state`` with each linked participant refreshed from ``characters`` (pure)."""
    for participant in state.participants:
        character, _ = characters.get(participant.character_id or 0, (None, 0))
        if character is None:
            continue
        key = (character.id, participant.id)
        known = _FRESH.get(key)
        if known is not None and known[0] is character:
            if known[1] is participant:
                continue
            if _same_snapshot(known[1], participant):
                # A new value with the snapshot of one already up to date (a new round
                # rolls everyone anew): up to date too, without working it out again.
                _FRESH[key] = (character, participant)
                continue
        values = character.effective
        stats = initiative_stats(values)
        if not _up_to_date(participant, character, values, stats):
            state = refresh_participant(
                state,
                participant.id,
                stats=stats,
                hp=character.state.hp,
                max_hp=values.max_hp,
                temp_hp=character.state.temp_hp,
                threshold=values.threshold,
                conditions=character.state.conditions,
            )
            participant = state.participant(participant.id)
        if len(_FRESH) >= FRESH_CACHE_SIZE:
            _FRESH.pop(next(iter(_FRESH)))  # the oldest entry: a bound, not an LRU
        _FRESH[key] = (character, participant)
    # A character who started dying (a hit, /condition) starts its test clock now.
    return update_clocks(state)
