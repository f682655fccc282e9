"""The per-configuration cache of a logged 2d10 task's score (``luck_base._task_scored``):
rows that rolled the same task share one score, and a bool owner reference, equal to 1 as
a cache key, is never given the score cached for sheet 1."""

from __future__ import annotations

from fractions import Fraction

from bot.rules.twod10 import luck_base
from bot.rules.twod10.luck_base import d10_task

ROW = {"faces": [3, 4], "dropped": None, "edge": "none", "total": 9}


def test_a_repeated_task_is_the_cached_score() -> None:
    luck_base._task_scored.cache_clear()
    first = d10_task(ROW, part="task", owner="character", owner_ref=1)
    again = d10_task(dict(ROW), part="task", owner="character", owner_ref=1)
    assert first is again
    # A natural 7 on 2d10: 15 of 100 below it, 6 of 100 on it.
    assert first is not None
    assert (first.percentile, first.value, first.part, first.owner, first.owner_ref) == (
        Fraction(9, 50), 9, "task", "character", 1,
    )  # fmt: skip


def test_a_bool_owner_ref_is_not_sheet_one() -> None:
    luck_base._task_scored.cache_clear()
    d10_task(ROW, part="task", owner="character", owner_ref=1)
    odd = d10_task(ROW, part="task", owner="character", owner_ref=True)
    assert odd is not None
    assert odd.owner_ref is True
    again = d10_task(ROW, part="task", owner="character", owner_ref=1)
    assert again is not None
    assert type(again.owner_ref) is int


def test_other_owners_and_totals_are_scored_apart() -> None:
    luck_base._task_scored.cache_clear()
    mine = d10_task(ROW, part="task", owner="character", owner_ref=1)
    theirs = d10_task(ROW, part="task", owner="character", owner_ref=2)
    higher = d10_task({**ROW, "total": 12}, part="task", owner="character", owner_ref=1)
    assert mine is not None and theirs is not None and higher is not None
    assert (theirs.owner_ref, higher.value) == (2, 12)
    assert mine.percentile == theirs.percentile == higher.percentile == Fraction(9, 50)
