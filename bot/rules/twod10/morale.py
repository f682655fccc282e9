"""NPC morale: when the roll comes, the roll, and a fleeing side.

"Whenever the first ally is killed or half of all allies have been killed,
npc's make a morale roll. An npc's morale score is the DC the roll is made
against and represents will to fight, training, etc. On a failure all
combatants flee. The leader of a unit adds their social to the roll made."

Rulings:

* ``morale-score``: the morale score is a ladder number added to 2d10 (+5 a
  steadfast unit, -10 a rabble; ruling ``ladder-signs``); 10 or more holds.
* ``morale-down``: an NPC out of the fight (dead or unconscious) counts as
  killed; each trigger calls one roll for the whole unit, once per encounter.
* ``morale-gm-call``: the GM may call a morale roll at any time (the text's two
  triggers are when the bot calls it); a called roll leaves both triggers to come.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.difficulty import parse_difficulty
from bot.rules.twod10.tasks import Modifier, TaskResult, check_score, roll_task

MAX_UNIT = 500


class MoraleTrigger(Enum):
    FIRST_ALLY = "the first ally fell"
    HALF_DOWN = "half of the allies are down"
    GM_CALL = "the GM called for it"  # never found by morale_triggers; marks no trigger


@dataclass(frozen=True, kw_only=True)
class MoraleState:
    """What a unit's morale has already answered this encounter."""

    score: int
    first_checked: bool = False
    half_checked: bool = False
    fled: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "score", parse_difficulty(self.score))


def _count(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_UNIT:
        raise RulesError(f"{name} must be a whole number from 0 to {MAX_UNIT}.")


def morale_triggers(state: MoraleState, *, total: int, down: int) -> tuple[MoraleTrigger, ...]:
    """The triggers newly met with ``down`` of ``total`` allies out (ruling morale-down)."""
    _count(total, "Unit size")
    _count(down, "Allies down")
    if down > total:
        raise RulesError("More allies are down than the unit has.")
    if state.fled:
        return ()
    found: list[MoraleTrigger] = []
    if down >= 1 and not state.first_checked:
        found.append(MoraleTrigger.FIRST_ALLY)
    if total and 2 * down >= total and not state.half_checked:
        found.append(MoraleTrigger.HALF_DOWN)
    return tuple(found)


@dataclass(frozen=True, kw_only=True)
class MoraleResult:
    triggers: tuple[MoraleTrigger, ...]
    roll: TaskResult
    after: MoraleState

    @property
    def flees(self) -> bool:
        return self.after.fled


def roll_morale(
    state: MoraleState,
    triggers: tuple[MoraleTrigger, ...],
    *,
    leader_social: int | None = None,
    dice: Dice,
) -> MoraleResult:
    """One roll for the unit: 2d10 + leader's social + score; below 10 the unit flees.

    Both triggers met at once (a unit of two losing one) make one roll.
    """
    if not triggers:
        raise RulesError("No morale roll is due: no ally has fallen since the last one.")
    if state.fled:
        raise RulesError("This unit has already fled.")
    if leader_social is not None:
        check_score(leader_social, name="The leader's Social")
    roll = roll_task(
        attribute=leader_social or 0,
        attribute_label="leader's social" if leader_social is not None else "no leader",
        skill_label="no skill",
        extra=(Modifier(label="morale score", value=state.score),),
        dice=dice,
    )
    after = replace(
        state,
        first_checked=state.first_checked or MoraleTrigger.FIRST_ALLY in triggers,
        half_checked=state.half_checked or MoraleTrigger.HALF_DOWN in triggers,
        fled=not roll.succeeded,
    )
    return MoraleResult(triggers=triggers, roll=roll, after=after)
