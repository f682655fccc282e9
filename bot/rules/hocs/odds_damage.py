"""Exact odds of a damage roll (many dice, one result) and of what it does to a target.

The kept die is the one ``many_dice.best_choice`` keeps: the best expected total
(face, plus a pending explosion's worth on a 10, plus 1 per *other* die at its
maximum), the earliest die on a tie. So die i showing face f is kept exactly when
every earlier die's key is lower and every later die's key is no higher, where
key = face + explosion worth − [face is the die's maximum] (the +1s of all the
other dice are the same whichever die is kept, less its own). For each (i, f)
the other dice are a product of small polynomials "ways to stay below, counted by
whether they show their maximum", which gives the exact chance of each number of
+1s beside the kept face: no 6^n walk over faces.

Explosions: the kept die rolls on while it shows 10, up to ``MAX_EXPLOSIONS`` (50)
extra dice, the bot's own cap; the odds follow that cap exactly (a chain of 50
tens has chance 10^-50 or less, so it changes no printed digit).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm, prod

from bot.rules.errors import RulesError
from bot.rules.hocs.damage import RESISTANCE_BONUS, HitPoints, apply_damage
from bot.rules.hocs.damage_pool import DamageType
from bot.rules.hocs.many_dice import EXPLODING_FACE, MAX_EXPLOSIONS, expected_explosion
from bot.rules.hocs.threshold import ThresholdState, check_threshold
from bot.rules.hocs.wounds import WOUND_DAMAGE, needs_wound_check


def _key(sides: int, face: int, exploding: bool) -> Fraction:
    """What ``best_choice`` ranks a die by, less the +1s every choice shares."""
    worth = Fraction(face) - (1 if face == sides else 0)
    if exploding and sides >= EXPLODING_FACE and face == EXPLODING_FACE:
        worth += expected_explosion(sides)
    return worth


def _times(poly: list[int], low: int, high: int) -> list[int]:
    """poly * (low + high z)."""
    out = [0] * (len(poly) + 1)
    for c, w in enumerate(poly):
        out[c] += w * low
        out[c + 1] += w * high
    return out


def _add_chains(
    weights: dict[int, int], sides: int, totals: dict[int, int], bonus: int, scale: int
) -> None:
    """Add kept 10s on a d``sides`` (``totals``: ways per total before the chain) with their
    explosions, over sides^MAX_EXPLOSIONS times ``scale``: ``tens`` more 10s (weight
    sides^(49 - tens)) and then a face that stops the chain, or 50 tens (the cap)."""
    stops: dict[int, int] = defaultdict(int)
    for total, ways in totals.items():
        for face in range(1, sides + 1):
            if face != EXPLODING_FACE:
                stops[total + face] += ways
        weights[max(0, total + EXPLODING_FACE * MAX_EXPLOSIONS + bonus)] += ways * scale
    for tens in range(MAX_EXPLOSIONS):
        step = sides ** (MAX_EXPLOSIONS - tens - 1) * scale
        for value, ways in stops.items():
            weights[max(0, value + EXPLODING_FACE * tens + bonus)] += ways * step


@dataclass(frozen=True, slots=True)
class DamageOdds:
    """``weights``: (amount, ways over ``den``) for every amount the roll can deal, rising.

    Whole numbers over one denominator: a Fraction per amount (hundreds of them, with
    denominators of 10^50 and more) costs more than the whole search.
    """

    weights: tuple[tuple[int, int], ...]
    den: int
    expected: Fraction

    def chance(self, amount: int) -> Fraction:
        return Fraction(sum(w for a, w in self.weights if a == amount), self.den)

    def at_least(self, amount: int) -> Fraction:
        return Fraction(sum(w for a, w in self.weights if a >= amount), self.den)

    @property
    def dist(self) -> dict[int, Fraction]:
        """Every amount with its chance (for tests and small pools: one Fraction each)."""
        return {a: Fraction(w, self.den) for a, w in self.weights}


@lru_cache(maxsize=1024)
def damage_odds(sizes: tuple[int, ...], *, bonus: int = 0, exploding: bool = True) -> DamageOdds:
    """Exact distribution of ``DamageRoll.amount`` for a pool of ``sizes`` (in pool order)
    with the kept die chosen by ``best_choice`` and ``bonus`` added (never below 0)."""
    if not sizes:
        raise RulesError("A damage roll needs at least one die, such as 1d8.")
    if any(s < 2 for s in sizes):
        raise RulesError("Every damage die needs at least two sides.")
    total_ways = prod(sizes)
    exact = [[_key(s, f, exploding) for f in range(1, s + 1)] for s in sizes]
    # Whole numbers rank the same and compare far faster than Fractions.
    scale_keys = lcm(*(k.denominator for row in exact for k in row))
    keys = [[int(k * scale_keys) for k in row] for row in exact]
    ranked = [sorted(k) for k in keys]
    # plain[t]: ways over prod(sizes) for a kept total t without a chain; chained[s][t]:
    # ways for a kept 10 on a d``s`` whose chain is still to be added.
    plain: dict[int, int] = defaultdict(int)
    chained: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for i, sides in enumerate(sizes):
        for face in range(1, sides + 1):
            k = keys[i][face - 1]
            poly = [1]
            for j in range(len(sizes)):
                if j == i:
                    continue
                # Earlier dice must rank strictly lower, later ones no higher (ties: first).
                if j < i:
                    fits, at_max = bisect_left(ranked[j], k), keys[j][-1] < k
                else:
                    fits, at_max = bisect_right(ranked[j], k), keys[j][-1] <= k
                poly = _times(poly, fits - at_max, int(at_max))
            explodes = exploding and sides >= EXPLODING_FACE and face == EXPLODING_FACE
            target = chained[sides] if explodes else plain
            for plus_ones, ways in enumerate(poly):
                if ways:
                    target[face + plus_ones] += ways
    # One denominator for every amount: each chain's sides^50 brought to their product.
    chain_dens = {s: s**MAX_EXPLOSIONS for s in chained}
    common = prod(chain_dens.values())
    weights: dict[int, int] = defaultdict(int)
    for total, ways in plain.items():
        weights[max(0, total + bonus)] += ways * common
    for sides, totals in chained.items():
        _add_chains(weights, sides, totals, bonus, common // chain_dens[sides])
    den = total_ways * common
    expected = Fraction(sum(a * w for a, w in weights.items()), den)
    return DamageOdds(weights=tuple(sorted(weights.items())), den=den, expected=expected)


@dataclass(frozen=True, slots=True)
class HitOdds:
    """What a damage roll does to one target: the chance of each threshold state (dead,
    a threshold test, knocked out, fine) and of a wound check."""

    states: dict[ThresholdState, Fraction]
    wound_check: Fraction

    @property
    def dead(self) -> Fraction:
        return self.states.get(ThresholdState.DEAD, Fraction(0))


def hit_odds(
    damage: DamageOdds,
    target: HitPoints,
    *,
    types: Sequence[DamageType] = (DamageType.PHYSICAL,),
    lethal: bool = True,
    toughness: int = 0,
    mettle: int = 0,
    resistances: Sequence[DamageType] = (),
    immunities: Sequence[DamageType] = (),
    extra_difficulty: int = 0,
) -> HitOdds:
    """Each amount the roll can deal, put through ``apply_damage`` and ``check_threshold``
    (the functions a real hit uses) and weighted by its chance.

    Past ``settled`` every amount ends the same way (through temporary and hit points,
    beyond the threshold, 10+ after any reduction), so the long tail of explosions is
    asked once.
    """
    settled = (
        max(0, target.current) + target.temporary - target.threshold
        + toughness + mettle + RESISTANCE_BONUS + WOUND_DAMAGE + 1
    )  # fmt: skip
    states: dict[ThresholdState, int] = defaultdict(int)
    wound = 0
    asked: dict[int, tuple[ThresholdState, bool]] = {}
    for amount, p in damage.weights:
        probe = min(amount, settled)
        if probe not in asked:
            application = apply_damage(
                target, probe, types=types, lethal=lethal, toughness=toughness, mettle=mettle,
                resistances=resistances, immunities=immunities,
            )  # fmt: skip
            check = check_threshold(application, extra_difficulty=extra_difficulty)
            alive = check.state is not ThresholdState.DEAD
            asked[probe] = (
                check.state,
                needs_wound_check(application.after_reductions, survived=alive),
            )
        state, wounded = asked[probe]
        states[state] += p
        wound += p if wounded else 0
    den = damage.den
    return HitOdds(
        states={state: Fraction(w, den) for state, w in states.items()},
        wound_check=Fraction(wound, den),
    )
