"""Timed conditions and what happens at the start of a participant's turn.

Rulings:

* A timed condition "lasts N rounds": it ends at the start of the affected
  participant's turn N rounds after the round it was added in (added before the
  first round counts as round 1). If that turn never comes it ends when the
  following round starts.
* Start of a turn: timed conditions expire first, then bleeding takes its value in
  hit points (temporary hit points first; it is hit point loss, so toughness does
  not reduce it), then dying, unconscious, staggered and slow are noted. A sheet
  character pushed beyond its threshold dies; inside it a threshold test is due
  (difficulty = hit points lost). A quick NPC with tracked hit points is down at 0.
  Last, a dying or unconscious test whose round has come falls due (``clock``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, ConditionKind, Conditions
from bot.rules.hocs.initiative.clock import test_falls_due
from bot.rules.hocs.initiative.events import (
    BleedingTick,
    ConditionNote,
    Died,
    EffectAdded,
    EffectCleared,
    EffectExpired,
    Event,
    ThresholdTestDue,
)
from bot.rules.hocs.initiative.model import Encounter, Participant, with_updated
from bot.rules.hocs.initiative.values import MAX_ROUNDS, Effect, bounded

NOTED_CONDITIONS = (Condition.DYING, Condition.UNCONSCIOUS, Condition.STAGGERED, Condition.SLOW)


def start_of_turn(p: Participant, round_: int) -> tuple[Participant, list[Event]]:
    """Expiries, bleeding and condition notes as ``p``'s turn starts (see the rulings)."""
    events: list[Event] = []
    due = [e for e in p.effects if e.expires_round is not None and e.expires_round <= round_]
    if due:
        p, more = expire(p, due)
        events += more
    if p.is_dead:
        return p, events
    bleeding = p.conditions.value(Condition.BLEEDING)
    if bleeding:
        p, more = _bleed(p, bleeding)
        events += more
    for condition in NOTED_CONDITIONS:
        if condition in p.conditions and not p.is_dead:
            events.append(ConditionNote(p.id, p.name, condition))
    p, due = test_falls_due(p, round_)
    events += due
    return p, events


def expire(p: Participant, effects: Sequence[Effect]) -> tuple[Participant, list[Event]]:
    """End these timed effects, taking away what they added."""
    ids = {e.id for e in effects}
    conditions = p.conditions
    events: list[Event] = []
    for effect in effects:
        conditions = _take_away(conditions, effect.condition, effect.value)
        events.append(EffectExpired(p.id, p.name, p.character_id, effect.condition, effect.value))
    remaining = tuple(e for e in p.effects if e.id not in ids)
    return replace(p, conditions=conditions, effects=remaining), events


def _take_away(conditions: Conditions, condition: Condition, value: int) -> Conditions:
    """Stacking conditions lose the instances an effect added; others go entirely."""
    if condition.kind is ConditionKind.STACKS:
        left = conditions.value(condition) - value
        conditions = conditions.remove(condition)
        return conditions.add(condition, left) if left > 0 else conditions
    return conditions.remove(condition)


def _bleed(p: Participant, amount: int) -> tuple[Participant, list[Event]]:
    absorbed = min(p.temp_hp, amount)
    lost = amount - absorbed
    if p.hp is None:
        return p, [BleedingTick(p.id, p.name, p.character_id, amount, 0, None)]
    hp = p.hp - lost
    p = replace(p, hp=hp, temp_hp=p.temp_hp - absorbed)
    events: list[Event] = [BleedingTick(p.id, p.name, p.character_id, amount, absorbed, hp)]
    if lost == 0:
        return p, events
    if p.threshold is not None:
        if hp < p.threshold:
            p = replace(p, conditions=p.conditions.add(Condition.DEAD))
            events.append(Died(p.id, p.name, p.character_id, "bled beyond their threshold"))
        elif hp <= 0:
            events.append(ThresholdTestDue(p.id, p.name, lost))
    elif hp <= 0:
        p = replace(p, conditions=p.conditions.add(Condition.DEAD))
        events.append(Died(p.id, p.name, p.character_id, "bled to 0 hit points"))
    return p, events


def add_effect(
    enc: Encounter,
    participant_ids: Sequence[int],
    condition: Condition,
    *,
    value: int = 1,
    rounds: int | None = None,
) -> tuple[Encounter, list[Event]]:
    """Give participants a condition, for ``rounds`` rounds or until cleared."""
    if condition.kind is ConditionKind.FLAG:
        value = 1
    bounded(value, 1, 20, "A condition's value")
    if rounds is not None:
        bounded(rounds, 1, MAX_ROUNDS, "Rounds")
    added_round = max(enc.round, 1)
    expires = None if rounds is None else added_round + rounds
    events: list[Event] = []
    next_effect_id = enc.next_effect_id
    for participant_id in participant_ids:
        p = enc.participant(participant_id)
        conditions = p.conditions.add(condition, value)
        effects = p.effects
        if expires is not None:
            effect = Effect(
                id=next_effect_id,
                condition=condition,
                value=value,
                added_round=added_round,
                expires_round=expires,
            )
            if condition.kind is not ConditionKind.STACKS:
                # A new timer replaces the old one; stacked instances keep their own.
                effects = tuple(e for e in effects if e.condition is not condition)
            effects = (*effects, effect)
            next_effect_id += 1
        elif condition.kind is not ConditionKind.STACKS:
            effects = tuple(e for e in effects if e.condition is not condition)
        enc = with_updated(enc, replace(p, conditions=conditions, effects=effects))
        events.append(EffectAdded(p.id, p.name, condition, value, expires))
    return replace(enc, next_effect_id=next_effect_id), events


def clear_effect(
    enc: Encounter, participant_ids: Sequence[int], condition: Condition
) -> tuple[Encounter, list[Event]]:
    """Take a condition (and any timer on it) away from participants."""
    events: list[Event] = []
    for participant_id in participant_ids:
        p = enc.participant(participant_id)
        if condition not in p.conditions:
            continue
        enc = with_updated(
            enc,
            replace(
                p,
                conditions=p.conditions.remove(condition),
                effects=tuple(e for e in p.effects if e.condition is not condition),
            ),
        )
        events.append(EffectCleared(p.id, p.name, condition))
    if not events:
        raise RulesError(f"Nobody named there is {condition.value}.")
    return enc, events
