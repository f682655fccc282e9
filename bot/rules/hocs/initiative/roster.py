"""Who is in the encounter: finding by name, joining, leaving, refreshing snapshots,
and the end-of-encounter summary.

Rulings:

* Removing the participant whose turn it is passes the turn to the next slot.
* Joining mid-round rolls at once and takes its place in the order; if that place
  has already passed, its first turn is next round.
* A participant name and a group name never coincide, so a name always means one
  participant or one whole group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative.events import Event, Joined, Removed
from bot.rules.hocs.initiative.model import (
    Encounter,
    NewParticipant,
    Participant,
    with_updated,
)
from bot.rules.hocs.initiative.order import roll_slot, slot_key
from bot.rules.hocs.initiative.turns import advance
from bot.rules.hocs.initiative.values import (
    MAX_NAME,
    MAX_PARTICIPANTS,
    InitiativeStats,
    check_name,
)


def find(enc: Encounter, name: str) -> tuple[Participant, ...]:
    """Participants by name, or every member of a group by the group's name.

    Raises RulesError naming what to do when nobody matches.
    """
    key = normalise_name(name)
    exact = tuple(p for p in enc.participants if p.key == key)
    if exact:
        return exact
    group = tuple(p for p in enc.participants if p.group_key == key)
    if group:
        return group
    shown = name.strip()[:MAX_NAME]
    raise RulesError(f"Nobody called “{shown}” is in this encounter: check /init list.")


def find_one(enc: Encounter, name: str) -> Participant:
    found = find(enc, name)
    if len(found) > 1:
        raise RulesError(f"“{found[0].group}” is a group: name one of its members.")
    return found[0]


def add_participants(
    enc: Encounter, new: Sequence[NewParticipant], dice: Dice
) -> tuple[Encounter, list[Event]]:
    """Add participants (names must be free). Mid-round, new slots roll at once and take
    their place in the order; a member joining an existing group shares its slot."""
    if not new:
        raise RulesError("Nobody to add.")
    if len(enc.participants) + len(new) > MAX_PARTICIPANTS:
        raise RulesError(
            f"An encounter holds at most {MAX_PARTICIPANTS} participants;"
            f" it has {len(enc.participants)}. Remove some first."
        )
    taken = {p.key for p in enc.participants}
    groups = {p.group_key: p for p in enc.participants if p.group_key}
    added_groups: dict[str, bool] = {}
    # A name finds a participant or a whole group, so the two kinds of name never clash.
    group_names = {normalise_name(spec.group) for spec in new if spec.group} | set(groups)
    added: list[Participant] = []
    next_id = enc.next_id
    for spec in new:
        name = check_name(spec.name)
        if normalise_name(name) in taken:
            raise RulesError(f"{name} is already in this encounter: pick another name.")
        if normalise_name(name) in group_names:
            raise RulesError(f"{name} is the name of a group here: pick another name.")
        if spec.character_id is not None and any(
            p.character_id == spec.character_id for p in (*enc.participants, *added)
        ):
            raise RulesError(f"{name} is already in this encounter.")
        group = check_name(spec.group) if spec.group else None
        if group is not None and normalise_name(group) in taken:
            raise RulesError(f"{group} is a participant's name here: name the group otherwise.")
        if group is not None:
            other = groups.get(normalise_name(group))
            if other is not None and other.side is not spec.side:
                raise RulesError(f"The group {other.group} are {other.side.title.lower()}s.")
        taken.add(normalise_name(name))
        group_roll = False
        if group is not None:
            # A group keeps the way it was added: group initiative or one roll each.
            existing = groups.get(normalise_name(group))
            group_roll = existing.group_roll if existing is not None else spec.group_roll
            group_roll = added_groups.setdefault(normalise_name(group), group_roll)
        participant = Participant(
            id=next_id,
            name=name,
            side=spec.side,
            stats=spec.stats,
            owner_id=spec.owner_id,
            character_id=spec.character_id,
            group=group,
            group_roll=group_roll,
            hp=spec.hp,
            max_hp=spec.max_hp,
            temp_hp=spec.temp_hp,
            threshold=spec.threshold,
            conditions=spec.conditions,
        )
        if group is not None:
            groups.setdefault(normalise_name(group), participant)
        added.append(participant)
        next_id += 1
    enc = replace(enc, participants=(*enc.participants, *added), next_id=next_id)
    events: list[Event] = []
    if not enc.started:
        events += [Joined(p.id, p.name, None, True) for p in added]
        return enc, events
    for participant in added:
        enc, event = _place_mid_round(enc, participant.id, dice)
        events.append(event)
    return enc, events


def _place_mid_round(enc: Encounter, participant_id: int, dice: Dice) -> tuple[Encounter, Joined]:
    participant = enc.participant(participant_id)
    group_key = participant.turn_key
    if group_key is not None:
        for index, slot in enumerate(enc.order):
            first = enc.participant(slot[0])
            if first.turn_key == group_key:
                joined = replace(participant, roll=first.roll)
                order = list(enc.order)
                order[index] = (*slot, participant_id)
                enc = replace(with_updated(enc, joined), order=tuple(order))
                acts = enc.current is not None and index > enc.current
                successes = first.roll.successes if first.roll else None
                return enc, Joined(participant_id, participant.name, successes, acts)
    roll = roll_slot(enc, (participant_id,), dice)
    enc = with_updated(enc, replace(participant, roll=roll, preset=None))
    key = slot_key(enc, (participant_id,))
    position = sum(1 for slot in enc.order if slot_key(enc, slot) < key)
    current = enc.current
    if current is not None and position <= current:
        current += 1
    order = (*enc.order[:position], (participant_id,), *enc.order[position:])
    enc = replace(enc, order=order, current=current)
    acts = current is None or position > current
    return enc, Joined(participant_id, participant.name, roll.successes, acts)


def remove_participants(
    enc: Encounter, participant_ids: Sequence[int], dice: Dice
) -> tuple[Encounter, list[Event]]:
    """Remove participants; if the current slot empties, the next slot's turn starts."""
    gone = set(participant_ids)
    removed = [p for p in enc.participants if p.id in gone]
    if not removed:
        raise RulesError("Nobody to remove.")
    events: list[Event] = [Removed(p.id, p.name) for p in removed]
    current_emptied = enc.current_slot is not None and set(enc.current_slot) <= gone
    order: list[tuple[int, ...]] = []
    current = enc.current
    for index, slot in enumerate(enc.order):
        kept = tuple(i for i in slot if i not in gone)
        if kept:
            order.append(kept)
        elif current is not None and index < current:
            current -= 1
    enc = replace(
        enc,
        participants=tuple(p for p in enc.participants if p.id not in gone),
        order=tuple(order),
        current=current,
    )
    if not enc.participants:
        return replace(enc, order=(), current=None), events
    if current_emptied and current is not None:
        # The removed participant's turn is over: the slot now at its index starts.
        enc, more = advance(replace(enc, current=current - 1), dice)
        events += more
        enc = replace(enc, turn=enc.turn + 1)
    return enc, events


def refresh_participant(
    enc: Encounter,
    participant_id: int,
    *,
    name: str | None = None,
    stats: InitiativeStats | None = None,
    hp: int | None = None,
    max_hp: int | None = None,
    temp_hp: int = 0,
    threshold: int | None = None,
    conditions: Conditions | None = None,
) -> Encounter:
    """Replace a linked participant's snapshot with its character's current values."""
    p = enc.participant(participant_id)
    if stats is not None:
        # The sheet gives the pool; the GM's bonuses are the tracker's own.
        stats = replace(stats, bonus=p.stats.bonus, boons=p.stats.boons)
    updated = replace(
        p,
        name=check_name(name) if name else p.name,
        stats=stats or p.stats,
        hp=hp,
        max_hp=max_hp,
        temp_hp=temp_hp,
        threshold=threshold,
        conditions=conditions if conditions is not None else p.conditions,
    )
    return with_updated(enc, updated)


def status_word(p: Participant) -> str:
    """A one-word state for NPCs whose hit points the table doesn't see."""
    if p.is_dead:
        return "dead"
    if Condition.DYING in p.conditions:
        return "dying"
    if Condition.UNCONSCIOUS in p.conditions:
        return "unconscious"
    if p.hp is not None and p.max_hp:
        if p.hp <= 0:
            return "down"
        if p.hp >= p.max_hp:
            return "unhurt"
        return "hurt" if p.hp * 2 > p.max_hp else "bloodied"
    if Condition.STAGGERED in p.conditions:
        return "staggered"
    return "standing"


@dataclass(frozen=True)
class Summary:
    rounds: int
    turns: int
    standing: tuple[Participant, ...]
    down: tuple[Participant, ...]


def summarise(enc: Encounter) -> Summary:
    return Summary(
        rounds=enc.round,
        turns=enc.turn,
        standing=tuple(p for p in enc.participants if not p.is_down),
        down=tuple(p for p in enc.participants if p.is_down),
    )
