"""Pool weights without talent rerolls, in closed form over category counts.

With no reroll left to decide, a roll's outcome depends only on how many dice
landed in each category (1-2, 3, 4, 5, 6) plus the determination die's face and
chain: ``settle_counts`` places focus and guarantees on those counts. So instead
of throwing the dice one at a time (``odds_core``'s general search, whose states
multiply with focus and guarantees), this sums the multinomial weights directly:

* over (l, t) = ordinary dice showing 1-2 and 3 (at most 31·32/2 pairs), whose
  weight is n!/(l! t! R!) · 2^l with R = n - l - t dice showing 4-6;
* times each first face of the determination die (1 with the critical flag, 2-5,
  and a 6 whose first chain face fizzles, adds a success, or rolls on);
* and, when 6s are counted (clash ties), the R dice's 5s and 6s: a 5 becomes a 6
  only while focus is left after the successes (``c`` below), so the 6s are
  n6 + min(v, c), summed as packed polynomials of (1 + x)^(R - v).

The result is the same ``Weights`` (same denominator, same packing) the general
search gives; tests/rules/hocs/test_odds_fast.py checks equality on a grid.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb

from bot.rules.hocs.pool import DieOrigin, PoolSpec

SIDES = 6
_LOW, _THREE, _FOUR, _FIVE, _SIX = 1, 3, 4, 5, 6
# The determination die's first throw: (category, first showed a 1, live chain, chain
# successes, chain 6s, weight over 36). A 6's first chain face: 1-3 (3 ways) adds
# nothing, 4-5 (2) a success, 6 (1) a success, a 6 and a chain still rolling.
_DET = (
    (_LOW, True, False, 0, 0, 6),
    (_LOW, False, False, 0, 0, 6),
    (_THREE, False, False, 0, 0, 6),
    (_FOUR, False, False, 0, 0, 6),
    (_FIVE, False, False, 0, 0, 6),
    (_SIX, False, False, 0, 0, 3),
    (_SIX, False, False, 1, 0, 2),
    (_SIX, False, True, 1, 1, 1),
)
# Without a determination die: nothing, weight 6 (the general search's denominator has
# one factor 6 for that die either way).
_NO_DET = ((None, False, False, 0, 0, 6),)


def fixed_weights(
    spec: PoolSpec, *, sixes: bool
) -> tuple[dict[tuple[bool, bool], int], int, int, int]:
    """``odds_core.Weights`` fields (final, width, denominator, bits) of ``spec``, which
    has no talent rerolls."""
    dice = spec.dice_count
    det = spec.extra_die is DieOrigin.DETERMINATION
    n = dice - (1 if det else 0)
    focus, guaranteed = min(spec.focus, dice), min(spec.guaranteed, dice)
    denominator = SIDES ** (dice + 1)
    bits = slot_bits(denominator)
    width = dice + 2 if sixes else 1
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i
    # Packed (1 + x)^j: the 4s and 6s among j dice that are neither 1-3 nor 5.
    binom = [sum(comb(j, i) << (i * bits) for i in range(j + 1)) for j in range(n + 1)]
    # Per (rest, dv): prefix sums of the terms C(rest, v) (1 + x)^(rest - v) shifted by
    # their own v + dv, and suffix sums unshifted, so each c costs one shift and one add.
    sums: dict[tuple[int, int], tuple[list[int], list[int]]] = {}

    def six_poly(rest: int, c: int, dv: int) -> int:
        """Sum over the rest's 5s (v) and 6s of x^(6s + min(v + dv, c))."""
        pair = sums.get((rest, dv))
        if pair is None:
            terms = [comb(rest, v) * binom[rest - v] for v in range(rest + 1)]
            below, above = [0], [0] * (rest + 2)
            for v, term in enumerate(terms):
                below.append(below[-1] + (term << ((v + dv) * bits)))
            for v in range(rest, -1, -1):
                above[v] = above[v + 1] + terms[v]
            pair = sums[(rest, dv)] = (below, above)
        below, above = pair
        # Dice with v + dv <= c keep their own count of 5s made 6s; the rest stop at c.
        j = max(0, min(c - dv + 1, rest + 1))
        return below[j] + (above[j] << (c * bits))

    variants = _DET if det else _NO_DET
    # Weights first, per everything the 6s depend on; the polynomials once per such key.
    coef: dict[tuple, int] = defaultdict(int)
    for low in range(n + 1):
        for three in range(n - low + 1):
            rest = n - low - three
            ways = fact[n] // (fact[low] * fact[three] * fact[rest]) << low
            for cat, crit, live, extra_s, extra_x, weight in variants:
                lows = low + (cat == _LOW)
                threes = three + (cat == _THREE)
                fixed = min(lows + threes, guaranteed + min(focus, threes))
                succ = rest + (cat is not None and cat >= _FOUR) + fixed + extra_s
                if sixes:
                    left = focus - max(0, fixed - guaranteed)
                    x = (cat == _SIX) + extra_x
                    coef[(crit, live, succ, x, rest, left, cat == _FIVE)] += ways * weight
                else:
                    coef[(crit, live, succ)] += ways * weight * 3**rest
    # acc[(crit, live, successes)]: packed weights over the count of 6s.
    acc: dict[tuple[bool, bool, int], int] = defaultdict(int)
    for key, w in coef.items():
        if sixes:
            crit, live, succ, x, rest, left, dv = key
            acc[(crit, live, succ)] += (w * six_poly(rest, left, dv)) << (x * bits)
        else:
            acc[key] += w
    final: dict[tuple[bool, bool], int] = defaultdict(int)
    for (crit, live, succ), packed in acc.items():
        final[(crit, live)] += packed << (succ * width * bits)
    return dict(final), width, denominator, bits


def slot_bits(denominator: int) -> int:
    """Bits per packed slot: no weight exceeds the denominator (whole bytes, for slicing)."""
    return -(-denominator.bit_length() // 8) * 8
