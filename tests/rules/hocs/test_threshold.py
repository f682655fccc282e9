from __future__ import annotations

import pytest

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.damage import HitPoints, apply_damage, gain_temporary_hp, heal
from bot.rules.hocs.threshold import (
    ThresholdResult,
    ThresholdState,
    apply_threshold_outcome,
    check_threshold,
    clear_staggered_if_recovered,
    resolve_dying_test,
    resolve_threshold_test,
    resolve_unconscious_test,
)


def hp(current: int = 12, strength: int = 3) -> HitPoints:
    full = HitPoints.for_strength(strength)
    return HitPoints(current=current, maximum=full.maximum, threshold=full.threshold)


def test_above_zero_is_fine() -> None:
    assert check_threshold(apply_damage(hp(), 5)).state is ThresholdState.FINE


def test_inside_threshold_needs_a_test_against_damage_after_reductions() -> None:
    # 12 HP, toughness 2, 16 damage → 14 received → −2 HP (threshold −6).
    check = check_threshold(apply_damage(hp(), 16, toughness=2))
    assert check.state is ThresholdState.TEST_REQUIRED
    assert check.difficulty == 14


def test_exactly_zero_and_exactly_the_threshold_are_inside() -> None:
    assert check_threshold(apply_damage(hp(), 12)).state is ThresholdState.TEST_REQUIRED
    assert check_threshold(apply_damage(hp(), 18)).state is ThresholdState.TEST_REQUIRED


def test_beyond_threshold_is_dead() -> None:
    check = check_threshold(apply_damage(hp(), 19))
    assert check.state is ThresholdState.DEAD
    assert check.conditions_gained == (Condition.DEAD,)


def test_wound_adds_to_the_threshold_difficulty() -> None:
    check = check_threshold(apply_damage(hp(3), 5), extra_difficulty=1)
    assert check.difficulty == 6


def test_non_lethal_last_hit_point_knocks_out_without_a_test() -> None:
    check = check_threshold(apply_damage(hp(3), 10, lethal=False))
    assert check.state is ThresholdState.KNOCKED_OUT
    assert check.difficulty is None
    assert check.conditions_gained == (Condition.UNCONSCIOUS, Condition.STABLE)


def test_non_lethal_damage_below_zero_still_knocks_out() -> None:
    check = check_threshold(apply_damage(hp(-2), 3, lethal=False))
    assert check.state is ThresholdState.KNOCKED_OUT


def test_damage_absorbed_by_temporary_hit_points_needs_no_test() -> None:
    state = gain_temporary_hp(hp(-1), 10)
    assert check_threshold(apply_damage(state, 4)).state is ThresholdState.FINE


@pytest.mark.parametrize(
    ("successes", "difficulty", "result"),
    [
        (6, 4, ThresholdResult.ACTS_NORMALLY),
        (5, 4, ThresholdResult.STAGGERED),
        (4, 4, ThresholdResult.STAGGERED),
        (3, 4, ThresholdResult.UNCONSCIOUS_STABLE),
        (2, 4, ThresholdResult.UNCONSCIOUS_DYING),
        (0, 4, ThresholdResult.UNCONSCIOUS_DYING),
    ],
)
def test_threshold_test_results(successes: int, difficulty: int, result: ThresholdResult) -> None:
    assert resolve_threshold_test(successes, difficulty).result is result


def test_outcome_conditions_and_stable_replaces_dying() -> None:
    dying = apply_threshold_outcome(Conditions(), resolve_threshold_test(0, 5))
    assert Condition.DYING in dying and Condition.UNCONSCIOUS in dying
    stable = apply_threshold_outcome(dying, resolve_threshold_test(4, 5))
    assert Condition.STABLE in stable and Condition.DYING not in stable


def test_dying_test() -> None:
    dying = Conditions.of(Condition.UNCONSCIOUS, Condition.DYING)
    saved = resolve_dying_test(dying, 3)
    assert saved == Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)
    assert Condition.DEAD in resolve_dying_test(dying, 2)
    with pytest.raises(RulesError):
        resolve_dying_test(Conditions(), 3)


def test_unconscious_test_wakes_staggered_inside_threshold() -> None:
    out = Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)
    assert resolve_unconscious_test(out, hp(-1), 2) == out
    woke = resolve_unconscious_test(out, hp(-1), 3)
    assert Condition.UNCONSCIOUS not in woke and Condition.STAGGERED in woke
    assert Condition.STAGGERED not in resolve_unconscious_test(out, hp(2), 3)


def test_staggered_clears_at_one_hit_point() -> None:
    staggered = Conditions.of(Condition.STAGGERED)
    assert clear_staggered_if_recovered(staggered, hp(0)) == staggered
    assert clear_staggered_if_recovered(staggered, heal(hp(0), 1)) == Conditions()


def test_invalid_tests_are_refused() -> None:
    with pytest.raises(RulesError):
        resolve_threshold_test(-1, 3)
    with pytest.raises(RulesError):
        resolve_threshold_test(1, 0)
    with pytest.raises(RulesError):
        check_threshold(apply_damage(hp(), 3), extra_difficulty=-1)
