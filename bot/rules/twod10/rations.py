"""Rations: one a day, half and quarter rations' rolls, and exhaustion.

"Each day the player spends a ration which counts as 1/2 item weight. Half
rations: the character must roll toughness+defense(toughness) versus
-5-every day of eating half rations or gain exhaustion until they eat a full
days amount of rations. Quarter rations: ... versus -10-every day of eating
quarter rations or gain exhaustion until they eat 2 days of full rations."

Supplies are counted in quarter rations so half and quarter days spend exactly.

Rulings:

* ``ration-days``: on the nth day of half rations since the last full day the
  roll is 2d10 + toughness + defense (toughness) - 5 - n (quarter rations
  -10 - n); the two portions keep separate counts.
* ``ration-exhaustion``: the text gives exhaustion no number, so the bot marks it and
  the GM applies it; a new failure while exhausted keeps the longer recovery,
  and the full days needn't be in a row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import defense
from bot.rules.twod10.tasks import TaskResult, roll_task

QUARTERS = 4
MAX_QUARTERS = 4 * 400
MAX_DAYS = 50  # keeps the roll's difficulty within a modifier's bound (-60)
RATION_WEIGHT = Fraction(1, 2)


class Portion(Enum):
    FULL = "full"
    HALF = "half"
    QUARTER = "quarter"

    @property
    def quarters(self) -> int:
        return {"full": 4, "half": 2, "quarter": 1}[self.value]

    @property
    def base(self) -> int:
        return {"full": 0, "half": -5, "quarter": -10}[self.value]

    @property
    def recovery_days(self) -> int:
        """Full days to eat before a failure's exhaustion lifts."""
        return {"full": 0, "half": 1, "quarter": 2}[self.value]


def _count(value: int, name: str, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise RulesError(f"{name} must be a whole number from 0 to {high}.")


@dataclass(frozen=True, kw_only=True)
class RationState:
    quarters: int  # supplies, in quarter rations
    half_days: int = 0
    quarter_days: int = 0
    exhausted: bool = False
    full_days_needed: int = 0  # full days still to eat before exhaustion lifts

    def __post_init__(self) -> None:
        _count(self.quarters, "Rations (in quarters)", MAX_QUARTERS)
        _count(self.half_days, "Days on half rations", MAX_DAYS)
        _count(self.quarter_days, "Days on quarter rations", MAX_DAYS)
        _count(self.full_days_needed, "Full days needed", 2)
        if self.exhausted != (self.full_days_needed > 0):
            raise RulesError("Exhaustion lasts exactly while full days are still needed.")

    @property
    def rations(self) -> Fraction:
        return Fraction(self.quarters, QUARTERS)

    @property
    def weight(self) -> Fraction:
        return self.rations * RATION_WEIGHT


def ration_difficulty(portion: Portion, days: int) -> int:
    """Ruling ration-days: -5 - n for half rations, -10 - n for quarter rations."""
    return portion.base - days


@dataclass(frozen=True, kw_only=True)
class RationDay:
    portion: Portion
    roll: TaskResult | None  # None on a full day
    before: RationState
    after: RationState

    @property
    def exhaustion_gained(self) -> bool:
        return self.roll is not None and not self.roll.succeeded

    @property
    def recovered(self) -> bool:
        return self.before.exhausted and not self.after.exhausted


def eat_day(character: Character, state: RationState, portion: Portion, *, dice: Dice) -> RationDay:
    """Spend a day's food; a half or quarter day rolls against exhaustion."""
    if state.quarters < portion.quarters:
        have = state.rations
        raise RulesError(
            f"A {portion.value} day needs {Fraction(portion.quarters, QUARTERS)} ration; "
            f"you have {have}. Eat less or restock."
        )
    state_after = replace(state, quarters=state.quarters - portion.quarters)
    if portion is Portion.FULL:
        needed = max(state.full_days_needed - 1, 0)
        after = replace(state_after, half_days=0, quarter_days=0, full_days_needed=needed,
                        exhausted=needed > 0)  # fmt: skip
        return RationDay(portion=portion, roll=None, before=state, after=after)
    if portion is Portion.HALF:
        days = min(state.half_days + 1, MAX_DAYS)
        state_after = replace(state_after, half_days=days)
    else:
        days = min(state.quarter_days + 1, MAX_DAYS)
        state_after = replace(state_after, quarter_days=days)
    roll = roll_task(
        attribute=character.attribute(Attribute.TOUGHNESS),
        skill=character.skill(defense(Attribute.TOUGHNESS)),
        difficulty=ration_difficulty(portion, days),
        attribute_label="toughness",
        skill_label="defense (toughness)",
        difficulty_label=f"{portion.value} rations, day {days}",
        dice=dice,
    )
    if not roll.succeeded:
        # Ruling ration-exhaustion: the longer recovery wins.
        needed = max(state.full_days_needed, portion.recovery_days)
        state_after = replace(state_after, exhausted=True, full_days_needed=needed)
    return RationDay(portion=portion, roll=roll, before=state, after=state_after)


def add_rations(state: RationState, *, rations: int) -> RationState:
    if isinstance(rations, bool) or not isinstance(rations, int) or rations < 1:
        raise RulesError("Add 1 or more rations.")
    if state.quarters + rations * QUARTERS > MAX_QUARTERS:
        raise RulesError(f"Carry at most {MAX_QUARTERS // QUARTERS} rations.")
    return replace(state, quarters=state.quarters + rations * QUARTERS)
