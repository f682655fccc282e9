"""Luck math: mid-percentiles, their null variance, the summary's test (exact Fractions)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.generic.luck import (
    LUCKIER,
    MIN_VERDICT_ROLLS,
    TOO_FEW,
    UNLUCKIER,
    WITHIN_CHANCE,
    Ladder,
    Scored,
    luck_summary,
    mid_percentile,
    null_variance,
)

D6 = {face: Fraction(1, 6) for face in range(1, 7)}


def test_a_d6_showing_4_is_at_seven_twelfths() -> None:
    # Worse: 1, 2, 3 (1/2); the 4 itself counts half (1/12).
    assert mid_percentile(D6, 4) == Fraction(7, 12)
    assert mid_percentile(D6, 1) == Fraction(1, 12)
    assert mid_percentile(D6, 6) == Fraction(11, 12)


def test_lower_is_better_when_told() -> None:
    assert mid_percentile(D6, 4, higher_is_better=False) == Fraction(5, 12)
    # A key ranks outcomes; equal keys tie (here odd faces beat even ones).
    assert mid_percentile(D6, 3, key=lambda f: f % 2) == Fraction(1, 2) + Fraction(1, 4)
    assert mid_percentile(D6, 3, key=lambda f: f % 2, higher_is_better=False) == Fraction(1, 4)


def test_d6_variance_is_35_over_432() -> None:
    # (1 − 6 · (1/6)³) / 12 = (35/36) / 12, against the definition.
    assert null_variance(D6) == Fraction(35, 432)
    brute = sum(p * (mid_percentile(D6, v) - Fraction(1, 2)) ** 2 for v, p in D6.items())
    assert brute == Fraction(35, 432)


def test_a_certain_result_sits_at_one_half_with_no_variance() -> None:
    assert mid_percentile({7: Fraction(1)}, 7) == Fraction(1, 2)
    assert null_variance({7: Fraction(1)}) == 0
    assert Ladder.from_dist({7: Fraction(1)}).score(7) == Scored(Fraction(1, 2), Fraction(0), 7)


def test_a_coin_flip() -> None:
    coin = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert (mid_percentile(coin, 0), mid_percentile(coin, 1)) == (Fraction(1, 4), Fraction(3, 4))
    assert null_variance(coin) == Fraction(1, 16)  # (1 − 2/8)/12


def test_a_ladder_scores_like_mid_percentile_and_refuses_impossible_values() -> None:
    ladder = Ladder.from_dist(D6)
    assert [ladder.score(f).percentile for f in range(1, 7)] == [
        mid_percentile(D6, f) for f in range(1, 7)
    ]
    assert ladder.score(7) is None and ladder.score(0) is None
    assert ladder.score(4) is ladder.score(4)  # kept per class
    assert ladder.score(4, value="four").value == "four"
    with pytest.raises(ValueError, match="add up to 1"):
        Ladder.from_weights([(1, 1), (2, 1)], 3)


dists = (
    st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=12)
    .filter(any)
    .map(lambda ws: {i: Fraction(w, sum(ws)) for i, w in enumerate(ws)})
)


@given(dists)
def test_the_mean_mid_percentile_is_exactly_one_half(dist: dict[int, Fraction]) -> None:
    for direction in (True, False):
        values = {v: mid_percentile(dist, v, higher_is_better=direction) for v in dist}
        assert all(0 <= u <= 1 for u in values.values())
        assert sum(p * values[v] for v, p in dist.items()) == Fraction(1, 2)


@given(dists, st.integers(min_value=1, max_value=4))
def test_the_variance_formula_against_brute_force(dist: dict[int, Fraction], mod: int) -> None:
    # With a key that merges outcomes (v % mod) ties count as one class.
    def key(v: int) -> int:
        return v % mod

    brute = sum(
        p * (mid_percentile(dist, v, key=key) - Fraction(1, 2)) ** 2 for v, p in dist.items()
    )
    assert null_variance(dist, key=key) == brute
    ladder = Ladder.from_dist(dist, key=key)
    assert ladder.variance == brute
    for v, p in dist.items():
        if p:
            assert ladder.score(key(v)).percentile == mid_percentile(dist, v, key=key)


def test_no_rolls_and_few_rolls_claim_nothing() -> None:
    empty = luck_summary([])
    assert (empty.n, empty.mean, empty.z, empty.verdict) == (0, 0.5, None, TOO_FEW)
    # One roll that had a 1 % chance: z ≈ −10 by the normal approximation, but one roll
    # is no evidence the approximation can weigh.
    one = luck_summary([Scored(Fraction(1, 200), Fraction(99 * 1, 12 * 100))])
    assert one.n == 1 and one.verdict == TOO_FEW and not one.significant
    below = luck_summary([(Fraction(1, 20), Fraction(1, 12))] * (MIN_VERDICT_ROLLS - 1))
    assert below.verdict == TOO_FEW and below.p_value is not None and below.p_value < 0.05


def test_twelve_coin_flips_won_are_luckier_than_chance() -> None:
    summary = luck_summary([(Fraction(3, 4), Fraction(1, 16))] * 12)
    # z = 12 · ¼ / √(12/16) = 2√3.
    assert summary.n == 12 and summary.mean == 0.75
    assert summary.z == pytest.approx(2 * math.sqrt(3))
    assert summary.p_value == pytest.approx(math.erfc(math.sqrt(6)))
    assert summary.verdict == LUCKIER and summary.significant


def test_a_mixed_night_is_within_chance_and_a_bad_one_unluckier() -> None:
    mixed = [(Fraction(3, 4), Fraction(1, 16)), (Fraction(1, 4), Fraction(1, 16))] * 10
    assert luck_summary(mixed).verdict == WITHIN_CHANCE
    assert luck_summary(mixed).z == 0
    bad = luck_summary([(Fraction(1, 12), Fraction(35, 432))] * 10)
    assert bad.verdict == UNLUCKIER and bad.z is not None and bad.z < 0


def test_certain_rolls_are_left_out() -> None:
    summary = luck_summary(
        [(Fraction(1, 2), Fraction(0))] * 5 + [(Fraction(3, 4), Fraction(1, 16))]
    )
    assert (summary.n, summary.certain, summary.mean) == (1, 5, 0.75)
