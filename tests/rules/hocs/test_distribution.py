"""Distributions of success counts: exact (icepool) vs our rules, enumerated and sampled.

Enumeration drives the real ``roll_pool`` through every sequence of faces (a
dice object that branches when it runs out of scripted faces), so it checks the
implementation exactly, not a model of it. Sampling uses a fixed seed, so it
cannot flake; the tolerance (0.015 absolute per outcome) is still about four
standard errors at 20,000 samples, so a fair implementation would pass any seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import icepool
import pytest

from bot.rules.dice_source import RandomDice
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import roll_pool

SAMPLES = 20_000
TOLERANCE = 0.015

SUCCESS = icepool.d6.map(lambda f: 1 if f >= 4 else 0)
# Determination die: outcome 10 stands for a 6 that explodes; a total of 10k + r
# means k sixes then a final face worth r (0 or 1) successes.
EXPLODING = icepool.Die({0: 3, 1: 2, 10: 1}).explode([10], depth=40).map(lambda t: t // 10 + t % 10)
REROLL_FAILURES = icepool.d6.reroll([1, 2, 3], depth=1).map(lambda f: 1 if f >= 4 else 0)


def exact(die: icepool.Die) -> dict[int, float]:
    return {int(k): float(die.probability(k)) for k in die.outcomes()}


class _OutOfFaces(Exception):
    pass


class _PrefixDice:
    def __init__(self, prefix: tuple[int, ...]) -> None:
        self._prefix = prefix
        self._next = 0

    def roll(self, sides: int) -> int:
        assert sides == 6
        if self._next >= len(self._prefix):
            raise _OutOfFaces
        self._next += 1
        return self._prefix[self._next - 1]


def enumerate_successes(
    spec: PoolSpec, *, min_probability: float = 1e-9
) -> tuple[dict[int, float], float]:
    """Exact success distribution of ``roll_pool(spec)``; returns it and the mass cut off."""
    dist: Counter[int] = Counter()
    cut = 0.0
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        p = 6.0 ** -len(prefix)
        try:
            successes = roll_pool(spec, _PrefixDice(prefix)).successes
        except _OutOfFaces:
            if p / 6 < min_probability:
                cut += p
            else:
                stack.extend((*prefix, face) for face in range(1, 7))
            continue
        dist[successes] += p
    return dict(dist), cut


def sample(spec: PoolSpec, seed: int) -> dict[int, float]:
    dice = RandomDice(random.Random(seed))
    counts = Counter(roll_pool(spec, dice).successes for _ in range(SAMPLES))
    return {k: v / SAMPLES for k, v in counts.items()}


def max_error(a: dict[int, float], b: dict[int, float]) -> float:
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


CASES: list[tuple[str, PoolSpec, Callable[[], icepool.Die]]] = [
    ("3d6", PoolSpec(base=3), lambda: 3 @ SUCCESS),
    ("5d6, 1 boon, 3 banes", PoolSpec(base=5, boons=1, banes=3), lambda: 4 @ SUCCESS),
    ("2d6 + determination", PoolSpec(base=2, determination=True), lambda: 2 @ SUCCESS + EXPLODING),
    ("2d6, 2 rerolls", PoolSpec(base=2, rerolls=2), lambda: 2 @ REROLL_FAILURES),
    ("3d6, 2 boons", PoolSpec(base=3, boons=2), lambda: 4 @ SUCCESS),
]


@pytest.mark.parametrize(("name", "spec", "model"), CASES, ids=[c[0] for c in CASES])
def test_enumerated_implementation_matches_exact(
    name: str, spec: PoolSpec, model: Callable[[], icepool.Die]
) -> None:
    enumerated, cut = enumerate_successes(spec)
    assert cut < 1e-6
    assert max_error(enumerated, exact(model())) < 1e-6


@pytest.mark.parametrize(("name", "spec", "model"), CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_sampled_matches_exact(name: str, spec: PoolSpec, model: Callable[[], icepool.Die]) -> None:
    assert max_error(sample(spec, seed=20240601), exact(model())) < TOLERANCE


def test_focus_and_reroll_enumeration_is_a_distribution_and_beats_plain() -> None:
    plain, _ = enumerate_successes(PoolSpec(base=3))
    helped, cut = enumerate_successes(PoolSpec(base=3, rerolls=1, focus=1))
    assert cut == 0 and abs(sum(helped.values()) - 1) < 1e-12

    def mean(d: dict[int, float]) -> float:
        return sum(k * p for k, p in d.items())

    assert mean(helped) > mean(plain)
    # No success only if all three dice show 1–2 (a 3 takes the focus) and the
    # rerolled one shows 1–2 again (a 3 would take the focus): (2/6)^4.
    assert helped[0] == pytest.approx((2 / 6) ** 4)
