"""Medicine: daily use, short-rest use, stabilisation and attribute damage.

"A medicine roll is made with either mind or mind+medicine": 2d10 + the healer's
mind + medicine (0 untrained). Not using medical supplies when they are
required gives the roll disadvantage; the caller spends the unit it reports.

Rulings:

* ``medicine-bands``: the bands are not cumulative: each total gives its own
  row's change (6-9 does nothing); "half their toughness" rounds down.
* ``medicine-day``: daily medicine heals a patient once a day; attribute damage
  heals one point a day; the day ends with the patient's long rest.
* ``short-rest-medicine``: short-rest medicine is one roll made with a short
  rest, needs one unit of supplies, and adds to the rest's gain under the same
  cap; "1 (if toughness is 2+)" is the patient's toughness.
* ``stabilise-at-zero``: stabilisation helps any dying patient (0 HP or below);
  it needs no supplies and its advantage is kept for the patient's next
  toughness roll.
* ``attribute-severity``: the GM sets the total needed to heal a point of
  attribute damage, from 15 to 20.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.healing import (
    HealingState,
    RestResult,
    check_short_rest,
    check_whole,
    set_hp,
    short_rest,
)
from bot.rules.twod10.tasks import Modifier, TaskResult, check_score, roll_task

ATTRIBUTE_LOW = 15
ATTRIBUTE_HIGH = 20


@dataclass(frozen=True, kw_only=True)
class Healer:
    """The one rolling: mind and medicine, and whether a unit of supplies is at hand."""

    mind: int
    medicine: int = 0
    supplies: bool = True

    def __post_init__(self) -> None:
        check_score(self.mind, name="Mind")
        check_score(self.medicine, name="Medicine", low=0)


def _roll(healer: Healer, *, supplies_needed: bool, extra: tuple[Modifier, ...],
          dice: Dice) -> TaskResult:  # fmt: skip
    missing = supplies_needed and not healer.supplies
    return roll_task(
        attribute=healer.mind,
        skill=healer.medicine,
        extra=extra,
        disadvantage=1 if missing else 0,
        attribute_label="mind",
        skill_label="medicine",
        dice=dice,
    )


def _mishap(roll: TaskResult) -> int | None:
    """The two losing rows shared by daily and short-rest use."""
    if roll.natural_two:
        return -2
    if roll.total <= 5:
        return -1
    return None


def daily_change(roll: TaskResult, toughness: int) -> int:
    """Daily use, ruling medicine-bands."""
    mishap = _mishap(roll)
    if mishap is not None:
        return mishap
    total = roll.total
    if total >= 25:
        return max(3 * toughness, 3)
    if total >= 20:
        return max(2 * toughness, 2)
    if total >= 15:
        return max(toughness, 1)
    if total >= 10:
        return max(toughness // 2, 0)
    return 0


def short_rest_change(roll: TaskResult, toughness: int) -> int:
    """Short-rest use, ruling short-rest-medicine."""
    mishap = _mishap(roll)
    if mishap is not None:
        return mishap
    total = roll.total
    if total >= 25:
        return 3
    if total >= 20:
        return 2
    if total >= 15:
        return 1
    if total >= 10:
        return 1 if toughness >= 2 else 0
    return 0


def stabilise_hp(roll: TaskResult) -> int:
    if roll.natural_two:
        return 0
    for low, gain in ((30, 5), (25, 3), (20, 2), (15, 1)):
        if roll.total >= low:
            return gain
    return 0


@dataclass(frozen=True, kw_only=True)
class MedicineResult:
    roll: TaskResult
    change: int  # HP gained (negative: lost)
    supplies_used: int  # units of medical supplies to take off the sheet
    before: HealingState | None = None
    after: HealingState | None = None
    advantage_granted: bool = False  # stabilisation: on the next toughness roll
    rest: RestResult | None = None  # short-rest use: the rest it came with


def daily_medicine(
    healer: Healer, state: HealingState, *, toughness: int, dice: Dice
) -> MedicineResult:
    """Once a day per patient (ruling medicine-day); needs no supplies."""
    if state.dead(toughness):
        raise RulesError("The patient is dead; medicine can't help.")
    if state.daily_medicine_used:
        raise RulesError("This patient has had their daily medicine; try again after a long rest.")
    roll = _roll(healer, supplies_needed=False, extra=(), dice=dice)
    change = daily_change(roll, toughness)
    after = replace(set_hp(state, state.hp + change, toughness=toughness), daily_medicine_used=True)
    return MedicineResult(roll=roll, change=change, supplies_used=0, before=state, after=after)


def short_rest_medicine(
    healer: Healer, state: HealingState, *, toughness: int, dice: Dice
) -> MedicineResult:
    """A short rest with medicine: the rest's gain plus the roll's change, under one cap.

    The rest is checked before any die; the roll needs one unit of medical
    supplies, and without one it rolls at disadvantage (ruling short-rest-medicine).
    """
    check_short_rest(state, toughness)
    roll = _roll(healer, supplies_needed=True, extra=(), dice=dice)
    used = 1 if healer.supplies else 0
    change = short_rest_change(roll, toughness)
    rest = short_rest(state, toughness=toughness, medicine=change)
    return MedicineResult(roll=roll, change=change, supplies_used=used, before=state,
                          after=rest.after, rest=rest)  # fmt: skip


def stabilise(healer: Healer, state: HealingState, *, toughness: int, dice: Dice) -> MedicineResult:
    """2d10 + medicine + mind + the patient's HP: 10 advantage, 15/20/25/30 also 1/2/3/5 HP."""
    if state.dead(toughness):
        raise RulesError("The patient is dead; medicine can't help.")
    if not state.dying:
        # Ruling stabilise-at-zero: any dying patient, 0 HP included.
        raise RulesError("Stabilise only a patient at 0 HP or below; use daily medicine instead.")
    roll = _roll(
        healer, supplies_needed=False, extra=(Modifier(label="patient's HP", value=state.hp),),
        dice=dice,
    )  # fmt: skip
    granted = roll.succeeded
    gain = stabilise_hp(roll)
    after = set_hp(state, state.hp + gain, toughness=toughness)
    if granted:
        after = replace(after, toughness_advantage=True)
    return MedicineResult(roll=roll, change=gain, supplies_used=0, before=state, after=after,
                          advantage_granted=granted)  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class AttributeHealing:
    roll: TaskResult
    needed: int
    healed: bool
    supplies_used: int
    after: HealingState


def heal_attribute_damage(
    healer: Healer, state: HealingState, *, needed: int, dice: Dice
) -> AttributeHealing:
    """A point of attribute damage on a total of ``needed`` (15-20, ruling attribute-severity).

    One unit of supplies is needed (disadvantage without); one point a day.
    """
    check_whole(needed, name="The total needed", low=ATTRIBUTE_LOW, high=ATTRIBUTE_HIGH)
    if state.attribute_healed_today:
        raise RulesError("A point of attribute damage heals once a day; try after a long rest.")
    roll = _roll(healer, supplies_needed=True, extra=(), dice=dice)
    healed = not roll.natural_two and roll.total >= needed
    after = replace(state, attribute_healed_today=healed)
    used = 1 if healer.supplies else 0
    return AttributeHealing(roll=roll, needed=needed, healed=healed, supplies_used=used,
                            after=after)  # fmt: skip
