"""Dying: the roll a character at 0 HP or below makes, and death at the threshold.

"When at 0 or below HP a character rolls 2d10+toughness+defense(toughness). The
players current hp is added to this roll. On a roll below 10, the player falls
unconscious and loses one hp. On a roll of 10 or above, the player gains 1 hp.
When a player returns to 1hp they gain consciousness." Death comes at the
character's death threshold (ruling ``death-threshold``).

Rulings:

* ``dying-turn``: in a tracked fight the roll is due once on each of the dying
  character's side's turns; outside a fight the GM calls for it.
* ``next-toughness-roll``: a stabilisation's advantage is kept until the
  patient's next toughness roll, which is normally this dying roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.healing import HealingState, set_hp
from bot.rules.twod10.initiative.model import Side
from bot.rules.twod10.skills import defense
from bot.rules.twod10.tasks import Modifier, TaskResult, roll_task


def dying_roll_due(
    state: HealingState, *, toughness: int, character_side: Side, acting_side: Side | None
) -> bool:
    """Whether the tracker should prompt a dying roll now (ruling dying-turn)."""
    return state.dying and not state.dead(toughness) and acting_side is character_side


@dataclass(frozen=True, kw_only=True)
class DyingResult:
    roll: TaskResult
    before: HealingState
    after: HealingState
    toughness: int

    @property
    def succeeded(self) -> bool:
        return self.roll.succeeded

    @property
    def died(self) -> bool:
        return self.after.dead(self.toughness)

    @property
    def woke(self) -> bool:
        return self.before.unconscious and not self.after.unconscious

    @property
    def fell_unconscious(self) -> bool:
        return self.after.unconscious and not self.before.unconscious


def roll_dying(
    character: Character,
    state: HealingState,
    *,
    advantage: int = 0,
    disadvantage: int = 0,
    dice: Dice,
) -> DyingResult:
    """2d10 + toughness + defense (toughness) + current HP: 10+ gains 1 HP, less loses 1."""
    toughness = character.attribute(Attribute.TOUGHNESS)
    if state.dead(toughness):
        raise RulesError(f"{character.name} is dead; there is nothing left to roll.")
    if not state.dying:
        raise RulesError(f"{character.name} has {state.hp} HP and is not dying.")
    # Ruling next-toughness-roll: a stabilisation's advantage is spent here.
    bonus = 1 if state.toughness_advantage else 0
    roll = roll_task(
        attribute=toughness,
        skill=character.skill(defense(Attribute.TOUGHNESS)),
        extra=(Modifier(label="current HP", value=state.hp),),
        advantage=advantage + bonus,
        disadvantage=disadvantage,
        attribute_label="toughness",
        skill_label="defense (toughness)",
        dice=dice,
    )
    if roll.succeeded:
        after = set_hp(state, state.hp + 1, toughness=toughness)
    else:
        after = set_hp(state, state.hp - 1, toughness=toughness)
        after = replace(after, unconscious=True)
    after = replace(after, toughness_advantage=False)
    return DyingResult(roll=roll, before=state, after=after, toughness=toughness)
