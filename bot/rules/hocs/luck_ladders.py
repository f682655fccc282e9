"""The ranked exact distributions HOCS luck scores against, one per configuration, cached.

Each comes from the bot's own exact odds (``odds.pool_odds``, ``odds_clash.clash_odds``,
``odds_damage.damage_odds``: the same policy that spends the dice), turned into a
``Ladder`` once per configuration. A session repeats a handful of pools, clashes and
damage pools, so thousands of rolls build a few ladders.

Configurations are plain tuples (hashable, and the compact form the roll log's
``luck`` snapshot stores): a pool spec is ``(base, boons, banes, determination, focus,
rerolls, guaranteed)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from bot.rules.generic.luck import Ladder
from bot.rules.hocs.attack.hero import HERO_REDUCTION_DICE, HERO_REDUCTION_SIDES
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.odds_damage import damage_odds
from bot.rules.hocs.pool import PoolSpec

SpecTuple = tuple[int, int, int, int, int, int, int]

# A clash's outcomes from side A's view, worst first (the ladder's ranks).
CLASH_OUTCOMES = ("b_advantage", "b_wins", "standoff", "a_wins", "a_advantage")
CLASH_RANK = {name: rank for rank, name in enumerate(CLASH_OUTCOMES)}


def spec_tuple(spec: Mapping[str, Any]) -> SpecTuple:
    """A ``PoolSpec.to_dict()`` as the compact tuple (KeyError/TypeError if damaged)."""
    return (
        int(spec["base"]),
        int(spec.get("boons", 0)),
        int(spec.get("banes", 0)),
        1 if spec.get("determination") else 0,
        int(spec.get("focus", 0)),
        int(spec.get("rerolls", 0)),
        int(spec.get("guaranteed", 0)),
    )


def _spec(t: Sequence[int]) -> PoolSpec:
    base, boons, banes, determination, focus, rerolls, guaranteed = t
    return PoolSpec(
        base=base,
        boons=boons,
        banes=banes,
        determination=bool(determination),
        focus=focus,
        rerolls=rerolls,
        guaranteed=guaranteed,
    )


@lru_cache(maxsize=4096)
def pool_ladder(spec: SpecTuple) -> tuple[Ladder, int]:
    """Successes of a skill pool, more is better, and the cap: the last rank is "cap or
    more" (``pool_odds``' cap: the pool's dice + 2, at least 13), so successes beyond it
    tie (only a determination die's chain of 6s gets there)."""
    odds = pool_odds(_spec(spec))
    return Ladder.from_dist(dict(enumerate(odds.dist))), odds.cap


@lru_cache(maxsize=2048)
def clash_ladder(a: SpecTuple, b: SpecTuple, attack: bool) -> Ladder:
    """A clash's outcome from A's view (``CLASH_OUTCOMES`` ranks), repeats included."""
    odds = clash_odds(_spec(a), _spec(b), attack=attack)
    chances = {
        CLASH_RANK["b_advantage"]: odds.b_advantage,
        CLASH_RANK["b_wins"]: odds.b_wins - odds.b_advantage,
        CLASH_RANK["standoff"]: odds.standoff,
        CLASH_RANK["a_wins"]: odds.a_wins - odds.a_advantage,
        CLASH_RANK["a_advantage"]: odds.a_advantage,
    }
    return Ladder.from_dist(chances)


@lru_cache(maxsize=1024)
def damage_ladder(sizes: tuple[int, ...], bonus: int, exploding: bool) -> Ladder:
    """A damage roll's amount (the kept die by the bot's best expected total, its
    explosions, +1 per other die at its maximum, the bonus; never below 0): more is
    better."""
    odds = damage_odds(sizes, bonus=bonus, exploding=exploding)
    return Ladder.from_weights(odds.weights, odds.den)


@lru_cache(maxsize=1)
def hero_reduction_ladder() -> Ladder:
    """A hero point's 2d6 off a hit (plain dice: no explosions), more is better."""
    sides = range(1, HERO_REDUCTION_SIDES + 1)
    faces = list(product(sides, repeat=HERO_REDUCTION_DICE))
    dist: dict[int, Fraction] = {}
    for roll in faces:
        dist[sum(roll)] = dist.get(sum(roll), Fraction(0)) + Fraction(1, len(faces))
    return Ladder.from_dist(dist)


def clear_caches() -> None:
    """Forget every ladder (the bench's cold runs)."""
    for cached in (pool_ladder, clash_ladder, damage_ladder, hero_reduction_ladder):
        cached.cache_clear()
