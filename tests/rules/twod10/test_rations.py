"""Rations: a day's food, half and quarter rations' rolls, exhaustion and recovery."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.rations import (
    Portion,
    RationState,
    add_rations,
    eat_day,
    ration_difficulty,
)

from .survival_support import person

ADA = person(toughness=2, tough_defense=1)  # +3


def test_a_full_day_spends_a_ration_and_rolls_nothing() -> None:
    day = eat_day(ADA, RationState(quarters=8), Portion.FULL, dice=ScriptedDice([]))
    assert day.roll is None and day.after.quarters == 4 and day.after.rations == 1


def test_weights_and_restock() -> None:
    state = RationState(quarters=6)
    assert state.rations == Fraction(3, 2) and state.weight == Fraction(3, 4)
    assert add_rations(state, rations=2).quarters == 14


@pytest.mark.parametrize(
    ("portion", "days", "difficulty"),
    [
        (Portion.HALF, 1, -6),
        (Portion.HALF, 3, -8),
        (Portion.QUARTER, 1, -11),
        (Portion.QUARTER, 2, -12),
    ],
)
def test_difficulty_grows_each_day(portion: Portion, days: int, difficulty: int) -> None:
    assert ration_difficulty(portion, days) == difficulty


def test_half_rations_roll_and_exhaustion_until_a_full_day() -> None:
    passed = eat_day(ADA, RationState(quarters=8), Portion.HALF, dice=ScriptedDice([6, 7]))
    assert passed.roll is not None and passed.roll.total == 10  # 13 + 3 - 6
    assert not passed.exhaustion_gained and passed.after.quarters == 6
    second = eat_day(ADA, passed.after, Portion.HALF, dice=ScriptedDice([6, 7]))
    assert second.roll is not None and second.roll.total == 9  # 13 + 3 - 7
    assert second.exhaustion_gained and second.after.exhausted
    assert second.after.half_days == 2 and second.after.full_days_needed == 1
    full = eat_day(ADA, second.after, Portion.FULL, dice=ScriptedDice([]))
    assert full.recovered and full.after.half_days == 0


def test_quarter_rations_need_two_full_days() -> None:
    day = eat_day(ADA, RationState(quarters=12), Portion.QUARTER, dice=ScriptedDice([8, 9]))
    assert day.roll is not None and day.roll.total == 9  # 17 + 3 - 11
    assert day.after.full_days_needed == 2 and day.after.quarters == 11
    one = eat_day(ADA, day.after, Portion.FULL, dice=ScriptedDice([]))
    assert one.after.exhausted and not one.recovered
    two = eat_day(ADA, one.after, Portion.FULL, dice=ScriptedDice([]))
    assert two.recovered


def test_a_half_failure_keeps_the_longer_quarter_recovery() -> None:
    state = RationState(quarters=8, quarter_days=1, exhausted=True, full_days_needed=2)
    day = eat_day(ADA, state, Portion.HALF, dice=ScriptedDice([1, 2]))
    assert day.after.full_days_needed == 2


def test_not_enough_food_is_refused() -> None:
    with pytest.raises(RulesError, match="needs 1 ration; you have 3/4"):
        eat_day(ADA, RationState(quarters=3), Portion.FULL, dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="Exhaustion lasts"):
        RationState(quarters=1, exhausted=True)


@given(
    start=st.integers(0, 40),
    days=st.lists(st.tuples(st.sampled_from(list(Portion)), st.integers(1, 10),
                            st.integers(1, 10)), max_size=30),
)  # fmt: skip
def test_supplies_never_negative_and_exhaustion_consistent(
    start: int, days: list[tuple[Portion, int, int]]
) -> None:
    state = RationState(quarters=start)
    for portion, a, b in days:
        try:
            day = eat_day(ADA, state, portion, dice=ScriptedDice([a, b]))
        except RulesError:
            assert state.quarters < portion.quarters
            continue
        assert day.after.quarters == state.quarters - portion.quarters >= 0
        assert day.after.exhausted == (day.after.full_days_needed > 0)
        state = day.after
