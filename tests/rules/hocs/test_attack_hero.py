"""A hero point's 2d6 off a hit (``reduce_hit``), with scripted dice."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import PriorRolls, reduce_hit, resolve_hit
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.threshold import ThresholdState
from bot.rules.hocs.wounds import WoundKind
from tests.rules.hocs.test_attack import fighter, raw


def test_nine_on_toughness_two_reduced_by_five() -> None:
    """9 damage − toughness 2 = 7 lost; 2d6 = 2 + 3 = 5 off the roll: 4 − 2 = 2 lost."""
    target = fighter("Bram", strength=3, armor=2)  # 12 HP
    inputs, dice = raw((10,), [9])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert (hit.application.hp_lost, hit.after.hp) == (7, 5)
    dice = ScriptedDice([2, 3])
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=dice)
    assert dice.requests == [6, 6]
    assert reduction.faces == (2, 3) and reduction.total == 5
    assert (reduction.before.dealt, reduction.after.dealt) == (9, 4)
    assert reduction.after.application.after_reductions == 2
    assert reduction.after.after.hp == 10 and reduction.hp_given_back == 5
    assert reduction.after.hero_reduction == 5 and reduction.after.damage.amount == 9


def test_the_2d6_do_not_explode_and_a_roll_reduced_to_0_deals_nothing() -> None:
    target = fighter("Bram", strength=3, armor=2)
    inputs, dice = raw((10,), [9])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    dice = ScriptedDice([6, 6])
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=dice)
    assert dice.remaining == 0 and reduction.total == 12  # no explosion on a 6
    assert reduction.after.dealt == 0 and reduction.after.application.hp_lost == 0
    assert reduction.after.after.hp == 12 and reduction.hp_given_back == 7
    with pytest.raises(RulesError, match="nothing to reduce"):
        reduce_hit(target, inputs, index=0, prior=reduction.after.rolls, dice=ScriptedDice([]))


def test_a_small_reduction_still_costs_at_least_1_hp() -> None:
    target = fighter("Bram", strength=3, armor=4)
    inputs, dice = raw((10,), [9])  # 9 − 4 = 5 lost
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=ScriptedDice([3, 3]))
    assert reduction.after.dealt == 3 and reduction.after.application.hp_lost == 1


def test_a_wound_check_no_longer_due_removes_the_wound() -> None:
    target = fighter("Bram", strength=3)  # 12 HP
    # d12 10 explodes 1 → 11 damage; wound check 9 → wound d10 2 (max HP −2); 2d4 3, 2.
    inputs, dice = raw((12,), [10, 1, 9, 2, 3, 2])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    [wound] = hit.after.wounds
    assert wound.kind is WoundKind.MAX_HP_MINUS_2 and hit.max_hp_after == 10
    assert Condition.WOUNDED in hit.after.conditions and hit.after.hp == 1
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=ScriptedDice([1, 1]))
    after = reduction.after
    assert after.dealt == 9 and after.wound_check is None and after.after.wounds == ()
    assert reduction.wounds_removed == (wound,)
    assert Condition.WOUNDED in reduction.conditions_removed
    assert after.max_hp_after == 12 and after.after.hp == 3 and reduction.hp_given_back == 2
    # The wound check stays on record: keeping it due again reuses it, no new roll.
    assert after.rolls.wound_check == hit.rolls.wound_check


def test_a_threshold_test_still_due_reuses_its_roll_against_the_new_difficulty() -> None:
    target = fighter("Gob", strength=2, hp=5)  # threshold −5
    inputs, dice = raw((10,), [9, *([1] * 10)])  # 5 − 9 = −4: a test vs 9, every die fails
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold.state is ThresholdState.TEST_REQUIRED and hit.threshold_test
    assert Condition.DYING in hit.after.conditions
    dice = ScriptedDice([1, 1])  # only the 2d6: the test is not rolled again
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=dice)
    test = reduction.after.threshold_test
    assert test is not None and test.roll == hit.threshold_test.roll
    assert test.outcome.difficulty == 7 and reduction.after.after.hp == -2
    # Reduced out of the threshold altogether: no test, dying is gone.
    again = reduce_hit(
        target, inputs, index=0, prior=reduction.after.rolls, dice=ScriptedDice([6, 5])
    )
    assert again.after.threshold_test is None and again.after.after.hp == 5
    assert Condition.DYING in again.conditions_removed
    assert again.after.hero_reduction == 13 and len(again.after.rolls.hero_reductions) == 2


def test_keeping_another_die_later_keeps_the_reduction() -> None:
    target = fighter("Bram", strength=3)
    inputs, dice = raw((10, 8), [9, 7])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.damage.result is not None and hit.damage.result.chosen_index == 0
    reduction = reduce_hit(target, inputs, index=0, prior=hit.rolls, dice=ScriptedDice([2, 2]))
    assert reduction.after.dealt == 5
    switched = resolve_hit(
        target, inputs, index=1, dice=ScriptedDice([]), prior=reduction.after.rolls
    )
    assert switched.dealt == 7 - 4 and switched.hero_reduction == 4


def test_prior_rolls_keep_the_reductions() -> None:
    prior = PriorRolls(explosions=((0, ()),), hero_reductions=((2, 3), (6, 1)))
    assert PriorRolls.from_dict(prior.to_dict()) == prior and prior.hero_reduction == 12
    older = {"explosions": [[0, []]], "threshold_skill": None, "threshold_roll": None}
    assert PriorRolls.from_dict(older).hero_reductions == ()
