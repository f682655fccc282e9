"""Luck of a light's rolls (kind 2d10-light): the burn time ranked by the turns it gives,
a drop by whether the light stayed lit (ruling luck-ranked), the bearer's (luck-sides);
a damaged or forged row is counted, never scored, never an error."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bot.rules.twod10.luck import RowLuck, percentile, row_luck
from bot.rules.twod10.recap_facts import facts_of
from bot.storage.roll_log import LoggedRoll


def row(roll: str, light: str, faces: list[Any], total: Any, **extra: Any) -> dict[str, Any]:
    return {"ruleset": "2d10", "roll": roll, "light": light, "light_id": 1, "character_id": 7,
            "faces": faces, "total": total, **extra}  # fmt: skip


def test_a_torch_burn_time_is_ranked_by_its_turns() -> None:
    # The higher of 2d6 is k with chance (2k − 1)/36.
    for faces, turns, below in (([1, 1], 1, 0), ([3, 5], 5, 16), ([6, 6], 6, 25)):
        scored = percentile("2d10-light", row("burn", "torch", faces, turns))
        assert scored is not None
        assert (scored.value, scored.part, scored.owner, scored.owner_ref) == (
            turns, "light", "character", 7,
        )  # fmt: skip
        assert scored.percentile == Fraction(below, 36) + Fraction(2 * turns - 1, 72)


def test_a_drop_is_ranked_by_staying_lit() -> None:
    # A torch goes out on a d4's 1: out (1 in 4) is the worst, lit the rest.
    out = percentile("2d10-light", row("drop", "torch", [1], 1, went_out=True))
    lit = percentile("2d10-light", row("drop", "torch", [4], 4, went_out=False))
    assert out is not None and (out.value, out.percentile) == (0, Fraction(1, 8))
    assert lit is not None and (lit.value, lit.percentile) == (1, Fraction(1, 4) + Fraction(3, 8))
    # Every face but 1 keeps a lantern lit alike: a 2 is as lucky as a 12.
    two = percentile("2d10-light", row("drop", "lantern", [2], 2, went_out=False))
    twelve = percentile("2d10-light", row("drop", "lantern", [12], 12, went_out=False))
    assert (
        two == twelve and two is not None and two.percentile == Fraction(1, 12) + Fraction(11, 24)
    )


@pytest.mark.parametrize(
    "logged",
    [
        row("burn", "torch", [3, 5], 3),  # the total isn't the higher face
        row("burn", "torch", [3, 5, 6], 6),  # three dice for a torch
        row("burn", "lantern", [9, 1, 1], 9),  # a d8 showing 9
        row("drop", "torch", [5], 5),  # a d4 showing 5
        row("drop", "torch", [True], True),  # a bool is no face
        row("burn", "candle", [3, 5], 5),  # no such light
        row("snuff", "torch", [3], 3),  # no such roll
        row("burn", "torch", "3, 5", 5),
        {"ruleset": "2d10"},
    ],
)
def test_a_damaged_light_row_is_counted_not_scored(logged: dict[str, Any]) -> None:
    assert row_luck("2d10-light", logged) == RowLuck(scored=(), unscored=("light",))
    facts = facts_of(_logged("2d10-light", logged), {7: "Brann"})
    assert facts.unscored and facts.luck == ()


def test_a_kind_no_reader_knows_is_told_by_its_kind() -> None:
    facts = facts_of(_logged("2d10-sundial", {"faces": "?"}), {})
    assert (facts.label, facts.unscored, facts.luck, facts.roller) == (
        "2d10-sundial", True, (), None,
    )  # fmt: skip
    assert row_luck("2d10-sundial", {}) == RowLuck(scored=(), unscored=("2d10-sundial",))


def _logged(kind: str, result: dict[str, Any]) -> LoggedRoll:
    return LoggedRoll(id=1, guild_id=1, channel_id=2, user_id=3, kind=kind, expression="",
                      result=result, total=None, secret=False, created_at="")  # fmt: skip
