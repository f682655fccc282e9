"""Luck of a logged 2d10 attack: each roll apart, the damage against a brute-force oracle."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.twod10.luck import RowLuck, percentile, row_luck
from tests.rules.twod10.test_luck import oracle

HALF = Fraction(1, 2)


def damage_oracle(
    sides: list[int], twice: list[bool], flat: int, block: bool, reduction: int
) -> Counter[int]:
    """Ways to deal each amount: every face of every die (an axe's two throws, the higher)."""
    throws: list[list[int]] = []
    for s, t in zip(sides, twice, strict=True):
        throws += [list(range(1, s + 1))] * (2 if t else 1)
    dealt: Counter[int] = Counter()
    for faces in itertools.product(*throws):
        it = iter(faces)
        total = sum(max(next(it), next(it)) if t else next(it) for t in twice)
        rolled = max(total + flat, 0)
        dealt[max((rolled // 2 if block else rolled) - reduction, 1)] += 1
    return dealt


def oracle_pct(dealt: Counter[int], value: int) -> Fraction:
    whole = sum(dealt.values())
    below = sum(n for k, n in dealt.items() if k < value)
    return Fraction(below, whole) + Fraction(dealt[value], 2 * whole)


def attack_row(**changes: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "ruleset": "2d10", "attacker_id": 11, "target_id": 22, "faces": [6, 9], "dropped": None,
        "edge": "none", "modifiers": [["strength", 2]], "total": 17, "cover_face": None,
        "hard_cover": None, "damage_faces": [], "damage_roll": None, "damage": 0,
        "look": None, "defended": None, "rending": [],
    }  # fmt: skip
    row.update(changes)
    return row


def parts(luck: RowLuck) -> list[tuple[str, str, int | str | None, int]]:
    return [(s.part, s.owner, s.owner_ref, s.value) for s in luck.scored]


def test_to_hit_alone() -> None:
    luck = row_luck("2d10-attack", attack_row())
    assert parts(luck) == [("to-hit", "attacker", 11, 17)]
    assert luck.scored[0].percentile == oracle("none", 15)[0]
    assert luck.unscored == ()


def test_every_part_headline_first() -> None:
    row = attack_row(
        look={"faces": [2, 8, 5], "dropped": 1, "total": 9}, look_edge="disadvantage",
        hard_cover=1, cover_face=4, faces=[10, 10], total=24,
        rending=[{"living": True, "faces": [4, 7], "dropped": None, "total": 14}],
        damage_faces=[3, 2, 5, 1], damage=9,
        damage_roll={"sides": [4, 4, 4, 4], "twice": [False] * 4, "flat": 0, "block": False,
                     "reduction": 2},
    )  # fmt: skip
    luck = row_luck("2d10-attack", row)
    assert parts(luck) == [
        ("to-hit", "attacker", 11, 24),
        ("look", "attacker", 11, 9),
        ("cover", "attacker", 11, 1),
        ("rending", "attacker", 11, 14),
        ("damage", "attacker", 11, 9),
    ]
    to_hit, look, cover, rend, damage = (s.percentile for s in luck.scored)
    assert to_hit == Fraction(199, 200)
    assert look == oracle("disadvantage", 7)[0]
    assert cover == Fraction(1, 4) + Fraction(3, 8)  # stopped on a 1 of 4, through on 2-4
    assert rend == oracle("none", 11)[0]
    assert damage == oracle_pct(damage_oracle([4] * 4, [False] * 4, 0, False, 2), 9)
    assert percentile("2d10-attack", row) == luck.scored[0]


def test_hard_cover_stopped_the_attack() -> None:
    row = attack_row(faces=[], total=None, hard_cover=3, cover_face=2)
    luck = row_luck("2d10-attack", row)
    assert parts(luck) == [("cover", "attacker", 11, 0)]
    assert luck.scored[0].percentile == Fraction(3, 8)  # stopped by 1-3 of the d4
    assert luck.scored[0].variance == (1 - Fraction(3, 4) ** 3 - Fraction(1, 4) ** 3) / 12


def test_defended_attack_is_the_defenders_luck() -> None:
    # Ruling luck-defended: the 2d10 are the defender's, ranked by their own total.
    row = attack_row(
        faces=[], dropped=None, edge=None, total=14,
        defended={"faces": [1, 5, 4], "dropped": 0, "total": 6, "flipped": 14},
        defense_edge="advantage",
        damage_faces=[3], damage=3,
        damage_roll={"sides": [6], "twice": [False], "flat": 0, "block": False, "reduction": 0},
    )  # fmt: skip
    luck = row_luck("2d10-attack", row)
    assert parts(luck) == [("defense", "defender", 22, 6), ("damage", "attacker", 11, 3)]
    assert luck.scored[0].percentile == oracle("advantage", 9)[0]
    assert luck.scored[1].percentile == Fraction(2, 6) + Fraction(1, 12)


def test_damage_with_an_axe_block_and_reduction_matches_the_oracle() -> None:
    config = {"sides": [8, 6], "twice": [True, False], "flat": 3, "block": True, "reduction": 2}
    dealt = damage_oracle(config["sides"], config["twice"], 3, True, 2)  # type: ignore[arg-type]
    for amount in dealt:
        row = attack_row(damage_faces=[5, 5], damage=amount, damage_roll=config)
        scored = row_luck("2d10-attack", row).scored[-1]
        assert scored.part == "damage" and scored.percentile == oracle_pct(dealt, amount)
    # A damage its dice can't deal is not scored.
    bad = row_luck("2d10-attack", attack_row(damage=40, damage_roll=config))
    assert bad.unscored == ("damage",)


def test_certain_damage_scores_with_no_variance() -> None:
    # Ruling luck-certain: a flat point, or a reduction that floors every sum at 1.
    for config in (
        {"sides": [1], "twice": [False], "flat": 0, "block": False, "reduction": 0},
        {"sides": [4], "twice": [False], "flat": 0, "block": True, "reduction": 9},
    ):
        luck = row_luck("2d10-attack", attack_row(damage=1, damage_roll=config))
        assert [s.part for s in luck.scored] == ["to-hit", "damage"] and luck.unscored == ()
        assert (luck.scored[1].percentile, luck.scored[1].variance) == (HALF, 0)


def test_old_rows_count_what_they_cannot_rebuild() -> None:
    # Ruling luck-old-rows: no edge (three equal faces), no quarters, no damage sides.
    old = attack_row(faces=[4, 4, 4], dropped=2, hard_cover=None, cover_face=3,
                     damage_faces=[2], damage=2)  # fmt: skip
    del old["edge"], old["hard_cover"], old["damage_roll"]
    luck = row_luck("2d10-attack", old)
    assert luck.scored == ()
    assert luck.unscored == ("cover", "to-hit", "damage")
    # An unambiguous dropped die still tells the edge: the 2 is the lowest, so advantage.
    inferred = attack_row(faces=[2, 8, 8], dropped=0)
    del inferred["edge"]
    scored = percentile("2d10-attack", inferred)
    assert scored is not None and scored.percentile == oracle("advantage", 16)[0]


dice = st.lists(st.tuples(st.sampled_from([1, 2, 3, 4, 6, 8]), st.booleans()), min_size=1,
                max_size=3)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(config=dice, flat=st.integers(-3, 6), block=st.booleans(), reduction=st.integers(0, 8))
def test_damage_mean_is_a_half_and_matches_the_oracle(
    config: list[tuple[int, bool]], flat: int, block: bool, reduction: int
) -> None:
    sides = [s for s, _ in config]
    twice = [t and s > 1 for s, t in config]  # a flat point is never thrown twice
    dealt = damage_oracle(sides, twice, flat, block, reduction)
    whole = sum(dealt.values())
    logged = {"sides": sides, "twice": twice, "flat": flat, "block": block, "reduction": reduction}
    mean = Fraction(0)
    for amount, ways in dealt.items():
        luck = row_luck("2d10-attack", attack_row(damage=amount, damage_roll=logged))
        damage = [s for s in luck.scored if s.part == "damage"]
        assert 0 <= damage[0].percentile <= 1
        assert (damage[0].variance == 0) == (len(dealt) == 1)  # certain: no variance
        assert damage[0].percentile == oracle_pct(dealt, amount)
        mean += Fraction(ways, whole) * damage[0].percentile
    assert mean == HALF
