"""The 6s of the first throw's dice that show 4-6, as packed polynomials that depend on
nothing but a count of dice and the slot width: not on the pool's focus, guarantees or
rerolls. So they are made once per width and shared by every query (``warm_runs`` makes
those of /odds's layouts at start-up: 1.3 ms of CPU, 0.65 MiB for the two widths of up
to 3 rerolls), as the reroll table is; ``odds_rerolls._first_throw`` reads them.

With ``rest`` dice showing 4-6, v of them 5s, the 6s are the rolled 6s plus the 5s focus
makes 6s: min(v, f, x_cap) of them (odds_rerolls' six shape). Each non-5 die shows a 4
or a 6, so the rest's 6s polynomial for v 5s is C(rest, v) (1 + x)^(rest - v).
"""

from __future__ import annotations

from math import comb

from bot.rules.hocs.modifiers import MAX_POOL_DICE
from bot.rules.hocs.odds_reroll_table import _clamp

# The most dice a pool can have: the base and one boon or determination die.
MAX_DICE = MAX_POOL_DICE + 1

# Made once per slot width and shared by every query, as the reroll table is.
_BINOMIALS: dict[int, list[int]] = {}
_RUNS: dict[tuple[int, int], tuple[list[int], list[int], list[int]]] = {}


def binomials(six_bits: int) -> list[int]:
    """(1 + x)^j packed over 6s, j = 0 to ``MAX_DICE`` (its sum 2^j when 6s are not
    counted): the rest's dice that are not 5s show a 4 or a 6."""
    hit = _BINOMIALS.get(six_bits)
    if hit is None:
        hit = [sum(comb(j, i) << (i * six_bits) for i in range(j + 1)) for j in range(MAX_DICE + 1)]
        _BINOMIALS[six_bits] = hit
    return hit


def runs(rest: int, six_bits: int) -> tuple[list[int], list[int], list[int]]:
    """For ``rest`` dice showing 4-6, over their count of 5s v: below[j], v < j, each 5
    a 6 (shifted by v); above[j], v >= j, unshifted; terms[v], v alone, unshifted."""
    hit = _RUNS.get((rest, six_bits))
    if hit is None:
        binom = binomials(six_bits)
        terms = [comb(rest, v) * binom[rest - v] for v in range(rest + 1)]
        below, above = [0], [0] * (rest + 2)
        for v, term in enumerate(terms):
            below.append(below[-1] + (term << (v * six_bits)))
        for v in range(rest, -1, -1):
            above[v] = above[v + 1] + terms[v]
        hit = _RUNS[(rest, six_bits)] = (below, above, terms)
    return hit


def grouped_runs(rest: int, f: int, x_cap: int, top: int, six_bits: int) -> list:
    """((5s made 6s, six shape), packed weights) over the rest's count of 5s, the
    two runs where the shape stays put summed at once (see ``odds_rerolls._first_throw``):
    low_term = min(f, x_cap) of them at most become 6s, and the shape is clamped at
    ``top``."""
    below, above, terms = runs(rest, six_bits)
    low_term = min(f, x_cap)
    parts = []
    # Fives <= low_term - top: every 5 becomes a 6 (below[] shifted each by its v).
    a_end = min(rest, low_term - top)
    if a_end >= 0:
        parts.append(((0, (0, top, top)), below[a_end + 1]))
    # Fives >= low_term + top: low_term of them become 6s.
    b_start = max(0, low_term + top)
    if b_start <= rest:
        shape = (top, min(f - low_term, top), min(x_cap - low_term, top))
        parts.append(((low_term, shape), above[b_start]))
    for v in range(max(0, a_end + 1), min(rest, b_start - 1) + 1):
        up = min(v, f, x_cap)
        shape = _clamp((v - up, f - up, x_cap - up), top)
        parts.append(((up, shape), terms[v]))
    return parts


def warm_runs(widths) -> None:
    """Make the polynomials of every count of dice for these slot widths (bits)."""
    for six_bits in sorted(widths):
        for rest in range(MAX_DICE + 1):
            runs(rest, six_bits)
