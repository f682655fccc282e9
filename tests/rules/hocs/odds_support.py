"""What the odds tests share: the exact outcomes a weights table gives, and the small
pools Hypothesis draws to compare the fast paths with the general search."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from bot.rules.hocs import odds_core
from bot.rules.hocs.pool import PoolSpec

Outcomes = dict[tuple[bool, bool, int, int], Fraction]


def outcomes(weights: odds_core.Weights) -> Outcomes:
    """Every (crit, chain, successes, 6s) as a fraction of the whole, exactly."""
    seen: Outcomes = {}
    for crit, chain, succ, six, w in weights.outcomes():
        k = (crit, chain, succ, six)
        seen[k] = seen.get(k, 0) + Fraction(w, weights.denominator)
    return seen


def pools(
    min_rerolls: int = 0,
    max_rerolls: int = 5,
    *,
    max_banes: int = 4,
    max_focus: int = 8,
    max_guaranteed: int = 8,
) -> st.SearchStrategy[PoolSpec]:
    """Pools small enough for the general search: up to 8 dice with every modifier,
    banes past the boons, focus and guaranteed successes past the dice (where they
    clamp), and that many talent rerolls. A clash (two pools, many rounds) asks for
    less of what is costly."""
    return st.builds(
        PoolSpec,
        base=st.integers(0, 6),
        boons=st.integers(0, 1),
        banes=st.integers(0, max_banes),
        determination=st.booleans(),
        focus=st.integers(0, max_focus),
        rerolls=st.integers(min_rerolls, max_rerolls),
        guaranteed=st.integers(0, max_guaranteed),
    )
