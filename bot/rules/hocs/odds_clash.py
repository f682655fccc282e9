"""Exact odds of a clash: the chance each side wins, as ``resolve_clash`` plays it.

A round is won on more successes; a tie in successes goes to the attacker in an
attack, else to more 6s; no success on either side (or, outside an attack, a tie
in successes and 6s) repeats the round, up to ``MAX_ROUNDS`` rounds, after which
it is a stand-off (clash.py's rulings). With p and q the chances that one round
is won by A and repeated, A wins with chance p(1 - q^R)/(1 - q) and the clash is
a stand-off with chance q^R: a geometric series summed in closed form, not a
loop that stops early.

Each side's pool comes from ``odds_core.pool_weights`` (the dice's own policy).
A live chain of 6s on a determination die adds K 6s and K + E successes with K
geometric, so past the largest count any pool reaches without it
(``limit``) every side's chances fall by exactly 1/6 per success: P(s) = C·6^-s
and P(s, 6s = s + d) = α(d)·6^-s. The sums over those endless tails are
geometric too, so every figure is an exact fraction.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules.hocs.check import ADVANTAGE_MARGIN
from bot.rules.hocs.clash import MAX_ROUNDS
from bot.rules.hocs.odds_core import pool_weights
from bot.rules.hocs.pool import PoolSpec


@dataclass(frozen=True, slots=True)
class _Side:
    """One side's chances as integers over ``den``: exact below ``limit`` successes,
    geometric from there (P(s) = tail/den * 6^-s, P(s, s + d) = offsets[d]/den * 6^-s).

    Integers, not Fractions: these sums run to thousands of terms, and one common
    denominator per side keeps each term a single multiplication.
    """

    marginal: tuple[int, ...]  # P(s) for s < limit
    joint: tuple[tuple[tuple[int, int], ...], ...]  # (x, P(s, x)) for s < limit, x rising
    tail: int
    offsets: dict[int, int]
    limit: int
    den: int

    def at_least(self, t: int, extra: int) -> int:
        """P(successes >= t) over ``den * 5 * 6^(limit - 1 + extra)``, for t <= limit + extra."""
        if t >= self.limit:
            return self.tail * 6 ** (self.limit + extra - t)
        rest = self.tail * 6**extra
        return sum(self.marginal[max(0, t) :]) * 5 * 6 ** (self.limit - 1 + extra) + rest


@lru_cache(maxsize=512)
def _raw(spec: PoolSpec, sixes: bool) -> tuple[tuple[tuple[int, int, bool, int], ...], int]:
    """(successes, 6s, live chain, weight) before a live chain is added, and their
    denominator."""
    # Which side's determination die first showed a 1 decides nothing in a clash.
    weights = pool_weights(spec, sixes=sixes, crit=False)
    merged: dict[tuple[int, int, bool], int] = defaultdict(int)
    for _, on, succ, six, w in weights.outcomes():
        merged[(succ, six, on)] += w
    return tuple((s, x, on, w) for (s, x, on), w in merged.items()), weights.denominator


def _side(raw: tuple[tuple[int, int, bool, int], ...], den: int, limit: int) -> _Side:
    # Scaled by 6^(limit + 1): a chain of k more 6s then a stop, P(E = e) (5/6) 6^-k with
    # P(E = 0) = 3/5 and P(E = 1) = 2/5, is then the whole number (3 or 2) 6^(limit - k).
    marginal = [0] * limit
    joint: list[dict[int, int]] = [defaultdict(int) for _ in range(limit)]
    tail = 0
    offsets: dict[int, int] = defaultdict(int)
    scale = 6 ** (limit + 1)
    chains: list[tuple[int, int, int]] = []
    for s0, x0, on, w in raw:
        if on:
            chains.append((s0, x0, w))
        else:
            marginal[s0] += w * scale
            joint[s0][x0] += w * scale
    if chains:
        tail = _carry_chains(chains, limit, marginal, joint, offsets)
    return _Side(
        marginal=tuple(marginal),
        joint=tuple(tuple(sorted(j.items())) for j in joint),
        tail=tail,
        offsets=dict(offsets),
        limit=limit,
        den=den * scale,
    )


def _carry_chains(
    chains: list[tuple[int, int, int]],
    limit: int,
    marginal: list[int],
    joint: list[dict[int, int]],
    offsets: dict[int, int],
) -> int:
    """Add the live chains (s0, x0, weight) below the limit into ``marginal`` and
    ``joint``, their tails from the limit on into ``offsets``; returns the tail's sum."""
    tail = 0
    # fresh[s][x]: live chains that reach s successes and x 6s with no more 6s (k = 0).
    fresh: list[dict[int, int]] = [defaultdict(int) for _ in range(limit + 1)]
    powers = [6 ** (i + limit) for i in range(limit + 1)]
    for s0, x0, w in chains:
        for e, ways in ((0, 3), (1, 2)):
            fresh[min(s0 + e, limit)][x0] += w * ways
            # From the limit on: P(s) = w (ways) 6^(s0 + e - 1) 6^-s / den.
            weight = w * ways * powers[s0 + e]  # s0 < limit
            tail += weight
            offsets[x0 - s0 - e] += weight
    # Each further 6 of a chain moves one success and one 6 up at a sixth of the weight, so
    # the chains that reach s are those that reached s - 1, moved up and divided by 6 (exact:
    # below the limit every such weight still has a factor 6), plus those that stop at s:
    # one pass over s, not one per chain and per length.
    carry: dict[int, int] = {}
    top = powers[0]
    for s in range(limit):
        carry = {x + 1: v // 6 for x, v in carry.items()}
        for x, v in fresh[s].items():
            carry[x] = carry.get(x, 0) + v * top
        row = joint[s]
        for x, v in carry.items():
            row[x] += v
        marginal[s] += sum(carry.values())
    return tail


def _beyond(limit: int) -> Fraction:
    """Sum of 36^-s for s >= limit: both sides in their geometric tails at once."""
    return Fraction(1, 36**limit) * Fraction(36, 35)


def _wins_by(a: _Side, b: _Side, margin: int) -> Fraction:
    """P(A's successes >= B's + margin), margin >= 1."""
    near = sum(pb * a.at_least(t + margin, margin) for t, pb in enumerate(b.marginal))
    near_den = b.den * a.den * 5 * 6 ** (a.limit - 1 + margin)
    far = Fraction(a.tail * b.tail * 6, a.den * b.den * 5 * 6**margin) * _beyond(a.limit)
    return Fraction(near, near_den) + far


def _equal(a: _Side, b: _Side) -> Fraction:
    """P(both sides roll the same number of successes, at least one)."""
    near = sum(a.marginal[s] * b.marginal[s] for s in range(1, a.limit))
    return Fraction(near + a.tail * b.tail * Fraction(36, 35) / 36**a.limit, a.den * b.den)


def _more_sixes_on_tie(a: _Side, b: _Side) -> Fraction:
    """P(same successes, at least one, and A has more 6s)."""
    total = 0
    for s in range(1, a.limit):
        below, rows = 0, iter(b.joint[s])
        pending = next(rows, None)
        for xa, pa in a.joint[s]:
            while pending is not None and pending[0] < xa:
                below += pending[1]
                pending = next(rows, None)
            total += pa * below
    tails = sum(wa * wb for da, wa in a.offsets.items() for db, wb in b.offsets.items() if da > db)
    return Fraction(total + tails * Fraction(36, 35) / 36**a.limit, a.den * b.den)


@dataclass(frozen=True, slots=True)
class ClashOdds:
    """Chances of a whole clash (repeats included) and of one round."""

    attack: bool
    a_wins: Fraction
    b_wins: Fraction
    standoff: Fraction
    a_advantage: Fraction  # A wins the deciding round by 2 or more successes
    b_advantage: Fraction
    repeat: Fraction  # one round is a deadlock and is rolled again
    rounds: int  # the round limit


def _series(per_round: Fraction, repeat: Fraction, rounds: int) -> Fraction:
    """per_round * (1 + q + ... + q^(rounds-1)), in closed form."""
    if repeat == 1:
        return Fraction(0)
    return per_round * (1 - repeat**rounds) / (1 - repeat)


@lru_cache(maxsize=1024)
def clash_odds(
    a: PoolSpec, b: PoolSpec, *, attack: bool = False, rounds: int = MAX_ROUNDS
) -> ClashOdds:
    """Exact chances of ``resolve_clash(a, b, attack=attack, max_rounds=rounds)``; A is
    the attacker."""
    if a.dice_count == 0 and b.dice_count == 0:
        # clash.py: no dice anywhere is decided at once, the attacker winning an attack.
        one, zero = Fraction(1), Fraction(0)
        return ClashOdds(attack, one if attack else zero, zero, zero if attack else one,
                         zero, zero, zero, rounds)  # fmt: skip
    # Only a tie outside an attack looks at 6s; counting them costs time, so only then.
    (raw_a, den_a), (raw_b, den_b) = _raw(a, not attack), _raw(b, not attack)
    limit = 1 + max(s for s, *_ in (*raw_a, *raw_b))
    sa, sb = _side(raw_a, den_a, limit), _side(raw_b, den_b, limit)
    a_round, b_round = _wins_by(sa, sb, 1), _wins_by(sb, sa, 1)
    if attack:
        a_round += _equal(sa, sb)
    else:
        a_round += _more_sixes_on_tie(sa, sb)
        b_round += _more_sixes_on_tie(sb, sa)
    repeat = 1 - a_round - b_round
    a_adv = _wins_by(sa, sb, ADVANTAGE_MARGIN)
    b_adv = _wins_by(sb, sa, ADVANTAGE_MARGIN)
    return ClashOdds(
        attack=attack,
        a_wins=_series(a_round, repeat, rounds),
        b_wins=_series(b_round, repeat, rounds),
        standoff=repeat**rounds,
        a_advantage=_series(a_adv, repeat, rounds),
        b_advantage=_series(b_adv, repeat, rounds),
        repeat=repeat,
        rounds=rounds,
    )
