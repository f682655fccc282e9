"""REFERENCE ONLY (tests): bot/rules/hocs/odds_rerolls.py as main had it at f6daac3, kept
unchanged so test_odds_table can check the faster module gives the same weights.

Pool weights with talent rerolls: the first throw times what the rerolls make of it.

Every roll ends with the same two numbers, whatever the dice did on the way
(``settle_counts`` written out): with L dice showing 1-2, T showing 3, F = L + T,
V showing 5 and N6 showing 6,

* the failures left after focus and guarantees are U = max(0, L - g, F - g - f),
  so the successes are dice - U;
* focus turns min(V, f, f + g - F + U) 5s into 6s, so the 6s are N6 plus that.

A talent reroll moves one die between categories, and that changes the gap
between any two terms of either formula by at most 1 (L - g, F - g - f and
f - T each move by at most 1; V, f and f + g - F + U too, pairwise, since U
follows F's direction: a new failure never lowers U, a fixed one never raises
it, and a die leaving the 5s for the failures moves V and F - U together).
With ``left`` rerolls to go, a term of the max that is ``left`` or more below
the largest can never become the largest, nor a term of the min ``left`` or
more above the smallest the smallest; so the future depends only on those
gaps, clamped at ``left``. That is the state here (``_Key``): rerolls
left, the dice the policy may reroll (as ``policy._best`` sees them), and the
two clamped shapes. Counts that differ only outside the clamps fall together,
which is what keeps the search small: the dice's own policy, ``_best``, looks
at exact counts, so its cache holds many states for one of these.

The decisions are the same as ``_best``'s: this is the same expectimax (stop,
the determination die, or the lowest ordinary die; a tie keeps the reroll, then
prefer the determination die; a determination die rerolled into a 6 is worth
its chain's 3/5 success and 1/5 six on average), over values that differ from
``_best``'s by a constant per state, so every comparison comes out the same.
tests/rules/hocs/test_odds_fast.py checks the weights against the general
search (``odds_core._search_weights``) and brute force.

Then, per state, ``_Search.future`` is the distribution of how much the
successes and 6s change from here (packed, offset so a loss stays a left
shift), and the first throw (``_first_throw``) gives, per state it lands in,
the packed distribution of the successes and 6s as they stand. The answer is
their products, summed: one big-integer multiplication per state.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb

from bot.rules.hocs.pool import DieOrigin, PoolSpec

SIDES = 6
LOW, THREE, FOUR, FIVE, SIX = 1, 3, 4, 5, 6
_FACES = ((LOW, 2), (THREE, 1), (FOUR, 1), (FIVE, 1), (SIX, 1))
_STOP, _DET, _PLAIN = 0, 1, 2
# One reroll moves a gap between two terms of the 6s' min by at most this (see module).
SPREAD = 1
# (left, plain, det, fail_shape, six_shape): ``plain`` the categories of the ordinary
# dice the policy may reroll, lowest first, at most ``left``; ``det`` the determination
# die's category if it may still take one; the shapes as the module docstring says.
_Key = tuple


def _clamp(values: tuple[int, int, int], top: int) -> tuple[int, int, int]:
    a, b, c = values
    return (a if a < top else top, b if b < top else top, c if c < top else top)


def fail_shape(lows: int, failures: int, focus: int, guaranteed: int, left: int):
    """(U, shape): unfixed failures and the clamped gaps below the largest term."""
    terms = (0, lows - guaranteed, failures - guaranteed - focus)
    top = max(terms)
    return top, _clamp((top - terms[0], top - terms[1], top - terms[2]), left)


def six_shape(fives: int, failures: int, unfixed: int, focus: int, guaranteed: int, left: int):
    """(5s made 6s, shape): the smallest term and the clamped gaps above it."""
    terms = (fives, focus, focus + guaranteed - failures + unfixed)
    low = min(terms)
    return low, _clamp((terms[0] - low, terms[1] - low, terms[2] - low), SPREAD * left)


# A pure function of its arguments, so shared by every query; cleared when it grows past
# this (some hundreds of thousands of shapes exist with 10 rerolls).
_STEPS: dict[tuple, tuple] = {}
_STEPS_MAX = 1 << 17


def _step(left: int, fail: tuple, six: tuple, old: int, new: int) -> tuple:
    """One die from ``old`` to ``new`` with ``left`` rerolls before it: (change in unfixed
    failures, change in 5s made 6s, change in rolled 6s, next fail shape, next six shape)."""
    key = (left, fail, six, old, new)
    hit = _STEPS.get(key)
    if hit is not None:
        return hit
    d_low = (new == LOW) - (old == LOW)
    d_fail = d_low + (new == THREE) - (old == THREE)
    # Terms relative to the old largest (fail) and smallest (six), which were 0.
    u = (-fail[0], -fail[1] + d_low, -fail[2] + d_fail)
    d_unfixed = max(u)
    nxt_fail = _clamp((d_unfixed - u[0], d_unfixed - u[1], d_unfixed - u[2]), left - 1)
    s = (six[0] + (new == FIVE) - (old == FIVE), six[1], six[2] - d_fail + d_unfixed)
    d_up = min(s)
    nxt_six = _clamp((s[0] - d_up, s[1] - d_up, s[2] - d_up), SPREAD * (left - 1))
    hit = (d_unfixed, d_up, (new == SIX) - (old == SIX), nxt_fail, nxt_six)
    if len(_STEPS) >= _STEPS_MAX:
        _STEPS.clear()
    _STEPS[key] = hit
    return hit


_OUTCOMES: dict[tuple, tuple] = {}


def _outcomes(left: int, fail: tuple, six: tuple, old: int) -> tuple:
    """For each face a reroll of a die in category ``old`` may show: (weight, change in
    unfixed failures, change in 6s, next fail shape, next six shape, it is a 6)."""
    key = (left, fail, six, old)
    hit = _OUTCOMES.get(key)
    if hit is None:
        hit = []
        for new, weight in _FACES:
            du, dup, d6, nxt_fail, nxt_six = _step(left, fail, six, old, new)
            hit.append((weight, du, d6 + dup, nxt_fail, nxt_six, new == SIX))
        hit = tuple(hit)
        if len(_OUTCOMES) >= _STEPS_MAX:
            _OUTCOMES.clear()
        _OUTCOMES[key] = hit
    return hit


class _Search:
    """Values (the policy) and future distributions, per state, for one (focus,
    guarantees, counting 6s, packing)."""

    def __init__(self, *, width: int, bits: int, sixes: bool, offset: int) -> None:
        self.width, self.bits, self.sixes, self.offset = width, bits, sixes, offset
        self.values: dict[_Key, tuple[int, int, int]] = {}
        self.futures: dict[_Key, tuple[int, int]] = {}

    def _moves(self, key: _Key):
        """(is determination, old category, next plain, next det) for each possible move."""
        left, plain, det = key[0], key[1], key[2]
        moves = []
        if det is not None:
            moves.append((_DET, det, plain[: left - 1], None))
        if plain:
            moves.append((_PLAIN, plain[0], plain[1:left], det))
        return moves

    def value(self, key: _Key) -> tuple[int, int, int]:
        """(successes, 6s) gained from here over 5·6^left, and the move, as ``_best``."""
        values = self.values
        hit = values.get(key)
        if hit is not None:
            return hit
        left = key[0]
        best = (0, 0)
        move = _STOP
        if left:
            unit = 5 * SIDES ** (left - 1)
            # policy.CHAIN_VALUE: a fresh chain is worth 3/5 success and 1/5 six.
            chain_s, chain_x = unit * 3 // 5, unit // 5
            for kind, old, plain, det in self._moves(key):
                total_s = total_x = 0
                for weight, du, dx, fail, six, is_six in _outcomes(left, key[3], key[4], old):
                    s, x = -du * unit, dx * unit
                    if left > 1:
                        nxt = (left - 1, plain, det, fail, six)
                        vs, vx, _ = values.get(nxt) or self.value(nxt)
                        s += vs
                        x += vx
                    if is_six and kind == _DET:
                        s += chain_s
                        x += chain_x
                    total_s += weight * s
                    total_x += weight * x
                if (total_s, total_x) > best:
                    best, move = (total_s, total_x), kind
        hit = (*best, move)
        values[key] = hit
        return hit

    def future(self, key: _Key) -> tuple[int, int]:
        """Packed weights over 6^left of the change in (successes, 6s) from here, offset by
        ``offset`` slots: (no chain started, a determination reroll started a chain)."""
        hit = self.futures.get(key)
        if hit is not None:
            return hit
        left = key[0]
        move = self.value(key)[2]
        if move == _STOP:
            hit = (SIDES**left << (self.offset * self.bits), 0)
            self.futures[key] = hit
            return hit
        kind, old, plain, det = next(m for m in self._moves(key) if m[0] == move)
        plain_part = chain_part = 0
        for weight, du, dx, fail, six, is_six in _outcomes(left, key[3], key[4], old):
            quiet, chained = self.future((left - 1, plain, det, fail, six))
            slots = -du * self.width + (dx if self.sixes else 0)
            shift = slots * self.bits
            if kind == _DET and is_six:
                both = quiet + chained
                chain_part += weight * (both << shift if shift >= 0 else both >> -shift)
                continue
            plain_part += weight * (quiet << shift if shift >= 0 else quiet >> -shift)
            chain_part += weight * (chained << shift if shift >= 0 else chained >> -shift)
        hit = (plain_part, chain_part)
        self.futures[key] = hit
        return hit


def _plain_of(low: int, three: int, four: int, five: int, keep: int) -> tuple[int, ...]:
    """The lowest ``keep`` ordinary non-6 dice, as categories."""
    out: list[int] = []
    for cat, count in ((LOW, low), (THREE, three), (FOUR, four), (FIVE, five)):
        take = min(count, keep - len(out))
        out.extend([cat] * take)
    return tuple(out)


def reroll_weights(
    spec: PoolSpec, *, sixes: bool, bits: int
) -> tuple[dict[tuple[bool, bool], int], int]:
    """(final, width) of ``odds_core.Weights`` for ``spec`` (talent rerolls > 0), with
    ``bits`` per slot and the general search's denominator 6^(dice + 1 + rerolls)."""
    dice = spec.dice_count
    rerolls = spec.rerolls
    det = spec.extra_die is DieOrigin.DETERMINATION
    n = dice - (1 if det else 0)
    f, g = min(spec.focus, dice), min(spec.guaranteed, dice)
    # Changes from here: successes by at most 1 per reroll either way (U moves by 1), 6s by
    # at most 2 (the die's own 6 and one 5 made a 6 more or less); the offsets keep every
    # slot index of a future non-negative.
    off_s, off_x = rerolls, 2 * rerolls if sixes else 0
    width = dice + 2 + 2 * off_x if sixes else 1
    offset = off_s * width + off_x
    search = _Search(width=width, bits=bits, sixes=sixes, offset=offset)
    firsts = _first_throw(n, det, rerolls, f, g, sixes, width, bits)
    # Many states share one future (most just stop): add their first throws up first, so
    # each distinct future costs one multiplication.
    grouped: dict[tuple[bool, bool, int, int], int] = defaultdict(int)
    for (key, crit, chain), packed in firsts.items():
        grouped[(crit, chain, *search.future(key))] += packed
    final: dict[tuple[bool, bool], int] = defaultdict(int)
    for (crit, chain, quiet, chained), packed in grouped.items():
        final[(crit, chain)] += packed * quiet
        if chained:
            final[(crit, True)] += packed * chained
    drop = offset * bits
    return {flags: packed >> drop for flags, packed in final.items()}, width


# The determination die's first throw grouped by what it adds to the counts (1-2, 3, 5,
# or none of those): members (det category if still free, first showed a 1, live
# chain, chain successes, 6s shown, weight over 36). See odds_fixed for the weights.
_DET_CLASSES = (
    (1, 0, 0, ((LOW, True, False, 0, 0, 6), (LOW, False, False, 0, 0, 6))),
    (0, 1, 0, ((THREE, False, False, 0, 0, 6),)),
    (0, 0, 1, ((FIVE, False, False, 0, 0, 6),)),
    (0, 0, 0, (
        (FOUR, False, False, 0, 0, 6),
        (SIX, False, False, 0, 1, 3),  # the chain's first face 1-3: may be rerolled
        (None, False, False, 1, 1, 2),  # 4-5: one more success, kept
        (None, False, True, 1, 2, 1),  # 6: the chain rolls on
    )),
)  # fmt: skip
_NO_DET_CLASSES = ((0, 0, 0, ((None, False, False, 0, 0, 6),)),)


def _first_throw(
    n: int, det: bool, rerolls: int, f: int, g: int, sixes: bool, width: int, bits: int
) -> dict[tuple, int]:
    """(state, crit, live chain) -> packed weights over 6^(dice + 1) of the successes and
    6s as the first throw leaves them (focus and guarantees placed as if stopping).

    Sums over (l, t) = ordinary dice showing 1-2 and 3 and the determination die's
    throw; the other ``rest`` ordinary dice show 4-6, and their count of 5s (v) only
    matters near min(f, f + g - F + U): below by the clamp or more, every 5 becomes a
    6 and the state is the same; above, none more does. Those two runs are summed at
    once (prefix and suffix sums), the values between one by one.
    """
    dice = n + (1 if det else 0)
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i
    six_bits = bits if sixes else 0
    top = SPREAD * rerolls
    # (1 + x)^j packed over 6s (its sum 2^j when 6s are not counted): the rest's dice
    # that are not 5s show a 4 or a 6.
    binom = [sum(comb(j, i) << (i * six_bits) for i in range(j + 1)) for j in range(n + 1)]
    sums: dict[int, tuple[list[int], list[int]]] = {}

    def runs(rest: int) -> tuple[list[int], list[int]]:
        """below[j]: v < j, each 5 a 6 (shifted by v); above[j]: v >= j, unshifted."""
        hit = sums.get(rest)
        if hit is None:
            terms = [comb(rest, v) * binom[rest - v] for v in range(rest + 1)]
            below, above = [0], [0] * (rest + 2)
            for v, term in enumerate(terms):
                below.append(below[-1] + (term << (v * six_bits)))
            for v in range(rest, -1, -1):
                above[v] = above[v + 1] + terms[v]
            hit = sums[rest] = (below, above)
        return hit

    rows: dict[tuple, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    grouped: dict[tuple[int, int, int], list] = {}
    classes = _DET_CLASSES if det else _NO_DET_CLASSES
    for low in range(n + 1):
        for three in range(n - low + 1):
            rest = n - low - three
            ways = fact[n] // (fact[low] * fact[three] * fact[rest]) << low
            fixed_plain = low + three >= rerolls
            plain0 = _plain_of(low, three, 0, 0, rerolls) if fixed_plain else ()
            for dl, dt, dv, members in classes:
                lows = low + dl
                failures = lows + three + dt
                unfixed, fail = fail_shape(lows, failures, f, g, rerolls)
                succ = dice - unfixed
                x_cap = f + g - failures + unfixed
                if fixed_plain:
                    # The runs of 5s depend on (rest, dv, x_cap) only, shared by many (l, t).
                    group_key = (rest, dv, x_cap)
                    runs_of = grouped.get(group_key)
                    if runs_of is None:
                        runs_of = grouped[group_key] = _grouped(
                            rest, dv, f, x_cap, top, runs, binom
                        )
                    parts = [(plain0, shaped, poly) for shaped, poly in runs_of]
                else:
                    parts = [
                        (plain, six_shape(v + dv, failures, unfixed, f, g, rerolls), poly)
                        for plain, v, poly in _rest(low, three, rest, rerolls, binom, six_bits)
                    ]
                for plain, (up, six), poly in parts:
                    for det_key, crit, chain, extra_s, extra_x, weight in members:
                        row = rows[((rerolls, plain, det_key, fail, six), crit, chain)]
                        part = ways * weight * poly
                        if sixes:
                            part <<= (extra_x + up) * bits
                        row[succ + extra_s] += part
    # One row of ``width`` slots per success count, laid end to end: building each state's
    # integer from its rows at once, not by shifting every part into a long integer.
    size = width * bits // 8
    out: dict[tuple, int] = {}
    for entry, by_succ in rows.items():
        buf = bytearray(size * (max(by_succ) + 1))
        for succ, packed in by_succ.items():
            buf[succ * size : (succ + 1) * size] = packed.to_bytes(size, "little")
        out[entry] = int.from_bytes(buf, "little")
    return out


def _grouped(rest: int, dv: int, f: int, x_cap: int, top: int, runs, binom):
    """((5s made 6s, six shape), packed weights) over the rest's count of 5s, the
    two runs where the shape stays put summed at once (see ``_first_throw``)."""
    below, above = runs(rest)
    low_term = min(f, x_cap)
    parts = []
    # Fives + dv <= low_term - top: every 5 becomes a 6 (below[] shifted each by its v).
    a_end = min(rest, low_term - top - dv)
    if a_end >= 0:
        parts.append(((dv, (0, top, top)), below[a_end + 1]))
    # Fives + dv >= low_term + top: low_term of them become 6s.
    b_start = max(0, low_term + top - dv)
    if b_start <= rest:
        shape = (top, min(f - low_term, top), min(x_cap - low_term, top))
        parts.append(((low_term, shape), above[b_start]))
    for v in range(max(0, a_end + 1), min(rest, b_start - 1) + 1):
        terms = (v + dv, f, x_cap)
        up = min(terms)
        shape = _clamp((terms[0] - up, terms[1] - up, terms[2] - up), top)
        parts.append(((up, shape), comb(rest, v) * binom[rest - v]))
    return parts


def _rest(low: int, three: int, rest: int, keep: int, binom: list[int], six_bits: int):
    """(plain, 5s, packed weights over the rest's 6s) for the ``rest`` ordinary dice
    showing 4-6, each count of 5s on its own."""
    room = keep - low - three
    for five in range(rest + 1):
        ways = comb(rest, five)
        others = rest - five
        if room <= 0:
            yield _plain_of(low, three, 0, 0, keep), five, ways * binom[others]
            continue
        # The policy sees the lowest dice: up to ``room`` 4s, then 5s, join the plain.
        spread = binom[others]
        for four in range(min(room, others + 1)):
            part = comb(others, four) << ((others - four) * six_bits)
            spread -= part
            yield _plain_of(low, three, four, five, keep), five, ways * part
        if others >= room:
            yield _plain_of(low, three, room, five, keep), five, ways * spread
