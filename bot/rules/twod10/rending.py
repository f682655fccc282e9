"""Rending: tearing an improvised weapon from a foe with a brawl + strength roll.

When an opponent is slain the brawler may roll brawl + strength; on a success an
interact action gains an improvised weapon. On a critical hit rending may be
tried on a living opponent: success adds a die of damage to that attack and
costs no interact action.

Ruling ``critical-hit``: the text's "critical hit" is a natural 20 that hits.

Ruling ``rending-reach``: rending is tried by the attacker of a melee or brawl attack
(``/attack rend:True``; the roll is brawl + strength whatever the weapon), since it tears
at a foe within reach; a ranged or thrown attack can't rend. On a living foe the rending
roll comes after the natural-20 hit and before the damage dice, its extra die being one
more of the attack's moved category. On a foe the attack slays it is rolled after the
damage, and a success gains an improvised weapon with an interact action (on the
tracker, ``/init act interact``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.tasks import TaskResult, roll_task


@dataclass(frozen=True, kw_only=True)
class Rending:
    roll: TaskResult
    living: bool

    @property
    def succeeded(self) -> bool:
        return self.roll.succeeded

    @property
    def needs_interact(self) -> bool:
        """A slain foe's weapon still takes an interact action to gain."""
        return self.succeeded and not self.living

    @property
    def extra_damage_die(self) -> bool:
        return self.succeeded and self.living


def roll_rending(
    *,
    strength: int,
    brawl: int,
    living: bool = False,
    attack: TaskResult | None = None,
    dice: Dice,
) -> Rending:
    """Roll rending; on a living foe only after a natural 20 (ruling critical-hit)."""
    if living and (attack is None or not attack.natural_twenty):
        raise RulesError("Rending a living foe needs a critical hit (a natural 20) first.")
    roll = roll_task(
        attribute=strength, skill=brawl, attribute_label="strength", skill_label="brawl",
        dice=dice,
    )  # fmt: skip
    return Rending(roll=roll, living=living)
