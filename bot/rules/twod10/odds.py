"""Exact odds of a 2d10 task: the chance of each to-hit band before the dice are thrown.

The figures come from the dice's own functions, not from a model of them: every
face sequence ``roll_d10s`` can be asked for (100 for 2d10, 1,000 for 3d10 drop
one) is fed to it through scripted dice, once per edge, and the kept dice's sum
(the natural roll) is counted. A task's band, success, damage categories and
natural 2/20 depend on the kept dice only through that sum, so one real roll per
natural (the first sequence seen) judged by ``judge`` with the task's modifiers
gives every figure of every query: 19 judgements, no sampling, exact fractions.

Ruling ``odds-natural-two``: the odds show a natural 2 as its own row, apart
from the band its total falls in (the dice name it a failure), so the rows of a
task's odds add up to exactly 100%.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.bands import OutcomeBand
from bot.rules.twod10.tasks import (
    SIDES,
    D10Roll,
    Edge,
    Modifier,
    TaskResult,
    check_score,
    judge,
    net_edge,
    roll_d10s,
)

# The rows of a task's odds, in the order shown (ruling odds-natural-two: natural 2 apart).
NATURAL_TWO_ROW = "natural 2"
ROWS: tuple[str, ...] = (NATURAL_TWO_ROW, *(band.value for band in OutcomeBand))
FIRST_SUCCESS_ROW = ROWS.index(OutcomeBand.SUCCESS_WITH_COMPLICATION.value)


@dataclass(frozen=True)
class NaturalRoll:
    """One natural (kept dice sum), its chance, and a real roll of the dice that gives it."""

    natural: int
    chance: Fraction
    roll: D10Roll


@lru_cache(maxsize=3)
def naturals(edge: Edge) -> tuple[NaturalRoll, ...]:
    """Every natural ``edge`` can give, from all face sequences through ``roll_d10s``."""
    count = 2 if edge is Edge.NONE else 3
    counts: Counter[int] = Counter()
    first: dict[int, D10Roll] = {}
    for faces in itertools.product(range(1, SIDES + 1), repeat=count):
        roll = roll_d10s(edge, ScriptedDice(faces))
        counts[roll.natural] += 1
        first.setdefault(roll.natural, roll)
    whole = SIDES**count
    return tuple(
        NaturalRoll(natural=n, chance=Fraction(counts[n], whole), roll=first[n])
        for n in sorted(counts)
    )


@dataclass(frozen=True)
class TaskOdds:
    """Exact chances of a task: each row of the odds, success, the totals."""

    edge: Edge
    modifier: int  # the sum of every modifier (difficulty or defense included)
    outcomes: tuple[tuple[Fraction, TaskResult], ...]  # one judged roll per natural

    def row_chances(self) -> tuple[Fraction, ...]:
        """The chance of each of ``ROWS``: natural 2, then each band without natural 2s."""
        chances = dict.fromkeys(ROWS, Fraction(0))
        for p, result in self.outcomes:
            row = NATURAL_TWO_ROW if result.natural_two else result.band.value
            chances[row] += p
        return tuple(chances[row] for row in ROWS)

    @property
    def success(self) -> Fraction:
        return sum((p for p, r in self.outcomes if r.succeeded), Fraction(0))

    @property
    def natural_twenty(self) -> Fraction:
        return sum((p for p, r in self.outcomes if r.natural_twenty), Fraction(0))

    @property
    def expected_total(self) -> Fraction:
        return sum((p * r.total for p, r in self.outcomes), Fraction(0))

    def totals(self) -> tuple[tuple[int, Fraction], ...]:
        """The chance of each total, lowest first."""
        return tuple((r.total, p) for p, r in self.outcomes)


@lru_cache(maxsize=4096)
def _task_odds(edge: Edge, modifiers: tuple[Modifier, ...]) -> TaskOdds:
    outcomes = tuple((n.chance, judge(n.roll, modifiers)) for n in naturals(edge))
    return TaskOdds(edge=edge, modifier=sum(m.value for m in modifiers), outcomes=outcomes)


def task_odds(
    *,
    attribute: int,
    skill: int = 0,
    difficulty: int = 0,
    extra: tuple[Modifier, ...] = (),
    advantage: int = 0,
    disadvantage: int = 0,
) -> TaskOdds:
    """The odds of ``roll_task`` with the same arguments (checked the same way)."""
    check_score(attribute, name="Attribute")
    check_score(skill, name="Skill", low=0)
    mods = [Modifier(label="attribute", value=attribute), Modifier(label="skill", value=skill)]
    if difficulty:
        mods.append(Modifier(label="difficulty", value=difficulty))
    mods.extend(m for m in extra if m.value)
    return _task_odds(net_edge(advantage, disadvantage), tuple(mods))
