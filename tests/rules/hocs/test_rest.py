from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import HitPoints, apply_damage
from bot.rules.hocs.rest import (
    Points,
    RespiteChoice,
    RestingColumn,
    RestingFactor,
    RestKind,
    RestSplit,
    default_split,
    respite,
    rest,
    rest_test_difficulty,
    resting_value,
    spend_recovery,
    strength_roll,
)
from bot.rules.hocs.wounds import Wound, WoundKind


def hurt(current: int, *, nonlethal: int = 0, strength: int = 3) -> HitPoints:
    full = HitPoints.for_strength(strength)
    return HitPoints(
        current=current, maximum=full.maximum, threshold=full.threshold, nonlethal_taken=nonlethal
    )


RP = Points(1, 3)
DP = Points(2, 5)


def test_resting_value_sums_the_factors_and_wounds() -> None:
    assert (
        resting_value(
            place=RestingFactor.GOOD, resources=RestingFactor.BENEFICIAL, time=RestingFactor.GOOD
        )
        == 4
    )
    wound = Wound(WoundKind.RESTING_MINUS_5, 8)
    assert (
        resting_value(
            place=RestingFactor.SUBPAR,
            resources=RestingFactor.EXTREME,
            time=None,
            wounds=[wound],
        )
        == -10
    )


def test_resting_factor_examples() -> None:
    assert RestingFactor.BENEFICIAL.example(RestingColumn.RESOURCES) == "Fresh food."
    assert RestingFactor.EXTREME.example(RestingColumn.TIME) == "Consecutive days without sleep."
    for column in RestingColumn:
        for factor in RestingFactor:
            assert factor.example(column)


def test_positive_rest_keeps_the_best_d6_plus_discarded_sixes() -> None:
    # Value 3: 3d6 → 6, 6, 2: keep a 6, +1 for the other 6 → 7 points.
    result = rest(hurt(8), value=3, recovery=RP, determination=DP, dice=ScriptedDice([6, 6, 2]))
    assert result.kind is RestKind.POSITIVE
    assert result.points == 7
    # Default order: HP to max (4), then determination (3).
    assert result.split == RestSplit(hp=4, determination=3, recovery=0)
    assert result.hp_after.current == 12
    assert result.determination_after == Points(5, 5)
    assert result.recovery_after == RP
    assert result.wasted == 0


def test_default_split_overflows_to_recovery_then_waste() -> None:
    result = rest(
        hurt(11), value=1, recovery=RP, determination=Points(4, 5), dice=ScriptedDice([6])
    )
    assert result.split == RestSplit(hp=1, determination=1, recovery=4)
    assert result.recovery_after == Points(3, 3)
    assert result.wasted == 2


def test_explicit_split_respects_maxima_and_reports_waste() -> None:
    result = rest(
        hurt(10),
        value=2,
        recovery=RP,
        determination=DP,
        dice=ScriptedDice([5, 1]),
        split=RestSplit(hp=3, recovery=1),
    )
    assert result.hp_after.current == 12
    assert result.recovery_after == Points(2, 3)
    assert result.wasted == 2  # 1 HP over the maximum + 1 point unassigned


def test_split_larger_than_the_roll_is_refused() -> None:
    with pytest.raises(RulesError, match="grants 5 points"):
        rest(
            hurt(5),
            value=1,
            recovery=RP,
            determination=DP,
            dice=ScriptedDice([5]),
            split=RestSplit(hp=6),
        )


def test_positive_rest_clears_fatigued_and_staggered() -> None:
    conditions = Conditions.of(Condition.STAGGERED, fatigued=2)
    result = rest(
        hurt(-1),
        value=1,
        recovery=RP,
        determination=DP,
        dice=ScriptedDice([4]),
        conditions=conditions,
    )
    assert result.hp_after.current == 3
    assert result.conditions_after == Conditions()


def test_choosing_a_lower_die_is_allowed() -> None:
    result = rest(
        hurt(5), value=2, recovery=RP, determination=DP, dice=ScriptedDice([5, 2]), choose=1
    )
    assert result.points == 2


def test_zero_rest_heals_one_d4() -> None:
    dice = ScriptedDice([3])
    result = rest(hurt(4), value=0, recovery=RP, determination=DP, dice=dice)
    assert result.kind is RestKind.ZERO
    assert dice.requests == [4]
    assert result.hp_after.current == 7
    assert result.recovery_after == RP and result.determination_after == DP


def test_negative_rest_success_heals_one() -> None:
    assert rest_test_difficulty(-3) == 3
    result = rest(
        hurt(4), value=-3, recovery=RP, determination=DP, dice=ScriptedDice([]), test_successes=3
    )
    assert result.test_passed
    assert result.hp_after.current == 5


def test_negative_rest_failure_fatigues() -> None:
    result = rest(
        hurt(4),
        value=-3,
        recovery=RP,
        determination=DP,
        dice=ScriptedDice([]),
        test_successes=2,
        conditions=Conditions.of(fatigued=1),
    )
    assert result.test_passed is False
    assert result.hp_after.current == 4
    assert result.conditions_after.value(Condition.FATIGUED) == 2


def test_negative_rest_needs_a_test() -> None:
    with pytest.raises(RulesError, match="physique or willpower test vs 2"):
        rest(hurt(4), value=-2, recovery=RP, determination=DP, dice=ScriptedDice([]))


def test_test_or_split_on_the_wrong_kind_of_rest_is_refused() -> None:
    with pytest.raises(RulesError):
        rest(
            hurt(4),
            value=2,
            recovery=RP,
            determination=DP,
            dice=ScriptedDice([1, 1]),
            test_successes=1,
        )
    with pytest.raises(RulesError):
        rest(hurt(4), value=0, recovery=RP, determination=DP, dice=ScriptedDice([1]), choose=0)


@pytest.mark.parametrize("value", [-2, 0, 2])
def test_non_lethal_damage_comes_back_in_every_rest(value: int) -> None:
    knocked = apply_damage(hurt(12), 9, lethal=False).after
    result = rest(
        knocked,
        value=value,
        recovery=RP,
        determination=DP,
        dice=ScriptedDice([1, 1]),
        test_successes=0 if value < 0 else None,
    )
    assert result.nonlethal_restored == 9
    assert result.hp_after.nonlethal_taken == 0
    assert result.hp_after.current == 12  # back to full, whatever the rest gave


def test_spend_recovery_rolls_one_d_str_per_point() -> None:
    # STR 4 → 2d8 per point, best kept: (3, 8) → 8; (8, 8) → 8 + 1.
    spent = spend_recovery(
        hurt(1, strength=4), Points(3, 4), points=2, strength=4, dice=ScriptedDice([3, 8, 8, 8])
    )
    assert [r.total for r in spent.rolls] == [8, 9]
    assert spent.hp_after.current == 14  # max 14: 1 + 17 capped
    assert spent.wasted == 4
    assert spent.recovery_after == Points(1, 4)


def test_spend_recovery_refuses_more_than_are_left() -> None:
    with pytest.raises(RulesError, match="only 1 recovery"):
        spend_recovery(hurt(1), Points(1, 3), points=2, strength=3, dice=ScriptedDice([]))


def test_text_example_respite_strength_three_rolls_one_d8() -> None:
    dice = ScriptedDice([6])
    result = respite(
        hurt(3, nonlethal=2),
        choice=RespiteChoice.HIT_POINTS,
        strength=3,
        recovery=RP,
        determination=DP,
        dice=dice,
    )
    assert dice.requests == [8]
    assert result.hp_after.current == 11  # 3 + 2 non-lethal back + 6
    assert result.recovery_after == Points(0, 3)
    assert result.nonlethal_restored == 2


def test_respite_strength_five_d10_does_not_explode() -> None:
    dice = ScriptedDice([10])
    result = respite(
        hurt(1, strength=5),
        choice=RespiteChoice.HIT_POINTS,
        strength=5,
        recovery=RP,
        determination=DP,
        dice=dice,
    )
    assert result.roll is not None and result.roll.total == 10


def test_respite_for_determination() -> None:
    result = respite(
        hurt(3, nonlethal=4),
        choice=RespiteChoice.DETERMINATION,
        strength=3,
        recovery=RP,
        determination=DP,
        dice=ScriptedDice([]),
    )
    assert result.determination_after == Points(3, 5)
    assert result.hp_after.current == 7


def test_respite_without_recovery_points_is_refused() -> None:
    with pytest.raises(RulesError, match="no recovery points left; rest to regain them"):
        respite(
            hurt(3),
            choice=RespiteChoice.HIT_POINTS,
            strength=3,
            recovery=Points(0, 3),
            determination=DP,
            dice=ScriptedDice([]),
        )


def test_default_split_order() -> None:
    assert default_split(3, hurt(12), Points(0, 2)) == RestSplit(determination=2, recovery=1)


def test_points_validation() -> None:
    with pytest.raises(RulesError):
        Points(4, 3)
    with pytest.raises(RulesError):
        RestSplit(hp=-1)


def test_strength_roll_uses_the_attribute_die() -> None:
    assert strength_roll(1, ScriptedDice([4])).total == 4
    with pytest.raises(RulesError):
        strength_roll(0, ScriptedDice([]))


# --- invariants -------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    strength=st.integers(1, 5),
    lost=st.integers(0, 20),
    nonlethal_share=st.integers(0, 20),
    value=st.integers(-6, 6),
    faces=st.lists(st.integers(1, 4), min_size=6, max_size=6),
    successes=st.integers(0, 6),
)
def test_rest_never_exceeds_any_maximum(
    strength: int,
    lost: int,
    nonlethal_share: int,
    value: int,
    faces: list[int],
    successes: int,
) -> None:
    full = HitPoints.for_strength(strength)
    current = max(full.threshold, full.maximum - lost)
    nonlethal = min(nonlethal_share, full.maximum - current)
    hp = HitPoints(
        current=current, maximum=full.maximum, threshold=full.threshold, nonlethal_taken=nonlethal
    )
    result = rest(
        hp,
        value=value,
        recovery=Points(0, strength),
        determination=Points(0, 4),
        dice=ScriptedDice(faces),
        test_successes=successes if value < 0 else None,
    )
    assert hp.current <= result.hp_after.current <= hp.maximum
    assert result.recovery_after.current <= strength
    assert result.determination_after.current <= 4
    assert result.wasted >= 0
