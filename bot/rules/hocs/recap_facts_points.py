"""The points a HOCS roll-log row shows were spent on it, and by which side.

A row keeps no list of its spends; what it keeps is each roll's dice as they now stand
(``PoolResult.to_dict``), its ``revision`` (one more per point spent on it after the
roll: ``cogs.hocs.points.spending``) and, for a hit, its ``changes``. From those:

* **determination**: a roll whose spec has ``determination`` (spent before the roll,
  or after it: ``determination_after``); one point a roll, however many rounds a
  clash repeats with it;
* **fortune**: one point per die rerolled with a fortune point (a fortune point
  rerolls exactly one die, so the count is exact);
* **hero**: a hero point rerolls any dice at once, so the dice show at least as many
  hero points as the most hero rerolls on one die (summed over a clash's rounds).
  Where only one side of the row has hero rerolls and the row's kind cannot lose a
  roll once spent on (/pool, /check, /clash, /damage), the revision settles it
  exactly: every spend after the roll the dice don't explain is that side's hero
  point. On an /attack a spend can turn a hit into a miss and take the threshold
  test (and its spends) out of the row, so there it stays the lower bound;
* an /attack's or a /damage roll's hero reroll of the damage dice (``changes`` entry
  ``hero_reroll``): one hero point of the attacker's;
* a ``hero_damage`` row (/hero spend damage): one hero point of the character hit.

Not visible in a row (never counted): a hero point's 2d6 off a hit as the hit's row
shows it (``hero_reduction``: its own ``hero_damage`` row counts it), points spent on
nothing logged (a hero point for an extra action, determination regained).

Whose: ``ROLLER`` the row's character (a /clash's side a, the attacker); ``OPPONENT`` a
/clash's side b; ``TARGET`` an attack's or a /damage roll's target (its defense roll
and its threshold test).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["OPPONENT", "ROLLER", "TARGET", "row_spends"]

ROLLER = "roller"
OPPONENT = "opponent"
TARGET = "target"

# Kinds where no spend can take a roll out of the row (see the module docstring).
_REVISION_EXACT = ("pool", "check", "clash", "damage")


@dataclass
class _Side:
    determination: int = 0
    hero: int = 0
    fortune: int = 0
    after: int = 0  # spends after the roll the dice explain (revision units)

    def add_rolls(self, rolls: Iterable[Mapping[str, Any]]) -> None:
        for roll in rolls:
            if roll["spec"]["determination"]:
                self.determination = 1
                if roll.get("determination_after"):
                    self.after += 1
            most = 0
            for die in roll["dice"]:
                rerolls = die.get("rerolls", ())
                if not rerolls and isinstance(rerolls, list | tuple):
                    continue  # most dice are never rerolled: nothing to count
                sources = [r["source"] for r in rerolls]
                self.fortune += sources.count("fortune")
                self.after += sources.count("fortune")
                most = max(most, sources.count("hero"))
            self.hero += most
            self.after += most

    def spent(self) -> tuple[tuple[str, int], ...]:
        pairs = (
            ("determination", self.determination),
            ("hero", self.hero),
            ("fortune", self.fortune),
        )
        return tuple((kind, n) for kind, n in pairs if n)


def row_spends(kind: str, result: Mapping[str, Any]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Points spent on the row, by side (ROLLER, OPPONENT, TARGET): (kind, n) pairs with
    n > 0. Raises KeyError, TypeError… on a damaged row (the caller counts it bare)."""
    sides = {ROLLER: _Side(), OPPONENT: _Side(), TARGET: _Side()}
    if kind == "hero_damage":
        sides[ROLLER].hero = 1
    elif kind in ("pool", "check"):
        sides[ROLLER].add_rolls([result["roll"]])
    elif kind == "clash":
        rounds = result["clash"]["rounds"]
        sides[ROLLER].add_rolls(r["a"] for r in rounds)
        sides[OPPONENT].add_rolls(r["b"] for r in rounds)
    elif kind in ("attack", "damage"):
        if kind == "attack":
            _attack_sides(result["attack"], sides[ROLLER], sides[TARGET])
        hit = result.get("hit")
        test = hit.get("threshold_test") if hit else None
        if test:
            sides[TARGET].add_rolls([test["roll"]])
        for change in result.get("changes", ()):
            if "hero_reroll" in change:
                sides[ROLLER].hero += 1  # (not a revision: the damage choice's own count)
    if kind in _REVISION_EXACT:
        _settle_by_revision(int(result.get("revision", 0)), sides)
    out = {}
    for whose, side in sides.items():
        spent = side.spent()
        if spent:
            out[whose] = spent
    return out


def _attack_sides(attack: Mapping[str, Any], roller: _Side, target: _Side) -> None:
    if attack["mode"] == "clash" and attack.get("clash"):
        rounds = attack["clash"]["rounds"]
        roller.add_rolls(r["a"] for r in rounds)
        target.add_rolls(r["b"] for r in rounds)
    elif attack["mode"] == "defenseless ranged" and attack.get("test"):
        roller.add_rolls([attack["test"]["roll"]])


def _settle_by_revision(revision: int, sides: Mapping[str, _Side]) -> None:
    """Spends after the roll that the dice don't show are hero points that rerolled dice
    already rerolled by another; they are the one side's that has hero rerolls."""
    unexplained = revision - sum(side.after for side in sides.values())
    heroes = [side for side in sides.values() if side.hero]
    if unexplained > 0 and len(heroes) == 1:
        heroes[0].hero += unexplained
