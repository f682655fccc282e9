"""The encounter as plain JSON-ready data, so a tracker can store it and survive restarts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.initiative.model import (
    MOVEMENT_FEET,
    Action,
    Combatant,
    Encounter,
    PendingSpell,
    Phase,
    Sacrifice,
    Side,
    TurnState,
)

VERSION = 1


def _side(value: str | None) -> Side | None:
    return None if value is None else Side(value)


def _sides(values: list[str]) -> frozenset[Side]:
    return frozenset(Side(v) for v in values)


def _sorted(sides: frozenset[Side]) -> list[str]:
    return sorted(s.value for s in sides)


def _pending_to_dict(pending: PendingSpell | None) -> dict[str, Any] | None:
    return None if pending is None else {"due": pending.due, "attacked": pending.attacked}


def _pending_from_dict(data: Mapping[str, Any] | None) -> PendingSpell | None:
    # None also for encounters stored before interrupted spells were tracked.
    if data is None:
        return None
    return PendingSpell(due=int(data["due"]), attacked=bool(data["attacked"]))


def _names(data: Any) -> tuple[str, ...]:
    """Unloaded crossbows or dropped weapons: a list of weapon names."""
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise TypeError("a list of weapon names")
    return tuple(data)


def _combatant_id(data: Any) -> int | None:
    if data is None:
        return None
    if isinstance(data, bool) or not isinstance(data, int):
        raise TypeError("a pinner or a held opponent is a combatant id")
    return data


def encounter_to_dict(enc: Encounter) -> dict[str, Any]:
    return {
        "version": VERSION,
        "combatants": [
            {
                "id": c.id,
                "name": c.name,
                "side": c.side.value,
                "finesse": c.finesse,
                "reach": c.reach,
                "aware": c.aware,
                "down": c.down,
                "movement": c.movement,
                "pending_spell": _pending_to_dict(c.pending_spell),
                "unloaded": list(c.unloaded),
                "pinned_by": c.pinned_by,
                "dropped": list(c.dropped),
                "holding": c.holding,
                "hold_until": c.hold_until,
            }
            for c in enc.combatants
        ],
        "round": enc.round,
        "phase": enc.phase.value,
        "surprised": enc.surprised.value if enc.surprised else None,
        "first": enc.first.value if enc.first else None,
        "acting": enc.acting.value if enc.acting else None,
        "sides_done": enc.sides_done,
        "states": [
            {
                "id": cid,
                "actions": sorted(a.value for a in s.actions),
                "sacrificed": s.sacrificed.value if s.sacrificed else None,
                "feet_moved": s.feet_moved,
                "declared_reaction": s.declared_reaction,
                "defending": s.defending.value if s.defending else None,
                "declared_spell": s.declared_spell,
                "reaction_used": s.reaction_used,
                "parry": s.parry,
                "extra_attacks": s.extra_attacks,
                "spell_cast": s.spell_cast,
                "attacked_casting": s.attacked_casting,
                "spell_interrupted": s.spell_interrupted,
                "spell_ready": s.spell_ready,
                "offhand_attack": s.offhand_attack,
                "strength_attack": s.strength_attack,
            }
            for cid, s in enc.states
        ],
        "standing_at_start": {s.value: n for s, n in enc.standing_at_start},
        "downed_this_round": {s.value: n for s, n in enc.downed_this_round},
        "lost_momentum": _sorted(enc.lost_momentum),
        "disengaged": _sorted(enc.disengaged),
        "advantaged": _sorted(enc.advantaged),
    }


def encounter_from_dict(data: Mapping[str, Any]) -> Encounter:
    """Rebuild an encounter; RulesError (one sentence) if the stored data is damaged."""
    try:
        if data["version"] != VERSION:
            raise RulesError("This encounter was saved by a newer bot; update the bot.")
        states = tuple(
            (
                int(s["id"]),
                TurnState(
                    actions=frozenset(Action(a) for a in s["actions"]),
                    sacrificed=Sacrifice(s["sacrificed"]) if s["sacrificed"] else None,
                    feet_moved=int(s["feet_moved"]),
                    declared_reaction=s["declared_reaction"],
                    # Absent from encounters stored before defense rolls were declared.
                    defending=Attribute(s["defending"]) if s.get("defending") else None,
                    declared_spell=bool(s["declared_spell"]),
                    reaction_used=bool(s["reaction_used"]),
                    parry=int(s["parry"]),
                    extra_attacks=int(s["extra_attacks"]),
                    # Absent from encounters stored before /cast marked the tracker.
                    spell_cast=bool(s.get("spell_cast", False)),
                    attacked_casting=bool(s.get("attacked_casting", False)),
                    # Absent from encounters stored before interrupted spells were tracked.
                    spell_interrupted=bool(s.get("spell_interrupted", False)),
                    spell_ready=bool(s.get("spell_ready", False)),
                    # Absent from encounters stored before two-weapon fighting was tracked.
                    offhand_attack=bool(s.get("offhand_attack", False)),
                    strength_attack=bool(s.get("strength_attack", False)),
                ),
            )
            for s in data["states"]
        )
        return Encounter(
            combatants=tuple(
                Combatant(
                    id=int(c["id"]),
                    name=str(c["name"]),
                    side=Side(c["side"]),
                    finesse=int(c["finesse"]),
                    reach=bool(c["reach"]),
                    aware=bool(c["aware"]),
                    down=bool(c["down"]),
                    # Encounters saved before encumbrance slowed anyone move 30 feet.
                    movement=int(c.get("movement", MOVEMENT_FEET)),
                    pending_spell=_pending_from_dict(c.get("pending_spell")),
                    # Encounters stored before crossbows were tracked: all loaded.
                    unloaded=_names(c.get("unloaded", [])),
                    # Encounters stored before pins and disarms were tracked: none.
                    pinned_by=_combatant_id(c.get("pinned_by")),
                    dropped=_names(c.get("dropped", [])),
                    # Absent from encounters stored before opponents were wielded (holds).
                    holding=_combatant_id(c.get("holding")),
                    hold_until=int(c.get("hold_until", 0)),
                )
                for c in data["combatants"]
            ),
            round=int(data["round"]),
            phase=Phase(data["phase"]),
            surprised=_side(data["surprised"]),
            first=_side(data["first"]),
            acting=_side(data["acting"]),
            sides_done=int(data["sides_done"]),
            states=tuple(sorted(states)),
            standing_at_start=tuple(
                (Side(k), int(v)) for k, v in data["standing_at_start"].items()
            ),
            downed_this_round=tuple(
                (Side(k), int(v)) for k, v in data["downed_this_round"].items()
            ),
            lost_momentum=_sides(data["lost_momentum"]),
            disengaged=_sides(data["disengaged"]),
            advantaged=_sides(data["advantaged"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError("This stored encounter is damaged; end it and start a new one.") from exc
