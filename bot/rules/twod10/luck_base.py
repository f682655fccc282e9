"""The pieces every 2d10 luck scorer shares: the score, a ranked distribution, a logged d10 roll.

The math is the shared ``bot.rules.generic.luck``: a result's mid-percentile
P(a worse result) + ½·P(this result) and its null variance (1 − Σ p³)/12, from a
``Ladder`` built once per configuration (each scorer caches its own on a small key: a
tuple of Fractions is slow to hash). ``Scored`` is the shared one with where the roll
sits in its row and whose luck it is.

A logged 2d10 (or 3d10 drop one) is read back by re-rolling its faces through the
real ``roll_d10s``: the edge the row names (or, on rows logged before edges were,
each edge that drops the die the row says was dropped) must give back the logged
dropped die, else the row can't say how it was rolled and is not scored (ruling
``luck-old-rows`` in ``luck``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.generic import luck as generic
from bot.rules.generic.luck import Ladder
from bot.rules.twod10.odds import naturals
from bot.rules.twod10.tasks import SIDES, Edge, net_edge, roll_d10s

# A distribution as (result, chance) pairs.
Dist = tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True, slots=True)
class Scored(generic.Scored):
    """One scored roll of a logged row: the shared score (``percentile``, ``variance``,
    ``value``: the result ranked, a total, the damage taken, 1 for a pass and 0 for a
    fail) and where it sits.

    ``part`` names the roll within its row ("task", "to-hit", "defense", "look",
    "cover", "rending", "damage", "initiative", "interrupt", …); ``owner`` says whose
    luck it is ("character", "attacker", "defender", "medic", "reactor", "players",
    "npcs") and ``owner_ref`` their reference in the row: a 2d10 sheet id, a tracker
    combatant id for a reactor, the medic's name, None for a side or an unnamed roller
    (the row's user). A variance of 0 is a certain roll (ruling ``luck-certain`` in
    ``luck``): ``generic.luck_summary`` counts it apart, never in the mean."""

    part: str = ""
    owner: str = ""
    owner_ref: int | str | None = None


def ladder(dist: Dist) -> Ladder:
    """The ranked distribution of whole-number results, higher better. The same as
    ``Ladder.from_dist`` without its Fraction sums: the results here are already distinct."""
    den = math.lcm(*(p.denominator for _, p in dist))
    return Ladder.from_weights(((k, p.numerator * (den // p.denominator)) for k, p in dist), den)


def placed(
    found: generic.Scored | None, value: int, part: str, owner: str, owner_ref: int | str | None
) -> Scored | None:
    """The shared score put in its row; None when the row's result can't come from its dice."""
    if found is None:
        return None
    return Scored(percentile=found.percentile, variance=found.variance, value=value,
                  part=part, owner=owner, owner_ref=owner_ref)  # fmt: skip


def whole(value: Any) -> int | None:
    """An int from the row's JSON, or None (a bool is no number: ``type``, not isinstance)."""
    return value if type(value) is int else None


def edge_named(row: Mapping[str, Any]) -> Edge | None:
    """The edge a row records: ``edge`` ("advantage", …) or /task's two counts; else None."""
    named = row.get("edge")
    if isinstance(named, str):
        try:
            return Edge(named)
        except ValueError:
            return None
    advantage, disadvantage = whole(row.get("advantage")), whole(row.get("disadvantage"))
    if advantage is None or disadvantage is None:
        return None
    try:
        return net_edge(advantage, disadvantage)
    except RulesError:
        return None


def logged_d10s(row: Mapping[str, Any]) -> tuple[Edge, int] | None:
    """(edge, natural) of the 2d10 a row logged as ``faces``/``dropped`` (``edge`` if any)."""
    faces = row.get("faces")
    if not isinstance(faces, list) or len(faces) not in (2, 3):
        return None
    if not all(type(f) is int and 1 <= f <= SIDES for f in faces):
        return None
    dropped = row.get("dropped")
    if dropped is not None and type(dropped) is not int:
        return None
    return _replayed(tuple(faces), dropped, edge_named(row))


@lru_cache(maxsize=8192)
def _replayed(
    faces: tuple[int, ...], dropped: int | None, edge: Edge | None
) -> tuple[Edge, int] | None:
    """Re-roll the faces through ``roll_d10s`` under each edge they may have come from."""
    if edge is not None:
        candidates: tuple[Edge, ...] = (edge,)
    elif len(faces) == 2:
        candidates = (Edge.NONE,)
    else:
        candidates = (Edge.ADVANTAGE, Edge.DISADVANTAGE)
    fits = []
    for candidate in candidates:
        if (2 if candidate is Edge.NONE else 3) != len(faces):
            continue
        roll = roll_d10s(candidate, ScriptedDice(faces))
        if roll.dropped == dropped:
            fits.append((candidate, roll.natural))
    # Three equal faces fit both edges, whose odds differ: the row can't tell (luck-old-rows).
    return fits[0] if len(fits) == 1 else None


@lru_cache(maxsize=3)
def natural_dist(edge: Edge) -> Dist:
    """The kept dice's sum under ``edge``, from the odds' own enumeration."""
    return tuple((n.natural, n.chance) for n in naturals(edge))


@lru_cache(maxsize=3)
def _natural_ladder(edge: Edge) -> Ladder:
    return ladder(natural_dist(edge))


def d10_task(
    row: Mapping[str, Any], *, part: str, owner: str, owner_ref: int | str | None
) -> Scored | None:
    """A logged 2d10 task, ranked by its total (ruling ``luck-ranked``): the modifiers add
    the same to every natural, so the natural's place under the edge rolled is the total's."""
    rolled = logged_d10s(row)
    if rolled is None:
        return None
    edge, natural = rolled
    total = whole(row.get("total"))
    if type(owner_ref) is bool:  # True == 1 as a cache key: score it apart, uncached
        return _task_scored.__wrapped__(edge, natural, total, part, owner, owner_ref)
    return _task_scored(edge, natural, total, part, owner, owner_ref)


@lru_cache(maxsize=8192)
def _task_scored(
    edge: Edge, natural: int, total: int | None, part: str, owner: str, owner_ref: int | str | None
) -> Scored | None:
    """A session repeats the same few hundred (edge, natural, total, owner) tasks: each
    ``Scored`` is built once (frozen, shared by the rows that rolled it)."""
    found = _natural_ladder(edge).score(natural)
    return placed(found, total if total is not None else natural, part, owner, owner_ref)


def ref(row: Mapping[str, Any], key: str) -> int | None:
    return whole(row.get(key))
