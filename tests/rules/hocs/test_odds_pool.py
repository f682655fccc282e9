"""Exact pool and test odds against brute force over every face the dice could show.

The brute force runs the real ``roll_pool`` with scripted dice along every branch
of faces it asks for, so the odds are checked against the rolling code itself
(its talent reroll choices included). A determination die's chain of 6s has no
end, so branches deeper than a bound are left open and their total chance ``open``
bounds the comparison: brute[k] <= odds[k] <= brute[k] + open, exactly.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from bot.rules.dice_source import RandomDice, ScriptedDice, ScriptedDiceExhausted
from bot.rules.hocs.check import roll_test
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import roll_pool


def brute(spec: PoolSpec, depth: int, cap: int) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """P(k successes) (k >= cap lumped), P(k and determination first 1), open mass."""
    dist = [Fraction(0)] * (cap + 1)
    crit = [Fraction(0)] * (cap + 1)
    open_mass = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        try:
            result = roll_pool(spec, ScriptedDice(prefix))
        except ScriptedDiceExhausted:
            if len(prefix) >= depth:
                open_mass += Fraction(1, 6 ** len(prefix))
            else:
                stack.extend((*prefix, f) for f in range(1, 7))
            continue
        p = Fraction(1, 6 ** len(prefix))
        k = min(cap, result.successes)
        dist[k] += p
        if result.determination_rolled_one:
            crit[k] += p
    return dist, crit, open_mass


SPECS = [
    PoolSpec(base=b, boons=bo, banes=ba, determination=de, focus=f, rerolls=r, guaranteed=g)
    for b, bo, ba, de, f, r, g in [
        (0, 0, 0, False, 0, 0, 0),
        (1, 0, 0, False, 0, 0, 0),
        (2, 0, 0, False, 1, 1, 0),
        (2, 0, 0, True, 0, 1, 0),
        (1, 0, 0, True, 1, 1, 1),
        (2, 0, 0, True, 1, 2, 0),
        (3, 0, 0, False, 1, 2, 1),
        (3, 1, 0, False, 0, 2, 0),
        (2, 0, 1, True, 0, 1, 0),  # determination cancelled by a bane: no die
        (1, 0, 0, True, 0, 2, 0),
        (3, 0, 3, False, 0, 1, 0),
        (2, 0, 0, True, 2, 0, 2),
    ]
]


@pytest.mark.parametrize("spec", SPECS, ids=repr)
def test_pool_odds_match_brute_force(spec: PoolSpec) -> None:
    cap = spec.dice_count + 2
    depth = spec.dice_count + spec.rerolls + 4
    dist, crit, open_mass = brute(spec, depth, cap)
    odds = pool_odds(spec, cap)
    assert sum(odds.dist) == 1
    for k in range(cap + 1):
        assert dist[k] <= odds.dist[k] <= dist[k] + open_mass, k
        assert crit[k] <= odds.crit_dist[k] <= crit[k] + open_mass, k
    if not spec.determination:
        assert open_mass == 0
        assert list(odds.dist) == dist
        assert list(odds.crit_dist) == crit


def test_plain_pool_is_binomial() -> None:
    odds = pool_odds(PoolSpec(base=5))
    for k in range(6):
        from math import comb

        assert odds.dist[k] == Fraction(comb(5, k), 2**5)
    assert odds.expected == Fraction(5, 2)


def test_expected_matches_distribution_without_chain() -> None:
    spec = PoolSpec(base=6, focus=2, rerolls=3, guaranteed=1)
    odds = pool_odds(spec)
    assert odds.expected == sum(k * p for k, p in enumerate(odds.dist))


def test_determination_expected_includes_the_chain() -> None:
    # One determination die alone: 1/2 a success, plus on a 6 a chain worth 3/5.
    odds = pool_odds(PoolSpec(base=0, determination=True))
    assert odds.expected == Fraction(1, 2) + Fraction(1, 6) * Fraction(3, 5)


def test_test_odds_outcomes() -> None:
    spec = PoolSpec(base=3)
    t = test_odds(spec, 2)
    # 3 fair dice: P(>=2) = 4/8, P(>=4) = 0, P(<=0) = 1/8.
    assert t.success == Fraction(1, 2)
    assert t.failure == Fraction(1, 2)
    assert t.failure_by_two == Fraction(1, 8)
    assert t.advantage == 0
    assert t.critical_failure == 0
    auto = test_odds(spec, "easy")
    assert auto.success == 1 and auto.failure == 0


def test_critical_failure_needs_a_failed_test() -> None:
    spec = PoolSpec(base=0, determination=True)
    # Only die is the determination die: a first 1 always fails difficulty 1.
    assert test_odds(spec, 1).critical_failure == Fraction(1, 6)


def test_observed_frequencies_agree() -> None:
    """The rolling code's frequencies over seeded rolls sit within a chi-square bound."""
    spec = PoolSpec(base=5, determination=True, focus=1, rerolls=2, guaranteed=1)
    odds = test_odds(spec, 4)
    rng = RandomDice(random.Random(1414))
    n = 6000
    seen = Counter(roll_test(spec, difficulty=4, dice=rng).outcome.value for _ in range(n))
    expected = {
        "success with advantage": odds.advantage,
        "success": odds.success - odds.advantage,
        "failure": odds.failure - odds.failure_by_two,
        "failure by 2 or more": odds.failure_by_two,
    }
    chi = sum((seen[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items() if p)
    assert chi < 16.3  # 3 degrees of freedom, p = 0.001


def test_icepool_agrees_on_plain_pools() -> None:
    icepool = pytest.importorskip("icepool")
    for n in (1, 4, 9):
        die = icepool.d6.map(lambda f: 1 if f >= 4 else 0)
        total = n @ die
        odds = pool_odds(PoolSpec(base=n))
        for k in range(n + 1):
            assert Fraction(total.probability(k)) == odds.dist[k]


def test_every_pool_small_brute_force_with_all_modifiers() -> None:
    for base, f, r, g in itertools.product(range(3), range(2), range(3), range(2)):
        spec = PoolSpec(base=base, focus=f, rerolls=r, guaranteed=g)
        dist, _, open_mass = brute(spec, base + r + 1, base + 2)
        assert open_mass == 0
        assert list(pool_odds(spec, base + 2).dist) == dist


def _outcomes(weights) -> dict:
    seen: dict = {}
    for crit, chain, succ, six, w in weights.outcomes():
        seen[(crit, chain, succ, six)] = seen.get((crit, chain, succ, six), 0) + w
    return seen


@pytest.mark.parametrize("sixes", [False, True])
def test_focus_covering_every_die_matches_the_general_search(monkeypatch, sixes: bool) -> None:
    """With focus >= dice the search counts 3s as successes and 5s as 6s at once and asks
    the policy only about the dice it may reroll; it must give the general path's weights."""
    from bot.rules.hocs import odds_core

    specs = [
        PoolSpec(base=b, determination=d, focus=30, rerolls=r, guaranteed=g)
        for b, d, r, g in itertools.product((1, 3, 5), (False, True), (0, 1, 3), (0, 2))
    ]
    fast = [_outcomes(odds_core.pool_weights(s, sixes=sixes)) for s in specs]
    general = odds_core._Layout.__init__

    def never_unlimited(self, dice: int, sixes: bool, unlimited: bool, bits: int = 128) -> None:
        general(self, dice, sixes, False, bits)

    monkeypatch.setattr(odds_core._Layout, "__init__", never_unlimited)
    slow = [_outcomes(odds_core.pool_weights(s, sixes=sixes)) for s in specs]
    assert fast == slow
