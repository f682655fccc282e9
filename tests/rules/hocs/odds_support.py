"""What the odds tests share: the exact outcomes a weights table gives."""

from __future__ import annotations

from fractions import Fraction

from bot.rules.hocs import odds_core

Outcomes = dict[tuple[bool, bool, int, int], Fraction]


def outcomes(weights: odds_core.Weights) -> Outcomes:
    """Every (crit, chain, successes, 6s) as a fraction of the whole, exactly."""
    seen: Outcomes = {}
    for crit, chain, succ, six, w in weights.outcomes():
        k = (crit, chain, succ, six)
        seen[k] = seen.get(k, 0) + Fraction(w, weights.denominator)
    return seen
