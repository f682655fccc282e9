"""The recap's reading of a logged /attack (``2d10-attack``): the attacker's roll, the
damage dealt, and what it did to the target it hit (rulings ``recap-owners``,
``recap-naturals``, ``recap-hurt`` and ``recap-critical`` in ``recap_facts``).

The row (``cogs.twod10.combat_apply.attack_record``) names the attacker and the target
hit by 2d10 sheet id (``attacker_id``, ``target_id``: the one a stray shot hit), the aimed
target by name (``aimed_at``), the to-hit's dice (``faces``, ``dropped``; none when the
hard cover stopped the shot or the target defended), the total the to-hit table read
(``total``: the defender's flipped roll on a defended attack), the damage after armor and
block (``damage``) and the target's HP before and after (``hp``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.rules.twod10.luck_base import whole
from bot.rules.twod10.recap_facts_base import D10, Roster, Told, kept_sum, plain, possessive


def attack(row: Mapping[str, Any], roster: Roster) -> Told:
    attacker = roster.name(row.get("attacker_id"))
    damage = max(whole(row.get("damage")) or 0, 0)
    # The figures are the player characters' (ruling recap-hurt): the damage an NPC
    # dealt is nobody's; only a player character the attack hurt is its target.
    target = roster.name(row.get("target_id")) if damage > 0 else None
    before, after = _hp(row)
    downed = dying = False
    if target is not None and before is not None and after is not None:
        downed = before > 0 >= after
        dying = after <= 0 and not _dead(row, damage, before, after)
    aimed = plain(row.get("aimed_at"))  # a stray shot's label names the aimed target
    what = plain(row.get("maneuver")) or "attack"
    rolled = _rolled(row)
    told = rolled.told(
        roller=attacker, target=target, damage_dealt=damage if attacker is not None else 0,
        damage_taken=damage if target is not None else 0, downed=downed, dying=dying,
        label=possessive(attacker, f"{what} on {aimed}" if aimed else what),
    )  # fmt: skip
    if rolled.total is None:  # the hard cover's d4 stopped the shot: a miss
        return replace(told, succeeded=False)
    return told


def _rolled(row: Mapping[str, Any]) -> D10:
    """The attack's own 2d10. A defended attack's dice are the defender's (ruling
    recap-naturals): the table reads their flipped total, but no natural is the attacker's."""
    total = whole(row.get("total"))
    if isinstance(row.get("defended"), dict | Mapping) or not row.get("faces"):
        return D10(natural=None, total=total)
    return D10(natural=kept_sum(row), total=total)


def _hp(row: Mapping[str, Any]) -> tuple[int | None, int | None]:
    hp = row.get("hp")
    if not isinstance(hp, list) or len(hp) != 2:
        return None, None
    return whole(hp[0]), whole(hp[1])


def _dead(row: Mapping[str, Any], damage: int, before: int, after: int) -> bool:
    """Whether the target is dead after the attack (ruling recap-hurt).

    The row keeps no death threshold, but HP never go below it: a blow cut short by that
    floor (less lost than dealt) killed. A slaying blow's rending (``living`` false) says so
    too, as a ``dead`` flag would if the row logs one. A blow landing exactly on the
    threshold can't be told from one leaving the target dying, and is counted dying."""
    flag = row.get("dead")
    if isinstance(flag, bool):
        return flag
    rending = row.get("rending")
    for rend in rending if isinstance(rending, list) else ():
        if isinstance(rend, dict | Mapping) and rend.get("living") is False:
            return True
    return after > before - damage
