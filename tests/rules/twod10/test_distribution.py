"""The 2d10 / 3d10-drop-one rolls against exact probabilities from icepool.

Enumeration drives the real ``roll_task`` through every face sequence (100 or
1,000 of them), so it checks the implementation, not a model of it. Sampling
uses a fixed seed with a tolerance of about four standard errors.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import icepool
import pytest

from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.twod10.bands import OutcomeBand
from bot.rules.twod10.tasks import roll_task

SAMPLES = 20_000
TOLERANCE = 0.012

MODELS = {
    (0, 0): lambda: 2 @ icepool.d10,
    (1, 0): lambda: icepool.d10.highest(3, 2),
    (0, 1): lambda: icepool.d10.lowest(3, 2),
    (2, 1): lambda: icepool.d10.highest(3, 2),  # one net advantage
    (1, 1): lambda: 2 @ icepool.d10,  # they cancel
}


def exact(die: icepool.Die) -> dict[int, float]:
    return {int(k): float(die.probability(k)) for k in die.outcomes()}


def enumerate_naturals(advantage: int, disadvantage: int) -> dict[int, float]:
    count = 2 if advantage == disadvantage else 3
    dist: Counter[int] = Counter()
    for faces in itertools.product(range(1, 11), repeat=count):
        result = roll_task(attribute=0, advantage=advantage, disadvantage=disadvantage,
                           dice=ScriptedDice(faces))  # fmt: skip
        dist[result.natural] += 10.0**-count
    return dict(dist)


def max_error(a: dict[int, float], b: dict[int, float]) -> float:
    return max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


@pytest.mark.parametrize("edge", list(MODELS), ids=str)  # (ids the same in every xdist worker)
def test_enumerated_rolls_match_exact(edge: tuple[int, int]) -> None:
    assert max_error(enumerate_naturals(*edge), exact(MODELS[edge]())) < 1e-12


@pytest.mark.parametrize("edge", [(0, 0), (1, 0), (0, 1)], ids=str)
def test_sampled_rolls_match_exact(edge: tuple[int, int]) -> None:
    dice = RandomDice(random.Random(20261130))
    counts = Counter(
        roll_task(attribute=0, advantage=edge[0], disadvantage=edge[1], dice=dice).natural
        for _ in range(SAMPLES)
    )
    sampled = {k: v / SAMPLES for k, v in counts.items()}
    assert max_error(sampled, exact(MODELS[edge]())) < TOLERANCE


def test_success_chances_with_a_plus_two_bonus() -> None:
    # Success needs a natural of 8+ (and not a natural 2): 2d10 ≥ 8 is 79/100.
    success = Counter[bool]()
    for faces in itertools.product(range(1, 11), repeat=2):
        result = roll_task(attribute=1, skill=1, dice=ScriptedDice(faces))
        success[result.band not in (OutcomeBand.FAILURE, OutcomeBand.EXTREME_FAILURE)] += 1
    assert success[True] == 79
    assert float((2 @ icepool.d10 >= 8).probability(True)) == pytest.approx(0.79)
    adv = icepool.d10.highest(3, 2)
    assert float((adv >= 8).probability(True)) > 0.79
