"""Points a target spent on its threshold test after the roll, stored with the hit.

The text: determination "can be applied before or after the roll"; hero and fortune
points reroll dice already rolled. A point spent after the roll answered those dice, so
when an attack decided again rolls a new test, the dice it answered are gone and the
point is given back (``cogs.hocs.combat.threshold_points``); a determination point
pledged before the roll is not one of these: it goes into the new test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.hocs.pool import PoolResult, RerollSource


class ThresholdPoint(StrEnum):
    DETERMINATION = "determination"
    HERO = "hero"
    FORTUNE = "fortune"


@dataclass(frozen=True, kw_only=True)
class ThresholdSpend:
    """One point spent on a threshold test after its roll."""

    point: ThresholdPoint
    source: str | None = None  # a fortune point's source (None: unknown, not given back)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"point": self.point.value}
        if self.source is not None:
            data["source"] = self.source
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ThresholdSpend:
        if not isinstance(data, Mapping):
            raise ValueError("a stored threshold spend is a mapping")
        source = data.get("source")
        return cls(
            point=ThresholdPoint(data["point"]),
            source=str(source) if source is not None else None,
        )


def _rerolls(roll: PoolResult, source: RerollSource) -> int:
    return sum(1 for die in roll.dice for reroll in die.rerolls if reroll.source is source)


def point_spent_between(before: PoolResult, after: PoolResult) -> ThresholdPoint:
    """Which point one spend after the roll used to turn ``before`` into ``after``.

    Read from the dice themselves (a determination die added after the roll, a new hero
    or fortune reroll) rather than from the caller, so every path that changes a stored
    threshold test records the same thing. Talent rerolls a spend triggers don't count.
    Raises RulesError when neither changed (no point was spent)."""
    if after.determination_after and not before.determination_after:
        return ThresholdPoint.DETERMINATION
    if _rerolls(after, RerollSource.FORTUNE) > _rerolls(before, RerollSource.FORTUNE):
        return ThresholdPoint.FORTUNE
    if _rerolls(after, RerollSource.HERO) > _rerolls(before, RerollSource.HERO):
        return ThresholdPoint.HERO
    raise RulesError("That threshold test shows no point spent on it.")
