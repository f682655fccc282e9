"""Exact odds of a skill pool or test, from the same policy that spends the dice.

No sampling: the chance of every success count is computed exactly (integer
weights over powers of 6, then ``Fraction``), and every talent reroll decision
is asked of ``policy._best``, the very function ``rolling.roll_pool`` follows,
so these figures can never disagree with the dice.

How (two phases, both over counts rather than 6^n face sequences):

1. The first throw, one die at a time, into states that keep only what the
   policy and the final count can still tell apart: the rerollable ordinary
   dice the policy may reroll (the lowest ``rerolls`` of them, as it sees them),
   counts of failures, 3s and 5s capped where ``settle_counts`` stops seeing
   them, and the exact number of successes so far. The determination die is
   kept apart: its category, whether it may still be rerolled (a 6 whose chain
   fizzled may), whether it first showed a 1, and whether a live chain of 6s is
   still rolling on.
2. Talent rerolls, layer by layer: each state takes the policy's move (stop,
   the determination die, or the lowest ordinary die) and branches on the six
   faces.

A chain of 6s can add any number of successes, so a distribution is exact up
to ``cap`` successes and lumps "cap or more" into the last entry (its chance is
exact too); the expected successes are exact with the whole chain.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules.hocs.check import ADVANTAGE_MARGIN
from bot.rules.hocs.difficulty import Difficulty, parse_difficulty
from bot.rules.hocs.policy import _DETERMINATION, _PLAIN, LOW, _best, settle_counts
from bot.rules.hocs.pool import DieOrigin, PoolSpec

SIDES = 6
# The first throw of the determination die below 6: (category, did it show a 1).
_DET_FACES = ((LOW, True), (LOW, False), (3, False), (4, False), (5, False))
# A fresh chain of 6s after a determination 6: P(X = 0) = 1/2 and P(X = j) =
# (5/12)(1/6)^(j-1) for j >= 1, so P(X >= j) = (1/2)(1/6)^(j-1) and E[X] = 3/5.
FRESH_CHAIN_MEAN = Fraction(3, 5)


def _fresh_chain(cap: int) -> list[Fraction]:
    """P(X = j) for j < cap, then P(X >= cap) last."""
    probs = [Fraction(1, 2)] + [Fraction(5, 12) * Fraction(1, 6) ** (j - 1) for j in range(1, cap)]
    probs.append(Fraction(1, 2) * Fraction(1, 6) ** (cap - 1))
    return probs


def _insert(plain: tuple[int, ...], cat: int, keep: int) -> tuple[int, ...]:
    """Add a rerollable ordinary die; the policy only ever looks at the lowest ``keep``."""
    if len(plain) >= keep and (keep == 0 or cat >= plain[-1]):
        return plain
    merged = tuple(sorted((*plain, cat)))
    return merged[:keep]


# Each state carries its weights for every success count at once, packed into one
# integer (Kronecker substitution): the weight of k successes sits in bits
# [k*SLOT, (k+1)*SLOT). Gaining a success is a shift, merging states is an addition.
# Weights never exceed 6^(31 + 1 + 10) < 2^109, so 128-bit slots never carry.
SLOT = 128
_MASK = (1 << SLOT) - 1


def _shift(poly: int, gain: int) -> int:
    # A success is only ever lost by a die that had it, so a right shift drops no weight.
    return poly << (SLOT * gain) if gain >= 0 else poly >> (SLOT * -gain)


# A state: (plain, failures, threes, fives, det, det_free, crit, chain) where
# plain = rerollable ordinary non-6 categories, lowest first, at most ``rerolls``;
# failures / threes / fives = ordinary dice in those categories (capped, see _caps);
# det = the determination die's category (None: no such die); det_free = it may
# still take a talent reroll; crit = it first showed a 1; chain = a fresh chain of
# 6s is still to be added. Successes so far live in the packed weights.
_State = tuple


@dataclass(frozen=True, slots=True)
class PoolOdds:
    """``dist[k]``: P(exactly k successes) for k < cap; ``dist[cap]``: P(cap or more).

    ``crit_dist``: the same, joined with "the determination die first showed a 1".
    """

    dist: tuple[Fraction, ...]
    crit_dist: tuple[Fraction, ...]
    expected: Fraction
    dice: int

    @property
    def cap(self) -> int:
        return len(self.dist) - 1

    def at_least(self, k: int) -> Fraction:
        if k <= 0:
            return Fraction(1)
        return sum(self.dist[min(k, self.cap) :], Fraction(0))

    def crit_below(self, k: int) -> Fraction:
        return sum(self.crit_dist[: max(0, min(k, self.cap))], Fraction(0))


@dataclass(frozen=True, slots=True)
class TestOdds:
    """Chances of each outcome of a test at one difficulty."""

    __test__ = False  # not a pytest test class

    difficulty: Difficulty
    pool: PoolOdds
    failure: Fraction
    failure_by_two: Fraction
    success: Fraction
    advantage: Fraction
    critical_failure: Fraction

    @property
    def expected(self) -> Fraction:
        return self.pool.expected


def _caps(spec: PoolSpec, dice: int) -> tuple[int, int, int]:
    focus, guaranteed = min(spec.focus, dice), min(spec.guaranteed, dice)
    # settle_counts and policy._best see threes and fives only through min(focus + free, ·)
    # and failures through min(guaranteed + focus + free, ·); free dice <= rerolls + 1.
    if not spec.rerolls:
        # No decisions left to make: only min(failures, guaranteed + min(focus, threes))
        # counts, and 5s (which only break ties between moves) not at all.
        return guaranteed + focus, focus, 0
    free = spec.rerolls + 1
    return guaranteed + focus + free, focus + free, focus + free


def _first_throw(spec: PoolSpec) -> dict[_State, int]:
    """States after the first throw, weighted over 6^(dice + 1)."""
    extra = spec.extra_die
    ordinary = spec.dice_count - (1 if extra is DieOrigin.DETERMINATION else 0)
    fail_cap, three_cap, five_cap = _caps(spec, spec.dice_count)
    keep = spec.rerolls
    states: dict[tuple, int] = {((), 0, 0, 0): 1}
    for _ in range(ordinary):
        nxt: dict[tuple, int] = defaultdict(int)
        for (plain, fail, three, five), w in states.items():
            for cat, weight in ((LOW, 2), (3, 1), (4, 1), (5, 1)):
                key = (
                    _insert(plain, cat, keep),
                    min(fail_cap, fail + (cat < 4)),
                    min(three_cap, three + (cat == 3)),
                    min(five_cap, five + (cat == 5)),
                )
                nxt[key] += _shift(w, cat >= 4) * weight
            nxt[(plain, fail, three, five)] += w << SLOT  # a 6: never rerolled by the policy
        states = nxt
    out: dict[_State, int] = defaultdict(int)
    for (plain, fail, three, five), w in states.items():
        if extra is not DieOrigin.DETERMINATION:
            out[(plain, fail, three, five, None, False, False, False)] += w * 6
            continue
        for cat, one in _DET_FACES:
            out[(plain, fail, three, five, cat, True, one, False)] += _shift(w, cat >= 4) * 6
        # A 6 explodes at once: its first chain face decides whether it may be rerolled.
        out[(plain, fail, three, five, 6, True, False, False)] += (w << SLOT) * 3  # fizzled
        out[(plain, fail, three, five, 6, False, False, False)] += (w << 2 * SLOT) * 2  # 4, 5
        out[(plain, fail, three, five, 6, False, False, True)] += w << 2 * SLOT  # 6: rolls on
    return out


def _totals(s: _State) -> tuple[int, int, int]:
    _, failures, threes, fives, d = s[:5]
    if d is None:
        return failures, threes, fives
    return failures + (d < 4), threes + (d == 3), fives + (d == 5)


def _reroll(s: _State, w: int, old: int, new: int, *, det: bool) -> tuple[_State, int]:
    w = _shift(w, (new >= 4) - (old >= 4))
    plain, failures, threes, fives, d, free, crit, chain = s
    if det:
        return (plain, failures, threes, fives, new, False, crit, chain or new == 6), w
    # A capped count stays at or above the policy's own cap after this move (see _caps).
    return (
        plain[1:],
        max(0, failures + (new < 4) - (old < 4)),
        max(0, threes + (new == 3) - (old == 3)),
        max(0, fives + (new == 5) - (old == 5)),
        d,
        free,
        crit,
        chain,
    ), w


@lru_cache(maxsize=4096)
def pool_odds(spec: PoolSpec, cap: int = 0) -> PoolOdds:
    """Exact distribution of successes of ``roll_pool(spec, dice)``; cached by its spec.

    ``cap``: report "cap or more" as one entry (0: the pool's dice + 2, at least 13,
    enough for any difficulty plus the advantage margin).
    """
    dice = spec.dice_count
    cap = cap or max(dice + 2, 13)
    focus, guaranteed = min(spec.focus, dice), min(spec.guaranteed, dice)
    layer = _first_throw(spec)
    # final[(crit, chain)]: packed weights over 6^(first throw) * 6^(rerolls spent), all
    # brought to one denominator 6^(dice + 1 + rerolls).
    final: dict[tuple[bool, bool], int] = defaultdict(int)
    rerolls = spec.rerolls
    for left in range(rerolls, -1, -1):
        nxt: dict[_State, int] = defaultdict(int)
        scale = SIDES**left
        for s, w in layer.items():
            move = _STOP_MOVE
            if left:
                det = s[4] if s[5] else None
                _, move = _best(left, s[0][:left], det, *_totals(s), focus, guaranteed)
            if move == _DETERMINATION or move == _PLAIN:
                is_det = move == _DETERMINATION
                old = s[4] if is_det else s[0][0]
                for new, weight in ((LOW, 2), (3, 1), (4, 1), (5, 1), (6, 1)):
                    key, moved = _reroll(s, w, old, new, det=is_det)
                    nxt[key] += moved * weight
            else:
                fixed, _, _ = settle_counts(*_totals(s), focus=focus, guaranteed=guaranteed)
                final[(s[6], s[7])] += _shift(w, fixed) * scale
        layer = nxt
    denominator = SIDES ** (dice + 1 + rerolls)
    dist = [Fraction(0)] * (cap + 1)
    crit = [Fraction(0)] * (cap + 1)
    chain = _fresh_chain(cap)
    expected = Fraction(0)
    for (is_crit, on), packed in final.items():
        succ = 0
        while packed:
            w = packed & _MASK
            packed >>= SLOT
            if w:
                p = Fraction(w, denominator)
                expected += p * (succ + (FRESH_CHAIN_MEAN if on else 0))
                for j, q in enumerate(chain if on else [Fraction(1)]):
                    k = min(cap, succ + j)
                    dist[k] += p * q
                    if is_crit:
                        crit[k] += p * q
            succ += 1
    return PoolOdds(dist=tuple(dist), crit_dist=tuple(crit), expected=expected, dice=dice)


_STOP_MOVE = 0


@lru_cache(maxsize=4096)
def _test_odds(spec: PoolSpec, level: Difficulty) -> TestOdds:
    pool = pool_odds(spec)
    d = int(level)
    if not level.needs_roll:
        # Ruling (check.py): difficulty 0 is an automatic success whatever the dice show.
        one, zero = Fraction(1), Fraction(0)
        advantage = pool.at_least(ADVANTAGE_MARGIN)
        return TestOdds(
            difficulty=level,
            pool=pool,
            failure=zero,
            failure_by_two=zero,
            success=one,
            advantage=advantage,
            critical_failure=zero,
        )
    success = pool.at_least(d)
    return TestOdds(
        difficulty=level,
        pool=pool,
        failure=1 - success,
        failure_by_two=1 - pool.at_least(d - ADVANTAGE_MARGIN + 1),
        success=success,
        advantage=pool.at_least(d + ADVANTAGE_MARGIN),
        critical_failure=pool.crit_below(d),
    )


def test_odds(spec: PoolSpec, difficulty: int | str | Difficulty) -> TestOdds:
    """Chances of each outcome of ``roll_test(spec, difficulty=...)``."""
    return _test_odds(spec, parse_difficulty(difficulty))


test_odds.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
