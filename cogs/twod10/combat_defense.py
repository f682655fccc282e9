"""What /attack does for the target's declared defense and for rending a slain foe.

A seated target that declared a defense roll for the attacked attribute rolls it instead
of the attacker (rulings defending-use, defending-roll), and /attack spends that
reaction in its own transaction. ``rend:`` on an attack that slays its foe rolls the
rending that gains an improvised weapon (ruling rending-reach); on a natural-20 hit of a
living foe the rending is part of the attack's own roll (``bot.rules.twod10.attack``).
"""

from __future__ import annotations

from dataclasses import replace

from bot.render.twod10.combat import AttackReport
from bot.rules.dice_source import Dice
from bot.rules.twod10.attack_inputs import attacker_stats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.initiative.defenses import defends
from bot.rules.twod10.rending import roll_rending
from cogs.twod10.combat_tracker import TrackerView


def defense_waiting(view: TrackerView | None, sheet_id: int, attribute: Attribute) -> int | None:
    """The seated target's combatant id when its declared defense answers an attack on
    ``attribute``; None otherwise (not seated, no defense, used, another attribute)."""
    if view is None:
        return None
    combatant_id = view.combatant_of(sheet_id)
    if combatant_id is None or not defends(view.record.encounter, combatant_id, attribute):
        return None
    return combatant_id


def rend_the_slain(report: AttackReport, attacker: Character, dice: Dice) -> AttackReport:
    """The report with the rending of a foe this attack slew, rolled after its damage."""
    if not report.slew:
        return report
    stats = attacker_stats(attacker)
    rending = roll_rending(strength=stats.strength, brawl=stats.brawl, dice=dice)
    return replace(report, slain_rending=rending)
