"""Crossbows in a tracked fight: "Crossbows must be loaded for one attack action between
attacks and ignore (x) damage reduction."

Ruling ``crossbow-loading``: in a tracked fight every crossbow starts loaded (a table
loads before the fight) and each shot unloads it. Loading one gives up the attack action,
or spends an extra attack (a 25+ roll, endless cleave) once the attack is used, and loads
the crossbow shot first. An extra attack with an unloaded crossbow still waits for a
load. Outside a tracked fight there is no action economy, so loading is free.

A combatant remembers its unloaded crossbows by weapon name, once per shot, so someone
carrying two hand crossbows shoots both before loading either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import Weapon
from bot.rules.twod10.initiative.model import (
    Action,
    Encounter,
    Phase,
    Sacrifice,
    with_combatant,
)
from bot.rules.twod10.initiative.turns import mark_action, sacrifice_attack


@dataclass(frozen=True)
class CrossbowLoaded:
    combatant_id: int
    weapon: str | None  # None: a combatant without a sheet, whose crossbows aren't tracked
    extra: bool = False  # loaded with an extra attack, the attack action being used


def _loads(weapon: Weapon | None) -> bool:
    # The weapon table marks its crossbows (Family.CROSSBOW) as needing a load.
    return weapon is not None and weapon.needs_loading


def still_carried(unloaded: Sequence[str], carried: Sequence[str]) -> tuple[str, ...]:
    """``unloaded`` in shot order, less any crossbow no longer on the sheet (each name at
    most as often as the sheet carries it)."""
    room = Counter(carried)
    kept = []
    for name in unloaded:
        if room[name] > 0:
            room[name] -= 1
            kept.append(name)
    return tuple(kept)


def check_loaded(
    enc: Encounter, combatant_id: int, weapon: Weapon | None, weapons: Sequence[Weapon]
) -> None:
    """Raises RulesError when every ``weapon`` the combatant carries (``weapons``: its
    sheet's) has shot since its last load."""
    if not _loads(weapon):
        return
    assert weapon is not None
    c = enc.combatant(combatant_id)
    carried = sum(1 for w in weapons if w.name == weapon.name)
    if c.unloaded.count(weapon.name) >= max(carried, 1):
        raise RulesError(
            f"{c.name}'s {weapon.name.lower()} isn't loaded: load it first with /init act load."
        )


def note_shot(enc: Encounter, combatant_id: int, weapon: Weapon | None) -> Encounter:
    """The encounter with ``weapon`` unloaded if it is a crossbow; before the fight starts
    nothing is counted, as the table loads then for free."""
    if not _loads(weapon) or enc.phase is Phase.NOT_STARTED:
        return enc
    assert weapon is not None
    c = enc.combatant(combatant_id)
    return with_combatant(enc, replace(c, unloaded=(*c.unloaded, weapon.name)))


def load_crossbow(
    enc: Encounter, combatant_id: int, carried: Sequence[str] | None
) -> tuple[Encounter, CrossbowLoaded]:
    """Load the crossbow shot first, with the attack action (or an extra attack waiting once
    it is used). ``carried``: the names of the weapons on the combatant's sheet; None for a
    combatant without one, which only gives up the attack (no crossbow of its is tracked)."""
    c = enc.combatant(combatant_id)
    waiting: tuple[str, ...] = ()
    if carried is not None:
        waiting = still_carried(c.unloaded, carried)
        if not waiting:
            raise RulesError(
                f"{c.name} has no unloaded crossbow: a crossbow stays loaded until it shoots."
            )
    state = enc.state(combatant_id)
    extra = Action.ATTACK in state.actions and state.extra_attacks > 0
    if extra:
        enc, _ = mark_action(enc, combatant_id, Action.ATTACK)  # spends the extra attack
    else:
        enc, _ = sacrifice_attack(enc, combatant_id, Sacrifice.LOAD)
    if carried is not None:
        enc = with_combatant(enc, replace(enc.combatant(combatant_id), unloaded=waiting[1:]))
    return enc, CrossbowLoaded(combatant_id, waiting[0] if waiting else None, extra=extra)
