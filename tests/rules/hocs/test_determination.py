"""Determination points: exploding boon before the roll, and spending after it."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.check import resolve_test, roll_test
from bot.rules.hocs.determination import apply_determination_after
from bot.rules.hocs.pool import DieOrigin, PoolResult, PoolSpec
from bot.rules.hocs.rolling import EXPLOSION_CAP, roll_pool


def test_determination_die_explodes_on_sixes_in_a_chain() -> None:
    result = roll_pool(PoolSpec(base=1, determination=True), ScriptedDice([2, 6, 6, 5]))
    die = result.dice[1]
    assert die.origin is DieOrigin.DETERMINATION
    assert die.explosions == (6, 5)
    assert die.final_faces == (6, 6, 5)
    assert result.successes == 3 and result.sixes == 2


def test_determination_die_without_a_six_does_not_explode() -> None:
    result = roll_pool(PoolSpec(base=1, determination=True), ScriptedDice([2, 5]))
    assert result.dice[1].explosions == () and result.successes == 1


def test_explosion_chain_is_capped() -> None:
    result = roll_pool(PoolSpec(base=0, determination=True), ScriptedDice([6] * 60))
    assert len(result.dice[0].explosions) == EXPLOSION_CAP
    assert result.successes == EXPLOSION_CAP + 1


def test_determination_counts_as_a_boon_and_cancels_banes() -> None:
    # 1 bane + determination: net 0, no extra die and nothing explodes.
    spec = PoolSpec(base=2, banes=1, determination=True)
    assert spec.dice_count == 2 and spec.extra_die is None
    # 2 boons + determination: still only +1d6, and that die is the determination die.
    spec = PoolSpec(base=2, boons=2, determination=True)
    assert spec.dice_count == 3 and spec.extra_die is DieOrigin.DETERMINATION


def test_one_on_determination_die_and_failed_test_flags_critical_failure() -> None:
    test = roll_test(
        PoolSpec(base=2, determination=True), difficulty=2, dice=ScriptedDice([5, 2, 1])
    )
    assert not test.succeeded
    assert test.possible_critical_failure


def test_one_on_determination_die_but_test_passed_is_no_critical_failure() -> None:
    test = roll_test(
        PoolSpec(base=2, determination=True), difficulty=1, dice=ScriptedDice([5, 2, 1])
    )
    assert test.succeeded and not test.possible_critical_failure


def test_one_on_ordinary_die_is_no_critical_failure() -> None:
    test = roll_test(PoolSpec(base=2, boons=1), difficulty=3, dice=ScriptedDice([1, 1, 1]))
    assert not test.possible_critical_failure


def test_after_roll_net_zero_adds_exploding_die() -> None:
    before = roll_pool(PoolSpec(base=2), ScriptedDice([4, 2]))
    after = apply_determination_after(before, ScriptedDice([6, 6, 1]))
    die = after.dice[2]
    assert die.origin is DieOrigin.DETERMINATION and die.added_after_roll
    assert die.final_faces == (6, 6, 1)
    assert after.successes == 3 and after.determination_after
    assert after.spec.determination


def test_after_roll_one_bane_brings_back_an_ordinary_die() -> None:
    before = roll_pool(PoolSpec(base=3, banes=1), ScriptedDice([1, 5]))
    after = apply_determination_after(before, ScriptedDice([6]))
    assert len(after.dice) == 3
    assert after.dice[2].origin is DieOrigin.BASE and after.dice[2].explosions == ()
    assert after.successes == 2


def test_after_roll_three_banes_to_two_brings_back_a_die() -> None:
    before = roll_pool(PoolSpec(base=4, banes=3), ScriptedDice([1, 5]))
    after = apply_determination_after(before, ScriptedDice([4]))
    assert len(after.dice) == 3 and after.successes == 2


def test_after_roll_two_banes_changes_nothing_and_point_is_kept() -> None:
    before = roll_pool(PoolSpec(base=3, banes=2), ScriptedDice([1, 5]))
    dice = ScriptedDice([6])
    with pytest.raises(RulesError, match="keep it"):
        apply_determination_after(before, dice)
    assert dice.remaining == 1


def test_after_roll_empty_pool_stays_empty() -> None:
    before = roll_pool(PoolSpec(base=1, banes=3), ScriptedDice([]))
    with pytest.raises(RulesError, match="keep it"):
        apply_determination_after(before, ScriptedDice([6]))


def test_after_roll_existing_boon_six_explodes_now() -> None:
    before = roll_pool(PoolSpec(base=1, boons=1), ScriptedDice([2, 6]))
    after = apply_determination_after(before, ScriptedDice([6, 3]))
    assert after.dice[1].origin is DieOrigin.DETERMINATION
    assert after.dice[1].explosions == (6, 3)
    assert after.successes == 2


def test_after_roll_existing_boon_not_six_is_refused() -> None:
    before = roll_pool(PoolSpec(base=1, boons=1), ScriptedDice([2, 5]))
    with pytest.raises(RulesError, match="keep it"):
        apply_determination_after(before, ScriptedDice([6]))


def test_after_roll_twice_refused() -> None:
    before = roll_pool(PoolSpec(base=1, determination=True), ScriptedDice([2, 3]))
    with pytest.raises(RulesError):
        apply_determination_after(before, ScriptedDice([6]))


def test_after_roll_unused_modifiers_apply_to_new_die() -> None:
    before = roll_pool(PoolSpec(base=1, rerolls=1, focus=1), ScriptedDice([5]))
    assert before.dice[0].focus  # leftover focus on a 5
    after = apply_determination_after(before, ScriptedDice([1, 3]))
    # The talent reroll turned the new 1 into a 3 and the focus moved there.
    assert after.dice[1].first_face == 1 and after.dice[1].rolled_face == 3
    assert after.dice[1].focus and not after.dice[0].focus
    assert after.successes == 2


def test_after_roll_critical_failure_flag_and_round_trip() -> None:
    before = roll_pool(PoolSpec(base=2), ScriptedDice([2, 2]))
    after = apply_determination_after(before, ScriptedDice([1]))
    test = resolve_test(after, difficulty=1)
    assert test.possible_critical_failure
    assert PoolResult.from_dict(after.to_dict()) == after
