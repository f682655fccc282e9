"""Dice luck from exact odds: the mid-percentile of a result and a test of their mean.

Ruleset-neutral math (no ruleset imports); ``bot.rules.hocs.luck`` and
``bot.rules.generic.luck_roll`` score their rolls with it.

**The percentile.** For a roll whose exact distribution is known, the result x scores
``P(a worse result) + ½·P(x)``: the mid-percentile. "Worse" is "lower" unless a
caller says otherwise (``higher_is_better=False``, or a ``key`` ranking outcomes);
outcomes of equal rank tie. Under fair dice its mean is exactly ½ whatever the
distribution, so "a character's luck" is the mean of their rolls' percentiles and
50 % is exactly average.

**Its null variance.** For a continuous distribution the percentile is uniform, with
variance 1/12. For a discrete one with rank classes of chance p_k it is
``(1 − Σ p_k³) / 12``. Why: draw V uniformly inside the class's slice of [0, 1]
(from P(worse) to P(worse) + p_k); V is uniform on [0, 1], so Var V = 1/12, and the
mid-percentile U is E[V | class]. By the law of total variance
``1/12 = Var U + E[Var(V | class)] = Var U + Σ p_k · p_k²/12``. A certain result
(one class, p = 1) has variance 0: it says nothing about luck.

**The summary** (``luck_summary``): the mean percentile of n rolls and a two-sided z
test of it against ½, with each roll's own exact variance:
``z = Σ(u_i − ½) / √(Σ v_i)``. The p-value is the **normal approximation** of that
sum (a central limit argument; with few rolls, or one extreme roll among them, it
is rough), which is why no verdict is given below ``MIN_VERDICT_ROLLS`` rolls. The
verdict is two-sided at ``SIGNIFICANCE`` (5 %). Rolls whose result was certain
(variance 0) are left out of n and the mean and counted in ``certain``. The
summary's figures are floats (a mean of thousands of Fractions with denominators
up to 10^50 would cost far more than any digit shown); each percentile stays exact.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "LUCKIER",
    "MIN_VERDICT_ROLLS",
    "SIGNIFICANCE",
    "TOO_FEW",
    "UNLUCKIER",
    "WITHIN_CHANCE",
    "Ladder",
    "LuckSummary",
    "Scored",
    "luck_summary",
    "mid_percentile",
    "null_variance",
    "rank_classes",
]

SIGNIFICANCE = 0.05
"""Two-sided: a mean this unlikely (or less) under fair dice is called luck."""
MIN_VERDICT_ROLLS = 10
"""Fewer scored rolls than this get no verdict: the normal approximation is too rough
(one roll that had a 1 % chance would otherwise read as z ≈ −10)."""

WITHIN_CHANCE = "within chance"
LUCKIER = "luckier than chance"
UNLUCKIER = "unluckier than chance"
TOO_FEW = "too few rolls to tell"

Key = Callable[[Any], Any]


def _ranker(key: Key | None, higher_is_better: bool) -> Key:
    if key is not None:
        return key if higher_is_better else _negated(key)
    return (lambda v: v) if higher_is_better else (lambda v: -v)


def _negated(key: Key) -> Key:
    def rank(value: Any) -> Any:
        return _Reversed(key(value))

    return rank


@dataclass(frozen=True, slots=True, order=False)
class _Reversed:
    """Orders opposite to its value (a key for ``higher_is_better=False`` with any key)."""

    value: Any

    def __lt__(self, other: _Reversed) -> bool:
        return bool(other.value < self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reversed) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)


def rank_classes(
    dist: Mapping[Hashable, Fraction], *, key: Key | None = None, higher_is_better: bool = True
) -> list[tuple[Any, Fraction]]:
    """The distribution's chances merged by rank, worst first: (rank, chance) pairs.
    Outcomes of chance 0 are dropped."""
    rank = _ranker(key, higher_is_better)
    merged: dict[Any, Fraction] = {}
    for outcome, chance in dist.items():
        if chance:
            r = rank(outcome)
            merged[r] = merged.get(r, Fraction(0)) + Fraction(chance)
    return sorted(merged.items(), key=lambda item: item[0])


def mid_percentile(
    dist: Mapping[Hashable, Fraction],
    value: Hashable,
    *,
    key: Key | None = None,
    higher_is_better: bool = True,
) -> Fraction:
    """P(a worse result than ``value``) + ½·P(a result as good as ``value``), exactly.

    ``dist``: outcome → chance (summing to 1). Better is higher, or by ``key``; with
    ``higher_is_better=False`` lower (or lower key) is better. A value the distribution
    can't produce still gets its place (½·0 for its own chance)."""
    rank = _ranker(key, higher_is_better)
    mine = rank(value)
    worse = same = Fraction(0)
    for outcome, chance in dist.items():
        r = rank(outcome)
        if r < mine:
            worse += chance
        elif r == mine:
            same += chance
    return worse + same / 2


def null_variance(
    dist: Mapping[Hashable, Fraction], *, key: Key | None = None, higher_is_better: bool = True
) -> Fraction:
    """Var of the mid-percentile under ``dist`` itself: (1 − Σ p_k³)/12 over rank classes
    (see the module docstring). The direction does not change it."""
    classes = rank_classes(dist, key=key, higher_is_better=higher_is_better)
    return (1 - sum((p**3 for _, p in classes), Fraction(0))) / 12


@dataclass(frozen=True, slots=True)
class Scored:
    """One roll's luck: its mid-percentile, that percentile's variance under fair dice,
    and the value scored (for showing and for "luckiest roll" ties)."""

    percentile: Fraction
    variance: Fraction
    value: Any = None

    def mirrored(self) -> Scored:
        """The same roll seen from the other side (a clash's opponent): 1 − percentile."""
        p = self.percentile
        # (Already in lowest terms: gcd(d − n, d) = gcd(n, d) = 1; no Fraction arithmetic.)
        return Scored(
            Fraction(p.denominator - p.numerator, p.denominator), self.variance, self.value
        )


@dataclass(eq=False)
class Ladder:
    """An exact distribution ranked worst to best, ready to score many results.

    Built once per configuration (callers cache it): ``score`` finds a value's class by
    bisection and keeps each class's ``Scored``, so a repeated result is a dict lookup.
    ``ranks`` rising; ``below[i]`` and ``ways[i]``: numerators of P(worse than class i)
    and P(class i) over ``den``."""

    ranks: tuple[Any, ...]
    below: tuple[int, ...]
    ways: tuple[int, ...]
    den: int
    variance: Fraction
    _scored: dict[int, Scored] = field(default_factory=dict, repr=False)

    @classmethod
    def from_weights(cls, weights: Iterable[tuple[Any, int]], den: int) -> Ladder:
        """From (rank, ways) pairs over one denominator (ranks need not be sorted or unique)."""
        merged: dict[Any, int] = {}
        for rank, ways in weights:
            if ways:
                merged[rank] = merged.get(rank, 0) + ways
        ranks = sorted(merged)
        ways = [merged[r] for r in ranks]
        if sum(ways) != den:
            raise ValueError("the chances of a distribution must add up to 1")
        below, running = [], 0
        for w in ways:
            below.append(running)
            running += w
        cubes = sum(w**3 for w in ways)
        variance = (1 - Fraction(cubes, den**3)) / 12
        return cls(tuple(ranks), tuple(below), tuple(ways), den, variance)

    @classmethod
    def from_dist(
        cls,
        dist: Mapping[Hashable, Fraction],
        *,
        key: Key | None = None,
        higher_is_better: bool = True,
    ) -> Ladder:
        classes = rank_classes(dist, key=key, higher_is_better=higher_is_better)
        den = math.lcm(*(p.denominator for _, p in classes)) if classes else 1
        return cls.from_weights(
            ((r, p.numerator * (den // p.denominator)) for r, p in classes), den
        )

    def score(self, rank: Any, value: Any = None) -> Scored | None:
        """The result ranked ``rank`` (``value``: what to show; the rank by default), or
        None when the distribution can't produce it (a row that doesn't match its dice)."""
        i = bisect_left(self.ranks, rank)
        if i == len(self.ranks) or self.ranks[i] != rank:
            return None
        scored = self._scored.get(i)
        if scored is None:
            percentile = Fraction(2 * self.below[i] + self.ways[i], 2 * self.den)
            scored = self._scored[i] = Scored(percentile, self.variance, rank)
        if value is not None and value != scored.value:
            return Scored(scored.percentile, scored.variance, value)
        return scored


@dataclass(frozen=True, slots=True)
class LuckSummary:
    """The luck of a set of rolls (see the module docstring for the test).

    ``n``: rolls scored (certain ones excluded); ``mean``: their mean percentile (0.5
    when n = 0); ``z`` and ``p_value``: the two-sided test of the mean against ½ (None
    when n = 0 or every variance is 0); ``verdict``: one of WITHIN_CHANCE, LUCKIER,
    UNLUCKIER, TOO_FEW (n below MIN_VERDICT_ROLLS)."""

    n: int
    mean: float
    z: float | None
    p_value: float | None
    verdict: str
    certain: int = 0

    @property
    def significant(self) -> bool:
        return self.verdict in (LUCKIER, UNLUCKIER)


def luck_summary(
    scored: Iterable[Scored | tuple[Fraction, Fraction]],
    *,
    significance: float = SIGNIFICANCE,
    min_rolls: int = MIN_VERDICT_ROLLS,
) -> LuckSummary:
    """Mean percentile, count and verdict of ``scored`` (``Scored`` values or
    (percentile, variance) pairs)."""
    total = spread = 0.0
    n = certain = 0
    parts: list[float] = []
    for item in scored:
        percentile, variance = (
            (item.percentile, item.variance) if isinstance(item, Scored) else item
        )
        if not variance:
            certain += 1
            continue
        n += 1
        parts.append(float(percentile))
        spread += float(variance)
    if n == 0:
        return LuckSummary(0, 0.5, None, None, TOO_FEW, certain)
    total = math.fsum(parts)
    mean = total / n
    z = (total - n / 2) / math.sqrt(spread)
    p_value = math.erfc(abs(z) / math.sqrt(2))
    if n < min_rolls:
        verdict = TOO_FEW
    elif p_value < significance:
        verdict = LUCKIER if z > 0 else UNLUCKIER
    else:
        verdict = WITHIN_CHANCE
    return LuckSummary(n, mean, z, p_value, verdict, certain)
