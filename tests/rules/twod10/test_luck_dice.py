"""Luck of the single dice: initiative d6, interrupt d8s, scavenge d10, backpack draw."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.twod10.luck import RowLuck, percentile, row_luck

HALF = Fraction(1, 2)


def initiative_row(faces: list[int], kept: int, low: int = 4, **extra: Any) -> dict[str, Any]:
    return {"ruleset": "2d10", "round": 1, "faces": faces, "kept": kept,
            "npc_range": [low, 6], "player_range": [1, low - 1], **extra}  # fmt: skip


def test_initiative_is_the_players_luck() -> None:
    # Ruling luck-sides: NPCs took the first turn on a 5 (players win on 1-3: one half).
    lost = percentile("2d10-initiative", initiative_row([5], 5, advantage=None))
    assert lost is not None and (lost.owner, lost.value) == ("players", 0)
    assert lost.percentile == Fraction(1, 4)
    # The NPCs' disengaging: two d6, the higher kept; the players win only on max <= 3.
    npc = percentile("2d10-initiative", initiative_row([2, 5], 5, advantage="npcs"))
    assert npc is not None and npc.percentile == Fraction(3, 4) / 2
    # The players': the lower kept; they win unless both show 4+ (3 in 4).
    won = percentile("2d10-initiative", initiative_row([5, 2], 2, advantage="players"))
    assert won is not None and won.value == 1
    assert won.percentile == Fraction(1, 4) + Fraction(3, 8)
    # The NPCs lost momentum: they need 5-6, so the players win on 1-4.
    momentum = percentile("2d10-initiative", initiative_row([4], 4, low=5, advantage=None))
    assert momentum is not None and momentum.percentile == Fraction(2, 6) + Fraction(2, 6)


def test_initiative_old_rows() -> None:
    # Ruling luck-old-rows: without "advantage", the kept face tells unless both are equal.
    inferred = percentile("2d10-initiative", initiative_row([2, 5], 5))
    assert inferred is not None and inferred.percentile == Fraction(3, 8)
    assert row_luck("2d10-initiative", initiative_row([3, 3], 3)) == RowLuck(
        scored=(), unscored=("initiative",)
    )
    assert percentile("2d10-initiative", initiative_row([7], 7)) is None


def test_interrupt_is_the_reactors_luck() -> None:
    row = {"reactor_id": 3, "opponent_id": 4, "reactor_faces": [6], "reactor_total": 8,
           "opponent_face": 5, "opponent_total": 6, "reacts_first": True}  # fmt: skip
    scored = percentile("2d10-interrupt", row)
    assert scored is not None and (scored.owner, scored.owner_ref, scored.value) == (
        "reactor",
        3,
        1,
    )
    # Finesse 2 against 1: first unless the opponent's d8 beats the reactor's: 36 of 64.
    brute = sum(1 for r, o in itertools.product(range(1, 9), repeat=2) if r + 2 > o + 1)
    assert brute == 36
    assert scored.percentile == Fraction(64 - 36, 64) + Fraction(36, 128)
    # A reach weapon's advantage: two d8, the higher kept.
    reach = {**row, "reactor_faces": [3, 7], "reactor_total": 7, "opponent_face": 8,
             "opponent_total": 8}  # fmt: skip
    first = sum(1 for a, b, o in itertools.product(range(1, 9), repeat=3) if max(a, b) > o)
    scored = percentile("2d10-interrupt", reach)
    assert scored is not None and scored.value == 0
    assert scored.percentile == Fraction(512 - first, 1024)


def test_scavenge_and_draw() -> None:
    missed = percentile("2d10-scavenge", {"character_id": 5, "face": 7, "chance": 2})
    found = percentile("2d10-scavenge", {"character_id": 5, "face": 1, "chance": 2})
    assert missed is not None and missed.percentile == Fraction(8, 10) / 2
    assert found is not None and found.percentile == Fraction(8, 10) + Fraction(1, 10)
    # Ruling luck-certain: a chance of 10 can't fail: no variance, counted apart.
    certain = percentile("2d10-scavenge", {"face": 10, "chance": 10})
    assert certain is not None and (certain.percentile, certain.variance) == (HALF, 0)
    drawn = percentile("2d10-draw", {"character_id": 5, "face": 4, "sides": 4, "bonus": 0})
    assert drawn is not None and drawn.percentile == Fraction(3, 4) + Fraction(1, 8)
    assert drawn.variance == (1 - Fraction(1, 4) ** 3 - Fraction(3, 4) ** 3) / 12
    sure = percentile("2d10-draw", {"face": 1, "sides": 4, "bonus": 3})
    assert sure is not None and (sure.percentile, sure.variance) == (HALF, 0)
    # Rows logged before the die's sides were: counted, not scored.
    assert row_luck("2d10-draw", {"face": 3, "bonus": 0}).unscored == ("draw",)


@given(sides=st.integers(2, 30), bonus=st.integers(0, 10))
def test_draw_mean_is_a_half(sides: int, bonus: int) -> None:
    scores = [
        percentile("2d10-draw", {"face": f, "sides": sides, "bonus": bonus})
        for f in range(1, sides + 1)
    ]
    assert all(s is not None and 0 < s.percentile < 1 for s in scores)
    assert sum(s.percentile for s in scores if s) / sides == HALF
    certain = bonus >= sides - 1  # every face draws
    assert all(s is not None and (s.variance == 0) == certain for s in scores)


@given(gap=st.integers(-9, 9), reach=st.booleans())
def test_interrupt_mean_is_a_half(gap: int, reach: bool) -> None:
    count = 2 if reach else 1
    scores = []
    for faces in itertools.product(range(1, 9), repeat=count + 1):
        *mine, theirs = faces
        row = {"reactor_faces": mine, "reactor_total": max(mine) + gap,
               "opponent_face": theirs, "opponent_total": theirs}  # fmt: skip
        scored = percentile("2d10-interrupt", row)
        assert scored is not None
        scores.append(scored)
    assert sum(s.percentile for s in scores) / len(scores) == HALF
    # Strictly higher goes first: +8 always does, -7 never can; certain, no variance.
    certain = gap >= 8 or gap <= -7
    assert all((s.variance == 0) == certain for s in scores)


def test_initiative_mean_is_a_half() -> None:
    for low, advantage in itertools.product((3, 4, 5), (None, "npcs", "players")):
        count = 1 if advantage is None else 2
        scores = []
        for faces in itertools.product(range(1, 7), repeat=count):
            kept = faces[0] if advantage is None else (
                max(faces) if advantage == "npcs" else min(faces)
            )  # fmt: skip
            row = initiative_row(list(faces), kept, low=low, advantage=advantage)
            scored = percentile("2d10-initiative", row)
            assert scored is not None
            scores.append(scored.percentile)
        assert sum(scores) / len(scores) == HALF
