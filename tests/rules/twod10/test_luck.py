"""Luck of logged 2d10 task rolls: exact percentiles, checked against a brute-force oracle."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.luck import TOO_FEW, luck_summary
from bot.rules.twod10.luck import RowLuck, percentile, row_luck
from bot.rules.twod10.luck_base import Scored
from bot.rules.twod10.tasks import Edge, roll_task
from cogs.twod10.survival_log import task_record


def oracle(edge: str, natural: int) -> tuple[Fraction, Fraction]:
    """Percentile and variance by brute force: every d10 face, dropped by hand."""
    count = 2 if edge == "none" else 3
    sums: Counter[int] = Counter()
    for faces in itertools.product(range(1, 11), repeat=count):
        kept = sorted(faces)
        if edge == "advantage":
            kept = kept[1:]
        elif edge == "disadvantage":
            kept = kept[:-1]
        sums[sum(kept)] += 1
    whole = 10**count
    below = sum(n for s, n in sums.items() if s < natural)
    pct = Fraction(below, whole) + Fraction(sums[natural], 2 * whole)
    var = (1 - sum(Fraction(n, whole) ** 3 for n in sums.values())) / 12
    return pct, var


def task_row(faces: list[int], dropped: int | None, **extra: object) -> dict[str, object]:
    return {"character_id": 7, "faces": faces, "dropped": dropped, "total": 0, **extra}


def test_plain_task_exact() -> None:
    # 2d10 showing 6 + 5 = 11: 45 of 100 below, 10 of 100 at 11 (two 1s … ten 10s).
    row = task_row([6, 5], None, advantage=0, disadvantage=0, total=14)
    scored = percentile("2d10-task", row)
    assert scored == Scored(
        percentile=Fraction(45, 100) + Fraction(10, 200),
        variance=oracle("none", 11)[1],
        value=14,
        part="task",
        owner="character",
        owner_ref=7,
    )
    assert scored.percentile == Fraction(1, 2)  # 11 is the median of 2d10, exactly


def test_natural_two_and_twenty_extremes() -> None:
    low = percentile("2d10-task", task_row([1, 1], None, advantage=0, disadvantage=0))
    high = percentile("2d10-task", task_row([10, 10], None, advantage=0, disadvantage=0))
    assert low is not None and high is not None
    assert low.percentile == Fraction(1, 200)
    assert high.percentile == Fraction(199, 200)


def test_advantage_and_disadvantage_match_the_oracle() -> None:
    # Advantage drops the lowest (index 1, the 2); disadvantage the highest (the 9).
    adv = percentile("2d10-task", task_row([7, 2, 9], 1, advantage=1, disadvantage=0))
    dis = percentile("2d10-task", task_row([7, 2, 9], 2, advantage=0, disadvantage=2))
    assert adv is not None and dis is not None
    assert (adv.percentile, adv.variance) == oracle("advantage", 16)
    assert (dis.percentile, dis.variance) == oracle("disadvantage", 9)
    # The same natural 16 is luckier without advantage than with it.
    plain = percentile("2d10-task", task_row([7, 9], None, advantage=0, disadvantage=0))
    assert plain is not None and plain.percentile > adv.percentile


def test_modifiers_do_not_move_the_percentile() -> None:
    # Ruling luck-ranked: the modifiers add alike to every natural.
    a = row_luck("2d10-task", task_row([3, 8], None, advantage=0, disadvantage=0, total=-4))
    b = row_luck("2d10-task", task_row([3, 8], None, advantage=0, disadvantage=0, total=30))
    assert a.scored[0].percentile == b.scored[0].percentile
    assert (a.scored[0].value, b.scored[0].value) == (-4, 30)


def test_old_rows_read_the_edge_from_the_dropped_die() -> None:
    # task_record rows carry "edge"; a row without one reads it from the dropped die.
    seen = percentile("2d10-dying", {"character_id": 3, "faces": [4, 9, 6], "dropped": 1})
    assert seen is not None and (seen.percentile, seen.variance) == oracle("disadvantage", 10)
    # Three equal faces: either edge drops the last one, with different odds (luck-old-rows).
    assert row_luck("2d10-dying", {"faces": [5, 5, 5], "dropped": 2}) == RowLuck(
        scored=(), unscored=("dying",)
    )
    named = percentile("2d10-dying", {"faces": [5, 5, 5], "dropped": 2, "edge": "advantage"})
    assert named is not None and named.percentile == oracle("advantage", 10)[0]


def test_rows_that_contradict_themselves_are_not_scored() -> None:
    # Advantage never drops the 9 of (7, 2, 9); a face of 11 is no d10's.
    for row in (
        task_row([7, 2, 9], 2, advantage=1, disadvantage=0),
        task_row([11, 2], None, advantage=0, disadvantage=0),
        task_row([4, 4], 0, advantage=0, disadvantage=0),
        {"faces": "4,4"},
        {},
    ):
        assert percentile("2d10-task", row) is None
        assert row_luck("2d10-task", row).unscored == ("task",)


def test_real_task_records_score_for_every_kind() -> None:
    result = roll_task(attribute=2, skill=1, advantage=1, dice=ScriptedDice([3, 10, 3]))
    record = task_record(result)
    assert record["edge"] == "advantage" and record["dropped"] == 2
    for kind, owner in (("2d10-dying", "character"), ("2d10-morale", "npcs")):
        scored = percentile(kind, {**record, "character_id": 5})
        assert scored is not None and scored.owner == owner
        assert (scored.percentile, scored.variance) == oracle("advantage", 13)
        assert scored.value == 16
    medic = percentile("2d10-medicine", {**record, "medic": "Ada", "character_id": 5})
    assert medic is not None and (medic.owner, medic.owner_ref) == ("medic", "Ada")


def test_rations_casting_and_disease_rows() -> None:
    rations = percentile("2d10-rations", {"character_id": 2, "faces": [2, 3], "total": 1})
    assert rations is not None and rations.percentile == oracle("none", 5)[0]
    # An interrupted casting rolled no dice: nothing scored, nothing missing.
    assert row_luck("2d10-cast", {"faces": [], "dropped": None}) == RowLuck(scored=())
    disease = row_luck(
        "2d10-disease",
        {"character_id": 4, "rolls": [
            {"faces": [9, 1, 8], "dropped": 1, "total": 20},  # treated: advantage first
            {"faces": [1, 2], "dropped": None, "total": 6},
            {"faces": [3, 3, 3], "dropped": 2, "total": 9},  # can't tell its edge
        ]},
    )  # fmt: skip
    assert [s.percentile for s in disease.scored] == [
        oracle("advantage", 17)[0],
        oracle("none", 3)[0],
    ]
    assert disease.unscored == ("disease",)


def test_unknown_kinds_are_counted_not_scored() -> None:
    assert row_luck("roll", {"faces": [1, 2]}) == RowLuck(scored=(), unscored=("roll",))
    assert percentile("hocs-check", {}) is None


@given(
    edge=st.sampled_from(["none", "advantage", "disadvantage"]),
    faces=st.lists(st.integers(1, 10), min_size=3, max_size=3),
)
def test_percentile_in_unit_interval_and_oracle(edge: str, faces: list[int]) -> None:
    rolled = roll_task(
        attribute=0, advantage=int(edge == "advantage"),
        disadvantage=int(edge == "disadvantage"), dice=ScriptedDice(faces),
    )  # fmt: skip
    record = task_record(rolled)
    scored = percentile("2d10-dying", record)
    assert scored is not None
    assert 0 < scored.percentile < 1
    assert (scored.percentile, scored.variance) == oracle(edge, rolled.natural)


@settings(max_examples=6, deadline=None)  # each example walks every face: 1,000 rolls
@given(edge=st.sampled_from(list(Edge)), bonus=st.integers(-25, 12))
def test_mean_over_the_exact_distribution_is_a_half(edge: Edge, bonus: int) -> None:
    count = 2 if edge is Edge.NONE else 3
    total = Fraction(0)
    spread = Fraction(0)
    scored = None
    for faces in itertools.product(range(1, 11), repeat=count):
        rolled = roll_task(
            attribute=0, advantage=int(edge is Edge.ADVANTAGE),
            disadvantage=int(edge is Edge.DISADVANTAGE), dice=ScriptedDice(faces),
        )  # fmt: skip
        scored = percentile("2d10-task", {**task_record(rolled), "advantage": 0,
                                          "disadvantage": 0, "total": rolled.total + bonus,
                                          "edge": edge.value})  # fmt: skip
        assert scored is not None
        total += scored.percentile
        spread += (scored.percentile - Fraction(1, 2)) ** 2
    whole = 10**count
    assert total / whole == Fraction(1, 2)
    # The null variance is the percentile's own variance over the same distribution.
    assert scored is not None and spread / whole == scored.variance


def test_scores_feed_the_shared_summary() -> None:
    # A natural 20, a natural 2 and a certain roll (a scavenge with a chance of 10).
    rolls = [
        percentile("2d10-task", task_row([10, 10], None, advantage=0, disadvantage=0)),
        percentile("2d10-task", task_row([1, 1], None, advantage=0, disadvantage=0)),
        percentile("2d10-scavenge", {"face": 4, "chance": 10}),
    ]
    summary = luck_summary(s for s in rolls if s is not None)
    assert (summary.n, summary.certain, summary.mean) == (2, 1, 0.5)
    assert summary.verdict == TOO_FEW
