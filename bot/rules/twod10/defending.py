"""The defending reaction: the defender rolls, and the roll is flipped to read the attack.

A declared reaction may be a defense roll for one attribute: instead of the
attacker rolling against attribute + Defense, the defender rolls 2d10 +
attribute + Defense (attribute) and the total is flipped around 10 (a 7 becomes
a 13, a 16 a 4: 20 − total) to give the attack's result on the to-hit table.

Ruling ``defending-roll``: "subtract the opponent's defense" is read as the
attacker's attack bonus: every modifier the attack would have added but the target's
defense (attribute + skill, soft cover, a parry, darkness, the GM's modifier, …), the
number the roles swap with, so a flipped roll is the mirror of the attack it replaces.
The attack's advantages become the defender's disadvantages and its disadvantages the
defender's advantages. The defender's natural 2 or 20 means nothing on a flipped roll:
only the flipped total is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.dice_source import Dice
from bot.rules.twod10.bands import OutcomeBand, band_for, category_shift
from bot.rules.twod10.tasks import Modifier, TaskResult, judge, net_edge, roll_d10s

FLIP_AROUND = 20


def flip(total: int) -> int:
    """A 7 becomes a 13 and a 16 a 4."""
    return FLIP_AROUND - total


@dataclass(frozen=True, kw_only=True)
class DefendingRoll:
    """The defender's roll; reads like a ``TaskResult`` of the attack for damage."""

    defender: TaskResult

    @property
    def total(self) -> int:
        return flip(self.defender.total)

    natural_two = False
    natural_twenty = False
    natural = 0

    @property
    def succeeded(self) -> bool:
        return self.total >= 10

    @property
    def band(self) -> OutcomeBand:
        return band_for(self.total)

    @property
    def category_shift(self) -> int:
        return category_shift(self.total)


def roll_defending(
    *,
    defense: int,
    attacker_bonus: int,
    label: str = "defense",
    advantage: int = 0,
    disadvantage: int = 0,
    dice: Dice,
) -> DefendingRoll:
    """The defender's 2d10 + ``defense`` (attribute + Defense (attribute), as the attack
    would have subtracted it) − the attacker's bonus, flipped."""
    # Not roll_task: a defense (up to 12 and more) is no attribute score to bound.
    mods = (
        Modifier(label=label, value=defense),
        Modifier(label="attacker's bonus", value=-attacker_bonus),
    )
    roll = judge(roll_d10s(net_edge(advantage, disadvantage), dice), mods)
    return DefendingRoll(defender=roll)
