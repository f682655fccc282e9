"""Pins in a tracked fight: "A pinned opponent may be standing or forced prone. If forced
prone, both the attacker and defender are prone. A pinned opponent may make no movement
until they incur damage against the attacker and any attacks they make have
disadvantage. Any attacks the attacker makes against a pinned opponent have advantage."

The pinned combatant remembers its pinner (``Combatant.pinned_by``); the pinner's side
of it is a query (``pinning``). Prone lives on the sheets, so forcing both prone is the
caller's (``/attack`` marks the two sheets).

Rulings:

* ``pin-tracked``: a successful pin by a seated attacker on a seated target is kept on
  the tracker, in any phase (a pin made before the fight starts holds into it). A
  combatant is pinned by one at a time: a new pin by someone else takes it over. The
  pinned can't move (movement, dash, disengage, standing up are refused); the pinner
  moves freely, the bot keeping no positions, and lets go with /init act release.
* ``pin-ends``: the pin ends when the pinned deals damage to its pinner with /attack
  (damage of 1 or more, after armor), when either goes down or leaves the encounter,
  or when the pinner releases (/init act release, no action: it lets go of everyone it
  pins, at any time).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Combatant, Encounter, with_combatant


class PinEnd(Enum):
    DAMAGED = "damaged the pinner"
    DOWN = "down"
    RELEASED = "released"


@dataclass(frozen=True)
class PinStarted:
    pinner_id: int
    pinned_id: int
    prone: bool = False  # forced prone: both prone (the sheets are marked by /attack)
    taken_from: int | None = None  # the pinner it held before, if another


@dataclass(frozen=True)
class PinEnded:
    pinner_id: int
    pinned_id: int
    reason: PinEnd


def pinned_by(enc: Encounter, combatant_id: int) -> Combatant | None:
    """Who holds ``combatant_id`` in a pin, if anyone."""
    pinner = enc.combatant(combatant_id).pinned_by
    return None if pinner is None else enc.combatant(pinner)


def pinning(enc: Encounter, combatant_id: int) -> tuple[Combatant, ...]:
    """Whom ``combatant_id`` holds in a pin, in encounter order."""
    return tuple(c for c in enc.combatants if c.pinned_by == combatant_id)


def check_free_to_move(enc: Encounter, combatant_id: int) -> None:
    """Raises RulesError when ``combatant_id`` is pinned: "may make no movement"."""
    pinner = pinned_by(enc, combatant_id)
    if pinner is not None:
        name = enc.combatant(combatant_id).name
        raise RulesError(
            f"{name} is pinned by {pinner.name} and can't move until they damage {pinner.name}."
        )


def start_pin(
    enc: Encounter, pinner_id: int, pinned_id: int, *, prone: bool = False
) -> tuple[Encounter, PinStarted]:
    """A successful pin: ``pinned_id`` is held by ``pinner_id`` (ruling pin-tracked)."""
    if pinner_id == pinned_id:
        raise RulesError("A combatant can't pin itself.")
    enc.combatant(pinner_id)
    target = enc.combatant(pinned_id)
    before = target.pinned_by if target.pinned_by != pinner_id else None
    enc = with_combatant(enc, replace(target, pinned_by=pinner_id))
    return enc, PinStarted(pinner_id, pinned_id, prone=prone, taken_from=before)


def _end(enc: Encounter, pinned: Combatant, reason: PinEnd) -> tuple[Encounter, PinEnded]:
    assert pinned.pinned_by is not None
    ended = PinEnded(pinned.pinned_by, pinned.id, reason)
    return with_combatant(enc, replace(pinned, pinned_by=None)), ended


def end_pins_of(
    enc: Encounter, combatant_id: int, reason: PinEnd = PinEnd.DOWN
) -> tuple[Encounter, list[PinEnded]]:
    """Every pin ``combatant_id`` is in, held or holding, ended (it went down)."""
    ended = []
    for c in enc.combatants:
        if c.pinned_by is not None and combatant_id in (c.id, c.pinned_by):
            enc, event = _end(enc, c, reason)
            ended.append(event)
    return enc, ended


def release(enc: Encounter, pinner_id: int) -> tuple[Encounter, list[PinEnded]]:
    """The pinner lets go of everyone it pins: no action, at any time (ruling pin-ends)."""
    c = enc.combatant(pinner_id)
    held = pinning(enc, pinner_id)
    if not held:
        raise RulesError(f"{c.name} isn't pinning anyone: there is nobody to release.")
    ended = []
    for pinned in held:
        enc, event = _end(enc, pinned, PinEnd.RELEASED)
        ended.append(event)
    return enc, ended


def note_damage(
    enc: Encounter, attacker_id: int, target_id: int, damage: int
) -> tuple[Encounter, PinEnded | None]:
    """An attack by ``attacker_id`` dealing ``damage`` to ``target_id``: a pinned attacker
    damaging its pinner breaks free ("until they incur damage against the attacker")."""
    attacker = enc.combatant(attacker_id)
    if damage < 1 or attacker.pinned_by != target_id:
        return enc, None
    return _end(enc, attacker, PinEnd.DAMAGED)


def pin_flags(enc: Encounter, attacker_id: int, target_id: int) -> tuple[bool, bool]:
    """(the attacker is pinned: its attacks have disadvantage, the target is pinned by
    the attacker: the attack has advantage)."""
    attacker_pinned = enc.combatant(attacker_id).pinned_by is not None
    return attacker_pinned, enc.combatant(target_id).pinned_by == attacker_id
