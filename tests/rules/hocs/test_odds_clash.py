"""Exact clash odds against brute force over every face, and the real clash's frequencies.

The brute force runs the real ``resolve_clash`` with scripted dice along every
branch of faces it asks for (repeats included, with a small round limit so the
tree ends), so the odds are checked against the clash code itself. A
determination die's chain of 6s has no end: branches deeper than a bound are
left open and their chance ``open`` bounds the comparison.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import RandomDice, ScriptedDice, ScriptedDiceExhausted
from bot.rules.hocs.clash import MAX_ROUNDS, resolve_clash
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.pool import PoolSpec
from tests.rules.hocs.odds_support import pools


def brute(
    a: PoolSpec, b: PoolSpec, *, attack: bool, rounds: int, depth: int
) -> tuple[Counter, Fraction]:
    """Chance of each (winner, advantage) of resolve_clash, and the open mass."""
    seen: Counter = Counter()
    open_mass = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        try:
            result = resolve_clash(
                a, b, dice=ScriptedDice(prefix), attack=attack, max_rounds=rounds
            )
        except ScriptedDiceExhausted:
            if len(prefix) >= depth:
                open_mass += Fraction(1, 6 ** len(prefix))
            else:
                stack.extend((*prefix, f) for f in range(1, 7))
            continue
        winner = result.winner.value if result.winner else None
        seen[(winner, result.advantage)] += Fraction(1, 6 ** len(prefix))
    return seen, open_mass


CASES = [
    # (a, b, attack, rounds)
    (PoolSpec(base=1), PoolSpec(base=1), False, 2),
    (PoolSpec(base=1), PoolSpec(base=1), True, 3),
    (PoolSpec(base=2), PoolSpec(base=1), True, 2),
    (PoolSpec(base=2), PoolSpec(base=2), False, 1),
    (PoolSpec(base=1, focus=1), PoolSpec(base=2, rerolls=1), False, 1),
    (PoolSpec(base=2, guaranteed=1), PoolSpec(base=1, focus=1, rerolls=1), False, 1),
    (PoolSpec(base=1), PoolSpec(base=0), False, 4),  # an empty side: repeats until A scores
    (PoolSpec(base=3, banes=3), PoolSpec(base=1), True, 2),
]


@pytest.mark.parametrize(("a", "b", "attack", "rounds"), CASES)
def test_clash_odds_match_brute_force(a: PoolSpec, b: PoolSpec, attack: bool, rounds: int) -> None:
    seen, open_mass = brute(a, b, attack=attack, rounds=rounds, depth=30)
    assert open_mass == 0
    odds = clash_odds(a, b, attack=attack, rounds=rounds)
    assert odds.a_wins == seen[("a", False)] + seen[("a", True)]
    assert odds.b_wins == seen[("b", False)] + seen[("b", True)]
    assert odds.standoff == seen[(None, False)]
    assert odds.a_advantage == seen[("a", True)]
    assert odds.b_advantage == seen[("b", True)]


@pytest.mark.parametrize(
    ("a", "b", "attack"),
    [
        (PoolSpec(base=0, determination=True), PoolSpec(base=1), False),
        (PoolSpec(base=0, determination=True), PoolSpec(base=0, determination=True), False),
        (PoolSpec(base=1), PoolSpec(base=0, determination=True), True),
        (PoolSpec(base=0, determination=True, rerolls=1), PoolSpec(base=1, focus=1), False),
    ],
)
def test_determination_chain_within_the_open_mass(a: PoolSpec, b: PoolSpec, attack: bool) -> None:
    seen, open_mass = brute(a, b, attack=attack, rounds=1, depth=7)
    assert 0 < open_mass < Fraction(1, 1000)
    odds = clash_odds(a, b, attack=attack, rounds=1)
    for side, figure in (("a", odds.a_wins), ("b", odds.b_wins)):
        counted = seen[(side, False)] + seen[(side, True)]
        assert counted <= figure <= counted + open_mass
    assert seen[(None, False)] <= odds.standoff <= seen[(None, False)] + open_mass


def test_two_single_dice_worked_by_hand() -> None:
    # One round of 1d6 vs 1d6 outside an attack: A wins if it succeeds and B fails
    # (1/4), or both succeed and only A shows a 6 (1/4 * 2/9): 11/36. Repeats: both
    # fail (1/4) or both succeed with as many 6s (6-6 or 4/5 vs 4/5: 1/4 * 5/9).
    # q = 9/36 + 5/36 = 7/18, so A wins (11/36)(1 - q^20)/(1 - q).
    q = Fraction(7, 18)
    odds = clash_odds(PoolSpec(base=1), PoolSpec(base=1))
    assert odds.repeat == q
    assert odds.a_wins == Fraction(11, 36) * (1 - q**MAX_ROUNDS) / (1 - q)
    assert odds.standoff == q**MAX_ROUNDS


def test_attacker_wins_ties() -> None:
    # 1d6 attack vs 1d6: A wins a round on any success of its own; only 0-0 repeats.
    odds = clash_odds(PoolSpec(base=1), PoolSpec(base=1), attack=True)
    assert odds.repeat == Fraction(1, 4)
    q = Fraction(1, 4)
    assert odds.a_wins == Fraction(1, 2) * (1 - q**MAX_ROUNDS) / (1 - q)
    assert odds.b_wins == Fraction(1, 4) * (1 - q**MAX_ROUNDS) / (1 - q)


def test_no_dice_on_either_side() -> None:
    empty = PoolSpec(base=0)
    assert clash_odds(empty, empty, attack=True).a_wins == 1
    assert clash_odds(empty, empty).standoff == 1


specs = pools(0, 1, max_banes=3, max_focus=2, max_guaranteed=1)


@settings(max_examples=40, deadline=None)
@given(a=specs, b=specs, attack=st.booleans())
def test_chances_add_up_and_mirror(a: PoolSpec, b: PoolSpec, attack: bool) -> None:
    odds = clash_odds(a, b, attack=attack)
    assert odds.a_wins + odds.b_wins + odds.standoff == 1
    assert 0 <= odds.a_advantage <= odds.a_wins and 0 <= odds.b_advantage <= odds.b_wins
    if not attack:
        mirror = clash_odds(b, a)
        assert (mirror.a_wins, mirror.b_wins) == (odds.b_wins, odds.a_wins)


def test_observed_frequencies_agree() -> None:
    """The real clash's frequencies over seeded rolls sit within a chi-square bound."""
    a = PoolSpec(base=3, determination=True, focus=1, rerolls=1)
    b = PoolSpec(base=4, guaranteed=1)
    odds = clash_odds(a, b)
    rng = RandomDice(random.Random(1415))
    n = 4000
    seen = Counter()
    for _ in range(n):
        result = resolve_clash(a, b, dice=rng)
        seen[(result.winner.value if result.winner else None, result.advantage)] += 1
    expected = {
        ("a", True): odds.a_advantage,
        ("a", False): odds.a_wins - odds.a_advantage,
        ("b", True): odds.b_advantage,
        ("b", False): odds.b_wins - odds.b_advantage,
    }
    chi = sum((seen[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items())
    assert chi < 16.3  # 3 degrees of freedom, p = 0.001
