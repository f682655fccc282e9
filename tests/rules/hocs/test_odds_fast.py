"""The fast odds paths (odds_fixed without rerolls, odds_rerolls with them) give exactly
the general search's weights, and brute force agrees with them for rerolls 4-10.

``odds_core._search_weights`` asks ``policy._best`` at every state it reaches; the fast
paths make their own decisions over clamped states, so these tests compare every
outcome's integer weight (successes, 6s, critical flag, live chain) over grids and
random pools, counting 6s and not.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.hocs import odds_core
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.odds_clash import _raw, clash_odds
from bot.rules.hocs.odds_rerolls import fail_shape, six_shape
from bot.rules.hocs.policy import settle_counts
from bot.rules.hocs.pool import PoolSpec
from tests.rules.hocs.odds_support import outcomes, pools
from tests.rules.hocs.test_odds_pool import brute


def _same(spec: PoolSpec, sixes: bool) -> None:
    fast = odds_core.pool_weights(spec, sixes=sixes)
    general = odds_core._search_weights(spec, sixes=sixes)
    assert (outcomes(fast), fast.denominator) == (outcomes(general), general.denominator), spec


def test_settled_counts_in_closed_form() -> None:
    """The two numbers both fast paths build on are ``settle_counts`` written out: the
    failures left are max(0, L - g, F - g - f), the 5s made 6s min(V, f, f + g - F + U)."""
    for lows, threes, fives, focus, guaranteed in itertools.product(range(6), repeat=5):
        failures = lows + threes
        fixed, _, fives_up = settle_counts(failures, threes, fives, focus=focus,
                                           guaranteed=guaranteed)  # fmt: skip
        unfixed, _ = fail_shape(lows, failures, focus, guaranteed, 0)
        assert failures - fixed == unfixed
        assert six_shape(fives, failures, unfixed, focus, guaranteed, 0)[0] == fives_up


GRID = list(
    itertools.product(
        (0, 1, 2, 4),  # base
        ((0, 0), (1, 0), (0, 3)),  # boons, banes
        (False, True),  # determination
        (0, 1, 3, 9),  # focus
        (0, 1, 9),  # guaranteed
    )
)


@pytest.mark.parametrize("sixes", [False, True])
def test_without_rerolls_same_as_general_search(sixes: bool) -> None:
    for base, (boons, banes), det, focus, guaranteed in GRID:
        spec = PoolSpec(base=base, boons=boons, banes=banes, determination=det, focus=focus,
                        guaranteed=guaranteed)  # fmt: skip
        _same(spec, sixes)


@pytest.mark.parametrize("rerolls", [1, 2, 3])
@pytest.mark.parametrize("sixes", [False, True])
def test_with_rerolls_same_as_general_search(rerolls: int, sixes: bool) -> None:
    for base, (boons, banes), det, focus, guaranteed in GRID:
        spec = PoolSpec(base=base, boons=boons, banes=banes, determination=det, focus=focus,
                        rerolls=rerolls, guaranteed=guaranteed)  # fmt: skip
        _same(spec, sixes)


@pytest.mark.parametrize("rerolls", [4, 6, 10])
def test_many_rerolls_same_as_general_search(rerolls: int) -> None:
    for base, det, focus, guaranteed in itertools.product((1, 3, 5), (False, True), (0, 2),
                                                          (0, 1)):  # fmt: skip
        spec = PoolSpec(base=base, determination=det, focus=focus, rerolls=rerolls,
                        guaranteed=guaranteed)  # fmt: skip
        _same(spec, sixes=True)


@pytest.mark.parametrize(
    "spec",
    [
        PoolSpec(base=1, determination=True, rerolls=4),
        PoolSpec(base=1, determination=True, focus=1, guaranteed=1, rerolls=10),
        PoolSpec(base=2, focus=1, rerolls=4),
        PoolSpec(base=2, guaranteed=1, rerolls=10),
        PoolSpec(base=2, determination=True, banes=1, rerolls=7),  # the bane takes the det die
    ],
    ids=repr,
)
def test_many_rerolls_match_brute_force(spec: PoolSpec) -> None:
    """Rerolls past the dice: the rolling code's own choices, every face enumerated."""
    cap = spec.dice_count + 2
    dist, crit, open_mass = brute(spec, spec.dice_count + spec.rerolls + 4, cap)
    odds = pool_odds(spec, cap)
    for k in range(cap + 1):
        assert dist[k] <= odds.dist[k] <= dist[k] + open_mass, k
        assert crit[k] <= odds.crit_dist[k] <= crit[k] + open_mass, k
    if not spec.determination:
        assert open_mass == 0


@settings(max_examples=60, deadline=None)
@given(spec=pools(), sixes=st.booleans())
def test_random_pools_same_as_general_search(spec: PoolSpec, sixes: bool) -> None:
    _same(spec, sixes)


@pytest.mark.parametrize(
    "spec",
    [
        PoolSpec(base=20, determination=True, focus=19, guaranteed=2),
        PoolSpec(base=30, determination=True, focus=2, guaranteed=1, rerolls=1),
        PoolSpec(base=12, determination=True, focus=11, rerolls=2),
    ],
    ids=repr,
)
def test_large_pools_same_as_general_search(spec: PoolSpec) -> None:
    """Large pools, focus just short of every die: where the general search was slowest."""
    _same(spec, sixes=True)


def test_clash_with_rerolls_unchanged(monkeypatch) -> None:
    """A clash on 6s reads the fast weights through odds_clash: the same figures come out
    as from the general search."""
    from bot.rules.hocs import odds_clash

    a = PoolSpec(base=3, determination=True, focus=1, rerolls=2)
    b = PoolSpec(base=4, guaranteed=1, rerolls=1)
    for attack in (False, True):
        clash_odds.cache_clear()
        _raw.cache_clear()
        fast = clash_odds(a, b, attack=attack)
        with monkeypatch.context() as patch:
            patch.setattr(odds_clash, "pool_weights", odds_core._search_weights)
            clash_odds.cache_clear()
            _raw.cache_clear()
            slow = clash_odds(a, b, attack=attack)
        assert fast == slow
    clash_odds.cache_clear()
    _raw.cache_clear()
