"""Disarms in a tracked fight: "Disarm: Drop 1 item. Every 4 above 10, an additional item is
dropped or the item is moved 5 feet." (6 for ranged attacks: ``maneuvers``). Force back
pushes "5 feet for every 4 points above 10".

A combatant remembers its dropped weapons by name, once per weapon dropped, as
``loading`` remembers unloaded crossbows; one carrying two of a weapon fights on with the
other until both are dropped.

Rulings:

* ``disarm-drops``: the bot knows what a sheet carries, not what is in hand, so a disarm
  drops the target's weapons in its sheet's order, the first not dropped yet; each
  extra step drops the next one, and the steps with no weapon left move the dropped
  one 5 feet each (announced only). An /attack with a dropped weapon is refused;
  /init act pick up takes the interact action on the combatant's turn and picks up the
  weapon dropped first. Before the fight starts nothing is tracked (the table picks it
  up for free), nor for an attacker or target not seated.
* ``force-back-positions``: the bot keeps no positions: a force back is announced, and
  the pushed combatant spends none of its movement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import Weapon
from bot.rules.twod10.initiative.loading import still_carried
from bot.rules.twod10.initiative.model import Action, Encounter, Phase, with_combatant
from bot.rules.twod10.initiative.turns import mark_action

MOVE_FEET = 5  # each step left once no weapon is left to drop


@dataclass(frozen=True)
class WeaponsDropped:
    combatant_id: int
    weapons: tuple[str, ...]  # in the order dropped; empty: nothing left to drop
    moved_feet: int = 0  # steps left over: the dropped weapon moved this far


@dataclass(frozen=True)
class WeaponPickedUp:
    combatant_id: int
    weapon: str


def check_not_dropped(
    enc: Encounter, combatant_id: int, weapon: Weapon | None, weapons: Sequence[Weapon]
) -> None:
    """Raises RulesError when every ``weapon`` the combatant carries (``weapons``: its
    sheet's) lies dropped; unarmed and improvised attacks (no weapon) always may."""
    if weapon is None:
        return
    c = enc.combatant(combatant_id)
    carried = sum(1 for w in weapons if w.name == weapon.name)
    if c.dropped.count(weapon.name) >= max(carried, 1):
        raise RulesError(
            f"{c.name} dropped their {weapon.name.lower()}: pick it up first with"
            " /init act pick up."
        )


def drop_weapons(
    enc: Encounter, combatant_id: int, carried: Sequence[str], items: int, steps: int
) -> tuple[Encounter, WeaponsDropped | None]:
    """A successful disarm dropping ``items`` and ``steps`` more (ruling disarm-drops):
    the weapons in ``carried`` (the sheet's, in order) not dropped yet, one each; the steps
    with no weapon left move it. None before the fight starts: nothing is tracked then."""
    if enc.phase is Phase.NOT_STARTED or items < 1:
        return enc, None
    c = enc.combatant(combatant_id)
    lying = still_carried(c.dropped, carried)  # less any weapon gone from the sheet
    already = Counter(lying)
    held = []
    for name in carried:
        if already[name] > 0:
            already[name] -= 1
        else:
            held.append(name)
    falling = tuple(held[: items + steps])
    # The first item dropped is the text's; each step is another item or 5 feet.
    moved = MOVE_FEET * (steps - max(len(falling) - items, 0)) if falling else 0
    enc = with_combatant(enc, replace(c, dropped=(*lying, *falling)))
    return enc, WeaponsDropped(combatant_id, falling, moved)


def pick_up(
    enc: Encounter, combatant_id: int, carried: Sequence[str] | None
) -> tuple[Encounter, WeaponPickedUp]:
    """The interact action on the combatant's turn picks up the weapon it dropped first
    (``carried``: its sheet's weapon names; None for a combatant without a sheet)."""
    c = enc.combatant(combatant_id)
    lying = still_carried(c.dropped, carried or ())
    if not lying:
        raise RulesError(f"{c.name} has dropped no weapon: there is nothing to pick up.")
    enc, _ = mark_action(enc, combatant_id, Action.INTERACT)
    enc = with_combatant(enc, replace(enc.combatant(combatant_id), dropped=lying[1:]))
    return enc, WeaponPickedUp(combatant_id, lying[0])
