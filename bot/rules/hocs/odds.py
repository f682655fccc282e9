"""Exact odds of a skill pool or test, from the same policy that spends the dice.

The weights come from ``odds_core.pool_weights`` (see there for how); this module
turns them into chances. A chain of 6s can add any number of successes, so a
distribution is exact up to ``cap`` successes and lumps "cap or more" into the
last entry (its chance is exact too); the expected successes are exact with the
whole chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules.hocs.check import ADVANTAGE_MARGIN
from bot.rules.hocs.difficulty import Difficulty, parse_difficulty
from bot.rules.hocs.odds_core import FRESH_CHAIN_MEAN, pool_weights
from bot.rules.hocs.pool import PoolSpec

__all__ = ["FRESH_CHAIN_MEAN", "PoolOdds", "TestOdds", "pool_odds", "test_odds"]


def _fresh_chain(cap: int) -> tuple[list[int], int]:
    """P(X = j) for j < cap, then P(X >= cap) last, as numerators over the returned
    denominator 12·6^(cap-1): 1/2, 5/12·6^-(j-1) for 0 < j < cap, 1/2·6^-(cap-1)."""
    scale = 12 * 6 ** (cap - 1)
    return [6 * 6 ** (cap - 1)] + [5 * 6 ** (cap - j) for j in range(1, cap)] + [6], scale


@dataclass(frozen=True, slots=True)
class PoolOdds:
    """``dist[k]``: P(exactly k successes) for k < cap; ``dist[cap]``: P(cap or more).

    ``crit_dist``: the same, joined with "the determination die first showed a 1".
    """

    dist: tuple[Fraction, ...]
    crit_dist: tuple[Fraction, ...]
    expected: Fraction
    dice: int

    @property
    def cap(self) -> int:
        return len(self.dist) - 1

    def at_least(self, k: int) -> Fraction:
        if k <= 0:
            return Fraction(1)
        return sum(self.dist[min(k, self.cap) :], Fraction(0))

    def crit_below(self, k: int) -> Fraction:
        return sum(self.crit_dist[: max(0, min(k, self.cap))], Fraction(0))


@dataclass(frozen=True, slots=True)
class TestOdds:
    """Chances of each outcome of a test at one difficulty."""

    __test__ = False  # not a pytest test class

    difficulty: Difficulty
    pool: PoolOdds
    failure: Fraction
    failure_by_two: Fraction
    success: Fraction
    advantage: Fraction
    critical_failure: Fraction

    @property
    def expected(self) -> Fraction:
        return self.pool.expected


@lru_cache(maxsize=4096)
def pool_odds(spec: PoolSpec, cap: int = 0) -> PoolOdds:
    """Exact distribution of successes of ``roll_pool(spec, dice)``; cached by its spec.

    ``cap``: report "cap or more" as one entry (0: the pool's dice + 2, at least 13,
    enough for any difficulty plus the advantage margin).
    """
    cap = cap or max(spec.dice_count + 2, 13)
    weights = pool_weights(spec)
    # Integer numerators over one denominator, made Fractions once at the end (the same
    # reduced values; a Fraction sum per term was most of a large pool's time).
    chain, scale = _fresh_chain(cap)
    dist = [0] * (cap + 1)
    crit = [0] * (cap + 1)
    successes = chained = 0
    for is_crit, on, succ, _, w in weights.outcomes():
        successes += w * succ
        if on:
            chained += w
            for j, q in enumerate(chain):
                k = min(cap, succ + j)
                dist[k] += w * q
                if is_crit:
                    crit[k] += w * q
        else:
            k = min(cap, succ)
            dist[k] += w * scale
            if is_crit:
                crit[k] += w * scale
    den = weights.denominator
    expected = Fraction(successes, den) + FRESH_CHAIN_MEAN * Fraction(chained, den)
    return PoolOdds(
        dist=tuple(Fraction(x, den * scale) for x in dist),
        crit_dist=tuple(Fraction(x, den * scale) for x in crit),
        expected=expected,
        dice=spec.dice_count,
    )


@lru_cache(maxsize=4096)
def _test_odds(spec: PoolSpec, level: Difficulty) -> TestOdds:
    pool = pool_odds(spec)
    d = int(level)
    if not level.needs_roll:
        # Ruling (check.py): difficulty 0 is an automatic success whatever the dice show.
        one, zero = Fraction(1), Fraction(0)
        advantage = pool.at_least(ADVANTAGE_MARGIN)
        return TestOdds(
            difficulty=level,
            pool=pool,
            failure=zero,
            failure_by_two=zero,
            success=one,
            advantage=advantage,
            critical_failure=zero,
        )
    success = pool.at_least(d)
    return TestOdds(
        difficulty=level,
        pool=pool,
        failure=1 - success,
        failure_by_two=1 - pool.at_least(d - ADVANTAGE_MARGIN + 1),
        success=success,
        advantage=pool.at_least(d + ADVANTAGE_MARGIN),
        critical_failure=pool.crit_below(d),
    )


def test_odds(spec: PoolSpec, difficulty: int | str | Difficulty) -> TestOdds:
    """Chances of each outcome of ``roll_test(spec, difficulty=...)``."""
    return _test_odds(spec, parse_difficulty(difficulty))


test_odds.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
