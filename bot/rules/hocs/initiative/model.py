"""The tracker's state: participants, the encounter, and their saved form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.conditions import (
    NO_CONDITIONS,
    ActionAllowance,
    Condition,
    Conditions,
    actions_per_turn,
)
from bot.rules.hocs.initiative.values import (
    Effect,
    InitiativeRoll,
    InitiativeStats,
    RecoveryClock,
    Side,
    Spent,
)

SERIAL_VERSION = 1

DOWN_CONDITIONS = (Condition.DEAD, Condition.DYING, Condition.UNCONSCIOUS)


@dataclass(frozen=True, kw_only=True)
class Participant:
    """One combatant. ``id`` grows with each addition, so it is also the join order.

    For a participant linked to a character (``character_id``) the hit points and
    conditions are a snapshot the cog refreshes from the character each command;
    for a quick NPC they are the only record.
    """

    id: int
    name: str
    side: Side
    stats: InitiativeStats
    owner_id: int | None = None  # the player who controls it and is pinged on its turn
    character_id: int | None = None
    group: str | None = None  # a name for several participants at once
    group_roll: bool = False  # group initiative: the group shares one roll and one turn
    hp: int | None = None
    max_hp: int | None = None
    temp_hp: int = 0
    threshold: int | None = None  # sheet characters only
    conditions: Conditions = NO_CONDITIONS
    effects: tuple[Effect, ...] = ()
    roll: InitiativeRoll | None = None
    preset: int | None = None  # a result set by hand for the next roll
    spent: Spent = field(default_factory=Spent)
    extra_actions: int = 0  # a hero point's extra action, until the end of this turn
    clock: RecoveryClock | None = None  # the dying or unconscious test's schedule

    @property
    def key(self) -> str:
        return normalise_name(self.name)

    @property
    def group_key(self) -> str | None:
        return normalise_name(self.group) if self.group else None

    @property
    def turn_key(self) -> str | None:
        """The group whose single roll and turn this participant shares, if any."""
        return self.group_key if self.group_roll else None

    @property
    def is_down(self) -> bool:
        """Unconscious, dying or dead — or a quick NPC at 0 hit points or fewer."""
        if any(c in self.conditions for c in DOWN_CONDITIONS):
            return True
        return self.threshold is None and self.hp is not None and self.hp <= 0

    @property
    def is_dead(self) -> bool:
        return Condition.DEAD in self.conditions

    @property
    def allowance(self) -> ActionAllowance:
        """What the conditions allow this round, plus any extra action (hero point)."""
        if self.is_down:
            return ActionAllowance(actions=0, quick_actions=0, reactions=0)
        allowance = actions_per_turn(self.conditions)
        if self.extra_actions:
            allowance = replace(allowance, actions=allowance.actions + self.extra_actions)
        return allowance

    @property
    def either_or_limit(self) -> int:
        """Staggered: actions and quick actions together, the extra action on top."""
        return 1 + self.extra_actions


@dataclass(frozen=True, kw_only=True)
class NewParticipant:
    """What ``add_participants`` needs to know about someone joining."""

    name: str
    side: Side
    stats: InitiativeStats
    owner_id: int | None = None
    character_id: int | None = None
    group: str | None = None
    group_roll: bool = False
    hp: int | None = None
    max_hp: int | None = None
    temp_hp: int = 0
    threshold: int | None = None
    conditions: Conditions = NO_CONDITIONS


@dataclass(frozen=True, kw_only=True)
class Encounter:
    """The whole tracker. ``order`` lists this round's slots (tuples of participant
    ids: one id, or a group's members); ``current`` indexes it; ``turn`` counts turn
    changes (each next, prev and move adds one)."""

    social: bool = False
    skip_down: bool = False
    show_npc_hp: bool = False
    round: int = 0
    order: tuple[tuple[int, ...], ...] = ()
    current: int | None = None
    turn: int = 0
    participants: tuple[Participant, ...] = ()
    next_id: int = 1
    next_effect_id: int = 1

    def participant(self, participant_id: int) -> Participant:
        for p in self.participants:
            if p.id == participant_id:
                return p
        raise RulesError("That participant has left the encounter.")

    def get(self, participant_id: int) -> Participant | None:
        return next((p for p in self.participants if p.id == participant_id), None)

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def current_slot(self) -> tuple[int, ...] | None:
        if self.current is None or not 0 <= self.current < len(self.order):
            return None
        return self.order[self.current]

    @property
    def current_participants(self) -> tuple[Participant, ...]:
        slot = self.current_slot
        return tuple(self.participant(i) for i in slot) if slot else ()

    def slot_of(self, participant_id: int) -> int | None:
        for index, slot in enumerate(self.order):
            if participant_id in slot:
                return index
        return None

    def slot_members(self, slot: Sequence[int]) -> tuple[Participant, ...]:
        return tuple(self.participant(i) for i in slot)

    def waiting(self) -> tuple[Participant, ...]:
        """Participants not yet placed in an order (before the first round)."""
        placed = {i for slot in self.order for i in slot}
        return tuple(p for p in self.participants if p.id not in placed)

    def to_dict(self) -> dict[str, Any]:
        return encounter_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Encounter:
        return encounter_from_dict(data)


def with_updated(enc: Encounter, *updated: Participant) -> Encounter:
    """The encounter with these participants replaced (matched by id)."""
    by_id = {p.id: p for p in updated}
    return replace(enc, participants=tuple(by_id.get(p.id, p) for p in enc.participants))


def participant_to_dict(p: Participant) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "side": p.side.value,
        "stats": p.stats.to_dict(),
        "owner_id": p.owner_id,
        "character_id": p.character_id,
        "group": p.group,
        "group_roll": p.group_roll,
        "hp": p.hp,
        "max_hp": p.max_hp,
        "temp_hp": p.temp_hp,
        "threshold": p.threshold,
        "conditions": p.conditions.to_dict(),
        "effects": [e.to_dict() for e in p.effects],
        "roll": p.roll.to_dict() if p.roll else None,
        "preset": p.preset,
        "spent": {
            "actions": p.spent.actions,
            "quick": p.spent.quick,
            "reactions": p.spent.reactions,
        },
        "extra_actions": p.extra_actions,
        "clock": p.clock.to_dict() if p.clock else None,
    }


def participant_from_dict(data: Mapping[str, Any]) -> Participant:
    spent = data.get("spent") or {}
    return Participant(
        id=int(data["id"]),
        name=str(data["name"]),
        side=Side(data["side"]),
        stats=InitiativeStats.from_dict(data["stats"]),
        owner_id=data.get("owner_id"),
        character_id=data.get("character_id"),
        group=data.get("group"),
        group_roll=bool(data.get("group_roll", False)),
        hp=data.get("hp"),
        max_hp=data.get("max_hp"),
        temp_hp=int(data.get("temp_hp") or 0),
        threshold=data.get("threshold"),
        conditions=Conditions.from_dict(data.get("conditions") or {}),
        effects=tuple(Effect.from_dict(e) for e in data.get("effects") or ()),
        roll=InitiativeRoll.from_dict(data["roll"]) if data.get("roll") else None,
        preset=data.get("preset"),
        spent=Spent(
            actions=int(spent.get("actions", 0)),
            quick=int(spent.get("quick", 0)),
            reactions=int(spent.get("reactions", 0)),
        ),
        extra_actions=int(data.get("extra_actions", 0)),
        clock=RecoveryClock.from_dict(data["clock"]) if data.get("clock") else None,
    )


def encounter_to_dict(enc: Encounter) -> dict[str, Any]:
    return {
        "version": SERIAL_VERSION,
        "social": enc.social,
        "skip_down": enc.skip_down,
        "show_npc_hp": enc.show_npc_hp,
        "round": enc.round,
        "order": [list(slot) for slot in enc.order],
        "current": enc.current,
        "turn": enc.turn,
        "participants": [participant_to_dict(p) for p in enc.participants],
        "next_id": enc.next_id,
        "next_effect_id": enc.next_effect_id,
    }


def encounter_from_dict(data: Mapping[str, Any]) -> Encounter:
    try:
        if data.get("version", SERIAL_VERSION) != SERIAL_VERSION:
            raise RulesError("This encounter was saved by another bot version: begin a new one.")
        enc = Encounter(
            social=bool(data.get("social", False)),
            skip_down=bool(data.get("skip_down", False)),
            show_npc_hp=bool(data.get("show_npc_hp", False)),
            round=int(data.get("round", 0)),
            order=tuple(tuple(int(i) for i in slot) for slot in data.get("order", ())),
            current=data.get("current"),
            turn=int(data.get("turn", 0)),
            participants=tuple(participant_from_dict(p) for p in data.get("participants", ())),
            next_id=int(data.get("next_id", 1)),
            next_effect_id=int(data.get("next_effect_id", 1)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError(
            "This encounter's saved state is damaged: end it and begin again."
        ) from exc
    ids = {p.id for p in enc.participants}
    placed = [i for slot in enc.order for i in slot]
    if len(placed) != len(set(placed)) or not set(placed) <= ids:
        raise RulesError("This encounter's saved order is damaged: end it and begin again.")
    return enc
