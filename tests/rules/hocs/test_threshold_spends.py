"""Which point a spend after a threshold test's roll used, and its stored form.

Scripted dice: a physique pool of 2 dice (1 and 2) is the test before every spend.
"""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import (
    PriorRolls,
    ThresholdPoint,
    ThresholdSpend,
    point_spent_between,
)
from bot.rules.hocs.determination import apply_determination_after
from bot.rules.hocs.pool import PoolResult, PoolSpec, RerollSource
from bot.rules.hocs.rolling import reroll_dice, roll_pool


def physique_roll() -> PoolResult:
    return roll_pool(PoolSpec(base=2), ScriptedDice([1, 2]))


def test_each_spend_is_read_from_the_dice() -> None:
    before = physique_roll()
    determination = apply_determination_after(before, ScriptedDice([6, 3]))
    hero = reroll_dice(before, (0, 1), ScriptedDice([5, 1]), source=RerollSource.HERO)
    fortune = reroll_dice(before, (1,), ScriptedDice([4]), source=RerollSource.FORTUNE)
    assert point_spent_between(before, determination) is ThresholdPoint.DETERMINATION
    assert point_spent_between(before, hero) is ThresholdPoint.HERO
    assert point_spent_between(before, fortune) is ThresholdPoint.FORTUNE
    # A second spend is told apart from the first: a fortune reroll after a hero one.
    both = reroll_dice(hero, (1,), ScriptedDice([6]), source=RerollSource.FORTUNE)
    assert point_spent_between(hero, both) is ThresholdPoint.FORTUNE
    again = reroll_dice(hero, (1,), ScriptedDice([2]), source=RerollSource.HERO)
    assert point_spent_between(hero, again) is ThresholdPoint.HERO
    with pytest.raises(RulesError, match="no point spent"):
        point_spent_between(before, before)


def test_the_record_round_trips_and_old_rows_read_as_none() -> None:
    spends = (
        ThresholdSpend(point=ThresholdPoint.DETERMINATION),
        ThresholdSpend(point=ThresholdPoint.FORTUNE, source="luck"),
    )
    rolls = PriorRolls(threshold_spends=spends)
    data = rolls.to_dict()
    assert data["threshold_spends"] == [
        {"point": "determination"},
        {"point": "fortune", "source": "luck"},
    ]
    assert PriorRolls.from_dict(data) == rolls
    old = PriorRolls().to_dict()
    assert "threshold_spends" not in old  # rows without a spend keep their old form
    assert PriorRolls.from_dict(old).threshold_spends == ()
    for damaged in ([{"point": "gold"}], ["hero"], [{}]):
        with pytest.raises(RulesError, match="damaged"):
            PriorRolls.from_dict({**old, "threshold_spends": damaged})
