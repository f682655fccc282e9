"""/roll luck: the percentile of a logged total, checked against brute-force enumeration."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.luck_roll import roll_ladder, roll_percentile
from bot.rules.generic_roll import roll_expression


def oracle(sides: tuple[int, ...], total: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """Every total's chance over every combination of faces."""
    counts = Counter(total(faces) for faces in product(*(range(1, s + 1) for s in sides)))
    n = sum(counts.values())
    return {t: Fraction(c, n) for t, c in counts.items()}


def oracle_percentile(dist: dict[int, Fraction], value: int) -> Fraction:
    return (
        sum((p for t, p in dist.items() if t < value), Fraction(0))
        + dist.get(value, Fraction(0)) / 2
    )


def oracle_variance(dist: dict[int, Fraction]) -> Fraction:
    return sum(p * (oracle_percentile(dist, t) - Fraction(1, 2)) ** 2 for t, p in dist.items())


CASES = {
    "4d6kh3 + 2": ((6,) * 4, lambda f: sum(sorted(f)[1:]) + 2),
    "2d20kl1 + 5": ((20, 20), lambda f: min(f) + 5),
    "3d6 - 1d4": ((6, 6, 6, 4), lambda f: f[0] + f[1] + f[2] - f[3]),
    "4d6ph1": ((6,) * 4, lambda f: sum(sorted(f)[:3])),
    "3d6pl1": ((6,) * 3, lambda f: sum(sorted(f)[1:])),
    "2d8mi3": ((8, 8), lambda f: sum(max(x, 3) for x in f)),
    "2d6ma4kh1": ((6, 6), lambda f: min(max(f), 4)),
    "(1d6 + 2) * 3": ((6,), lambda f: (f[0] + 2) * 3),
    "-1d4 + 1d8": ((4, 8), lambda f: -f[0] + f[1]),
    "1d20 [fire] + 1": ((20,), lambda f: f[0] + 1),
    "3d4kh5": ((4,) * 3, sum),  # keeping more than there are keeps them all
}


@pytest.mark.parametrize("expression", list(CASES))
def test_every_total_against_brute_force(expression: str) -> None:
    sides, total = CASES[expression]
    dist = oracle(sides, total)
    ladder = roll_ladder(expression)
    assert ladder is not None
    assert ladder.variance == oracle_variance(dist)
    for value in dist:
        scored = roll_percentile({"expression": expression, "total": value})
        assert scored is not None and scored.value == value
        assert scored.percentile == oracle_percentile(dist, value)
    assert roll_percentile({"expression": expression, "total": max(dist) + 1}) is None


@pytest.mark.parametrize(
    "expression",
    [
        "1d6e6",  # explosions stop at the dice budget
        "1d6rr1",
        "1d6ro1",
        "4d6k>3",  # keeping by face
        "(1d6, 1d8)kh1",  # sets
        "1d%",
        "7 / 2",
        "1d20 > 10",
        "30d20",  # too large to build quickly
        "2d1000",
        "not dice",
    ],
)
def test_what_is_not_scored(expression: str) -> None:
    assert roll_percentile({"expression": expression, "total": 3}) is None


def test_damaged_rows_are_not_scored() -> None:
    assert roll_percentile({}) is None
    assert roll_percentile({"expression": "1d6", "total": "3"}) is None
    assert roll_percentile({"expression": 5, "total": 3}) is None


def test_a_plain_number_is_certain() -> None:
    scored = roll_percentile({"expression": "5", "total": 5})
    assert scored is not None and (scored.percentile, scored.variance) == (Fraction(1, 2), 0)


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=4, max_size=4))
def test_a_real_roll_result_scores_its_own_total(faces: list[int]) -> None:
    # The row the bot logs (GenericRoll.to_dict) scored as the recap will read it.
    rolled = roll_expression("4d6kh3 + 1 stats", dice=ScriptedDice(faces))
    row = rolled.to_dict()
    assert row["expression"] == "4d6kh3 + 1" and row["total"] == sum(sorted(faces)[1:]) + 1
    scored = roll_percentile(row)
    dist = oracle((6,) * 4, lambda f: sum(sorted(f)[1:]) + 1)
    assert scored is not None and scored.percentile == oracle_percentile(dist, row["total"])
