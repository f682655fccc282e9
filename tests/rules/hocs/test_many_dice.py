from __future__ import annotations

import itertools
import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.many_dice import (
    MAX_EXPLOSIONS,
    ManyDiceResult,
    RolledDie,
    RolledPool,
    best_choice,
    expected_explosion,
    expected_total,
    resolve_choice,
    roll_one_result,
    roll_pool,
)


def test_text_example_choose_the_seven() -> None:
    # 1d10, 1d8, 2d6 rolling 4, 7, 4, 3: choose the 7 → 7.
    dice = ScriptedDice([4, 7, 4, 3])
    rolled = roll_pool((10, 8, 6, 6), dice)
    assert rolled.faces == (4, 7, 4, 3)
    index = best_choice(rolled)
    assert index == 1
    result = resolve_choice(rolled, index, dice)
    assert result.total == 7
    assert result.max_bonus == 0
    assert dice.remaining == 0


def test_text_example_discarded_sixes_add_one_each() -> None:
    # 4, 7, 6, 6 → 7 + 2 = 9.
    dice = ScriptedDice([4, 7, 6, 6])
    result = roll_one_result((10, 8, 6, 6), dice)
    assert result.chosen_index == 1
    assert result.max_bonus == 2
    assert result.total == 9


def test_text_example_greatsword_explodes_only_after_the_choice() -> None:
    # STR 3 (1d8), greatsword 1d12, lethality 1d10: 5, 10, 7; the d12's 10
    # explodes into another d12 that rolls 4 → 14. No discarded die is at max.
    dice = ScriptedDice([5, 10, 7])
    rolled = roll_pool((8, 12, 10), dice)
    assert dice.remaining == 0  # nothing rolled for explosions yet
    assert best_choice(rolled) == 1
    dice = ScriptedDice([4])
    result = resolve_choice(rolled, 1, dice)
    assert dice.requests == [12]
    assert result.chosen == RolledDie(12, 10, (4,))
    assert result.max_bonus == 0
    assert result.total == 14


def test_only_the_chosen_ten_explodes_and_keeps_exploding() -> None:
    dice = ScriptedDice([10, 10, 10, 10, 3])
    rolled = roll_pool((12, 10), dice)
    result = resolve_choice(rolled, 1, dice)
    # The d10 at max is kept, so the discarded d12 (10, not 12) adds nothing.
    assert result.explosions == (10, 10, 3)
    assert result.total == 33
    assert dice.requests == [12, 10, 10, 10, 10]


def test_discarded_exploding_ten_on_a_d10_still_counts_as_maximum() -> None:
    dice = ScriptedDice([10, 12])
    rolled = roll_pool((10, 12), dice)
    result = resolve_choice(rolled, 1, dice)  # keep the 12: no explosion on a 12
    assert result.explosions == ()
    assert result.total == 13


def test_d12_showing_twelve_does_not_explode() -> None:
    assert not RolledDie(12, 12).can_explode
    assert RolledDie(12, 10).can_explode
    assert RolledDie(20, 10).can_explode
    assert not RolledDie(8, 8).can_explode


def test_non_exploding_rolls_never_roll_more_dice() -> None:
    dice = ScriptedDice([10])
    result = roll_one_result((10,), dice, exploding=False)
    assert result.total == 10
    assert dice.remaining == 0


def test_best_choice_prefers_an_exploding_ten_over_an_eleven() -> None:
    # d12 showing 11 vs d10 showing 10: 10 + E[d10 explosion] (≈ 16.1) is better.
    rolled = RolledPool((RolledDie(12, 11), RolledDie(10, 10)))
    assert expected_total(rolled, 1) == 10 + Fraction(55, 9) + 0
    assert best_choice(rolled) == 1
    # Without explosions the 11 + 1 (the discarded 10 is the d10's maximum) wins.
    assert best_choice(RolledPool(rolled.dice, exploding=False)) == 0


def test_best_choice_counts_the_max_bonus_and_breaks_ties_to_the_first_die() -> None:
    # d8 showing 8 (max) vs d10 showing 7: 8 + 0 == 7 + 1, first die wins.
    rolled = RolledPool((RolledDie(8, 8), RolledDie(10, 7)))
    assert expected_total(rolled, 0) == expected_total(rolled, 1) == 8
    assert best_choice(rolled) == 0


def test_expected_explosion_values() -> None:
    assert expected_explosion(8) == 0
    assert expected_explosion(10) == Fraction(55, 9)
    assert expected_explosion(12) == Fraction(78, 11)


def test_explosion_chain_is_capped() -> None:
    dice = ScriptedDice([10] * (MAX_EXPLOSIONS + 1))
    result = roll_one_result((10,), dice)
    assert len(result.explosions) == MAX_EXPLOSIONS
    assert dice.remaining == 0


def test_choosing_a_missing_die_is_refused() -> None:
    rolled = RolledPool((RolledDie(6, 3),))
    with pytest.raises(RulesError, match="no die number 3"):
        resolve_choice(rolled, 2, ScriptedDice([]))


@pytest.mark.parametrize("sizes", [(), (1,), (6, 0)])
def test_impossible_pools_are_refused(sizes: tuple[int, ...]) -> None:
    with pytest.raises(RulesError):
        roll_pool(sizes, ScriptedDice([1, 1]))


def test_round_trip_through_dicts() -> None:
    dice = ScriptedDice([5, 10, 7, 10, 2])
    result = roll_one_result((8, 12, 10), dice, choose=1)
    data = result.to_dict()
    assert data == {
        "pool": {
            "dice": [
                {"sides": 8, "face": 5, "explosions": []},
                {"sides": 12, "face": 10, "explosions": []},
                {"sides": 10, "face": 7, "explosions": []},
            ],
            "exploding": True,
        },
        "chosen_index": 1,
        "explosions": [10, 2],
    }
    assert ManyDiceResult.from_dict(data) == result
    assert RolledPool.from_dict(result.pool.to_dict()) == result.pool


def test_from_dict_rejects_impossible_faces_and_chains() -> None:
    with pytest.raises(RulesError):
        RolledDie.from_dict({"sides": 6, "face": 7})
    pool = {"dice": [{"sides": 10, "face": 9}], "exploding": True}
    with pytest.raises(RulesError, match="does not explode"):
        ManyDiceResult.from_dict({"pool": pool, "chosen_index": 0, "explosions": [3]})
    pool = {"dice": [{"sides": 10, "face": 10}], "exploding": True}
    with pytest.raises(RulesError, match="only while it rolls 10s"):
        ManyDiceResult.from_dict({"pool": pool, "chosen_index": 0, "explosions": [3, 4]})


# --- invariants -------------------------------------------------------------

sizes_strategy = st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(sizes=sizes_strategy, seed=st.integers(0, 2**32), data=st.data())
def test_chosen_total_is_at_least_the_chosen_face(
    sizes: list[int], seed: int, data: st.DataObject
) -> None:
    dice = RandomDice(random.Random(seed))
    rolled = roll_pool(sizes, dice)
    index = data.draw(st.integers(0, len(sizes) - 1))
    result = resolve_choice(rolled, index, dice)
    assert result.total >= result.chosen.face
    assert result.total == result.chosen.total + result.max_bonus
    assert len(result.explosions) <= MAX_EXPLOSIONS
    assert all(e == 10 for e in result.explosions[:-1])


@settings(max_examples=50, deadline=None)
@given(chain=st.integers(0, 80))
def test_explosion_chain_always_terminates(chain: int) -> None:
    dice = ScriptedDice([10] * (chain + 1) + [1])
    result = roll_one_result((10,), dice)
    assert len(result.explosions) == min(chain + 1, MAX_EXPLOSIONS)


@settings(max_examples=100, deadline=None)
@given(sizes=sizes_strategy, seed=st.integers(0, 2**32))
def test_best_choice_maximises_the_expected_total(sizes: list[int], seed: int) -> None:
    rolled = roll_pool(sizes, RandomDice(random.Random(seed)))
    best = best_choice(rolled)
    assert all(expected_total(rolled, best) >= expected_total(rolled, i) for i in range(len(sizes)))


# --- exact distribution -----------------------------------------------------


def _enumerated_distribution(sizes: tuple[int, ...]) -> dict[int, Fraction]:
    """Run the implementation on every combination of faces, without explosions."""
    counts: dict[int, int] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        dice = ScriptedDice(faces)
        total = roll_one_result(sizes, dice, exploding=False).total
        counts[total] = counts.get(total, 0) + 1
    combos = 1
    for s in sizes:
        combos *= s
    return {k: Fraction(v, combos) for k, v in counts.items()}


def _icepool_distribution(sizes: tuple[int, ...]) -> dict[int, Fraction]:
    def keep_best(*faces: int) -> int:
        best = 0
        for i, face in enumerate(faces):
            bonus = sum(1 for j, f in enumerate(faces) if j != i and f == sizes[j])
            best = max(best, face + bonus)
        return best

    die = icepool.map(keep_best, *(icepool.d(s) for s in sizes))
    denominator = die.denominator()
    return {int(k): Fraction(q, denominator) for k, q in die.items()}


@pytest.mark.parametrize("sizes", [(10, 8), (8, 8), (10, 8, 6, 6), (6, 6, 6)])
def test_choose_best_distribution_matches_icepool(sizes: tuple[int, ...]) -> None:
    assert _enumerated_distribution(sizes) == _icepool_distribution(sizes)


def test_icepool_one_d10_one_d8_spot_values() -> None:
    dist = _icepool_distribution((10, 8))
    assert dist[11] == Fraction(1, 80)  # 10 kept, d8 discarded on its 8
    assert dist[10] == Fraction(8, 80)  # 10 with d8 1–7, or 9 + the discarded 8
    assert sum(dist.values()) == 1
