"""A round's order: slots, rolling initiative, tie-breaks and results set by hand.

Rulings:

* Order: most successes first; ties go to player characters, then allies, then
  antagonists; a tie that remains keeps the order they joined the encounter.
* Every round re-rolls everyone (agility, or presence in a social encounter, +
  training + expertise in initiative; staggered and fatigued add their banes, and so
  do a sheet character's injuries that give banes to that attribute's rolls: a broken
  torso to agility, a fractured skull to every roll).
  A result the GM sets by hand replaces the roll: for a slot still to act this
  round at once (the rest of the round is re-sorted), otherwise for the next roll.
* "All characters involved make an initiative skill roll": each member of a group
  rolls and acts on its own. With group initiative (the GM's choice when adding it)
  the group acts on one roll: once per round with its first member's pool and
  conditions (dead members are passed over), all its members on one turn.
* "Any other bonuses": bonus dice and boons the GM gives a participant join its pool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import skill_roll_banes
from bot.rules.hocs.initiative.effects import expire
from bot.rules.hocs.initiative.events import BonusSet, Event, ResultSet, RoundStarted, SlotRoll
from bot.rules.hocs.initiative.model import Encounter, Participant, with_updated
from bot.rules.hocs.initiative.values import MAX_SUCCESSES, InitiativeRoll, Spent, bounded
from bot.rules.hocs.modifiers import MAX_MODIFIER, MAX_POOL_DICE, dice_change_for_net
from bot.rules.hocs.pool import SIDES, SUCCESS_FACE, DieOrigin, DieRoll, PoolSpec
from bot.rules.hocs.rolling import checked_face, roll_pool


def join_slots(participants: Iterable[Participant]) -> list[tuple[int, ...]]:
    """Slots in join order: a group initiative's members together, everyone else alone."""
    groups: dict[str, list[int]] = {}
    slots: list[list[int]] = []
    for p in sorted(participants, key=lambda q: q.id):
        key = p.turn_key
        if key is None:
            slots.append([p.id])
        elif key in groups:
            groups[key].append(p.id)
        else:
            groups[key] = [p.id]
            slots.append(groups[key])
    return [tuple(slot) for slot in slots]


def slot_leader(members: Sequence[Participant]) -> Participant:
    """The member whose pool a slot rolls: the first one that isn't dead."""
    alive = [m for m in members if not m.is_dead]
    return (alive or list(members))[0]


def slot_key(enc: Encounter, slot: Sequence[int]) -> tuple[int, int, int]:
    """Sort key for the order: successes, then side, then join order."""
    members = enc.slot_members(slot)
    leader = slot_leader(members)
    successes = leader.roll.successes if leader.roll else -1
    return (-successes, leader.side.rank, min(slot))


def slot_down(members: Sequence[Participant]) -> bool:
    """Every member of the slot is down."""
    return all(m.is_down for m in members)


def roll_slot(enc: Encounter, slot: Sequence[int], dice: Dice) -> InitiativeRoll:
    """One initiative roll for a slot (a preset result is used instead of dice)."""
    return _roll(slot_leader(enc.slot_members(slot)), social=enc.social, dice=dice)


def _roll(leader: Participant, *, social: bool, dice: Dice) -> InitiativeRoll:
    if leader.preset is not None:
        return InitiativeRoll(successes=leader.preset, manual=True)
    stats = leader.stats
    banes = skill_roll_banes(leader.conditions) + stats.banes(social=social)
    banes = min(MAX_MODIFIER, banes)
    base, boons = stats.base(social=social), stats.boons
    if not (
        type(base) is int
        and type(boons) is int
        and type(banes) is int
        and 0 <= base <= MAX_POOL_DICE
        and 0 <= boons <= MAX_MODIFIER
        and 0 <= banes
    ):  # PoolSpec words the refusal (no dice are asked for first)
        return _rolled(PoolSpec(base=base, boons=boons, banes=banes), banes, dice)
    # roll_pool's work for an initiative pool (no rerolls, focus or guarantees, and
    # its one extra die a boon die, which never explodes), without the PoolSpec,
    # DieRolls and PoolResult a slot threw away: the same faces asked for in the same
    # order, the same count of 4–6s. Most of a new round's cost was those objects.
    net = boons - banes
    count = base + dice_change_for_net(net)
    roll = dice.roll
    faces: list[int] = []
    successes = 0
    for _ in range(count if count > 0 else 0):
        face = roll(SIDES)
        if type(face) is not int or not 1 <= face <= SIDES:
            # refused as roll_pool refuses it (a face it would keep, it keeps)
            die = DieRoll(origin=DieOrigin.BASE, first_face=checked_face(face))
            face = die.final_face
        faces.append(face)
        if face >= SUCCESS_FACE:
            successes += 1
    return InitiativeRoll(successes=successes, faces=tuple(faces), banes=banes)


def _rolled(spec: PoolSpec, banes: int, dice: Dice) -> InitiativeRoll:
    result = roll_pool(spec, dice)
    return InitiativeRoll(
        successes=result.successes,
        faces=tuple(d.final_face for d in result.dice),
        banes=banes,
    )


def _slot_roll_event(members: Sequence[Participant], roll: InitiativeRoll) -> SlotRoll:
    return SlotRoll(
        participant_ids=tuple(m.id for m in members),
        names=tuple(m.name for m in members),
        group=members[0].group if members[0].group_roll else None,
        successes=roll.successes,
        faces=roll.faces,
        banes=roll.banes,
        manual=roll.manual,
    )


def _renewed(p: Participant, roll: InitiativeRoll) -> Participant:
    """``replace(p, spent=Spent(), roll=roll, preset=None)`` without running the
    dataclass's ``__init__`` again (a participant has no checks to repeat and these
    three values are valid): a new round renews every participant, and ``replace``
    cost about 12 µs each where copying the fields costs about 1."""
    renewed = object.__new__(Participant)
    fields = renewed.__dict__
    fields.update(p.__dict__)
    fields["spent"] = _NOTHING_SPENT
    fields["roll"] = roll
    fields["preset"] = None
    return renewed


_NOTHING_SPENT = Spent()  # (frozen: every renewed participant may share it)


def start_round(enc: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
    """Begin the next round: every slot rolls, actions reset, overdue effects end.

    The new round has no current turn yet; ``next_turn`` starts its first one.
    """
    if not enc.participants:
        raise RulesError("Nobody is in this encounter yet: add participants or /init join.")
    if enc.round >= 10_000:
        raise RulesError("This encounter has run 10,000 rounds: end it and begin a new one.")
    new_round = enc.round + 1
    events: list[Event] = []
    # Worked on by id and copied once each at the end: a copy of the whole encounter
    # per participant changed (``with_updated``) was most of a new round's cost.
    by_id: dict[int, Participant] = {}
    for participant in enc.participants:
        overdue = [
            e for e in participant.effects
            if e.expires_round is not None and e.expires_round < new_round
        ]  # fmt: skip
        if overdue:
            participant, more = expire(participant, overdue)
            events += more
        by_id[participant.id] = participant
    slots = join_slots(by_id.values())
    rolls: dict[int, InitiativeRoll] = {}
    keys: dict[tuple[int, ...], tuple[int, int, int]] = {}
    for slot in slots:  # in join order: the order the dice are asked for
        leader = slot_leader([by_id[i] for i in slot])
        roll = _roll(leader, social=enc.social, dice=dice)
        rolls.update((i, roll) for i in slot)
        keys[slot] = (-roll.successes, leader.side.rank, min(slot))  # as ``slot_key``
    by_id = {pid: _renewed(p, rolls[pid]) for pid, p in by_id.items()}
    participants = tuple(by_id.values())
    order = tuple(sorted(slots, key=keys.__getitem__))
    enc = replace(enc, round=new_round, participants=participants, order=order, current=None)
    slot_rolls = tuple(_slot_roll_event([by_id[i] for i in s], rolls[s[0]]) for s in order)
    return enc, [RoundStarted(new_round, slot_rolls), *events]


def set_result(
    enc: Encounter, participant_ids: Sequence[int], successes: int
) -> tuple[Encounter, list[Event]]:
    """The GM sets a slot's initiative by hand (see the module's rulings)."""
    bounded(successes, 0, MAX_SUCCESSES, "Successes")
    slot_index = enc.slot_of(participant_ids[0])
    if slot_index is not None:
        slot = enc.order[slot_index]
    else:
        slot = next(s for s in join_slots(enc.participants) if participant_ids[0] in s)
    members = enc.slot_members(slot)
    still_to_act = slot_index is not None and (enc.current is None or slot_index > enc.current)
    if not still_to_act:
        enc = with_updated(enc, *(replace(m, preset=successes) for m in members))
        return enc, [ResultSet(tuple(slot), successes, False)]
    roll = InitiativeRoll(successes=successes, manual=True)
    enc = with_updated(enc, *(replace(m, roll=roll, preset=None) for m in members))
    start = 0 if enc.current is None else enc.current + 1
    rest = sorted(enc.order[start:], key=lambda s: slot_key(enc, s))
    enc = replace(enc, order=(*enc.order[:start], *rest))
    return enc, [ResultSet(tuple(slot), successes, True)]


def set_bonus(
    enc: Encounter,
    participant_ids: Sequence[int],
    *,
    bonus: int | None = None,
    boons: int | None = None,
) -> tuple[Encounter, list[Event]]:
    """The GM's "any other bonuses": bonus dice and boons for these participants' rolls
    from the next one on (``None`` keeps the current value)."""
    if not participant_ids:
        raise RulesError("Nobody to give a bonus to.")
    updated = []
    for participant_id in participant_ids:
        p = enc.participant(participant_id)
        stats = replace(
            p.stats,
            bonus=p.stats.bonus if bonus is None else bonus,
            boons=p.stats.boons if boons is None else boons,
        )
        updated.append(replace(p, stats=stats))
    enc = with_updated(enc, *updated)
    first = updated[0].stats
    return enc, [BonusSet(tuple(participant_ids), first.bonus, first.boons)]
