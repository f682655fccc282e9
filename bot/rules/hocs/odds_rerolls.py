"""Pool weights with talent rerolls: the first throw times what the rerolls make of it.

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

The decisions are the same as ``_best``'s (``odds_reroll_table.value``, the
same expectimax over values that differ from ``_best``'s by a constant per
state). tests/rules/hocs/test_odds_fast.py checks the weights against the
general search (``odds_core._search_weights``) and brute force.

Per state, ``odds_reroll_table.future`` is the distribution of how much the
successes and 6s change from there on; it depends on the state alone, so one
shared table serves every query (``warm`` fills it at start-up). The first
throw (``_first_throw``) sums over the ordinary dice only: a determination die
is left pending and thrown as the future's first step. It gives, per distinct
future, the packed distribution of the successes and 6s as they stand, and
``_combine`` applies each future to it term by term.
"""

from __future__ import annotations

import time
from collections import defaultdict
from functools import cache
from math import comb

from bot.rules.hocs.modifiers import MAX_POOL_DICE
from bot.rules.hocs.odds_fixed import slot_bits
from bot.rules.hocs.odds_reroll_table import (
    _FILE,
    CHAIN,
    FIVE,
    FOUR,
    LOW,
    PENDING,
    SIDES,
    SPREAD,
    THREE,
    Future,
    _clamp,
    fail_shape,
    future,
    six_shape,
)
from bot.rules.hocs.odds_reroll_table import load as load_file
from bot.rules.hocs.odds_reroll_table import size as table_size
from bot.rules.hocs.odds_runs import binomials, grouped_runs, warm_runs
from bot.rules.hocs.pool import DieOrigin, PoolSpec

__all__ = ["fail_shape", "layout", "reroll_weights", "six_shape", "warm"]

# The most dice a pool can have: the base and one boon or determination die.
MAX_DICE = MAX_POOL_DICE + 1


def _plain_of(low: int, three: int, four: int, five: int, keep: int) -> tuple[int, ...]:
    """The lowest ``keep`` ordinary non-6 dice, as categories (one tuple per answer:
    counts past ``keep`` give the same, so they are clamped before the cache)."""
    return _plain_cached(min(low, keep), min(three, keep), min(four, keep), min(five, keep), keep)


@cache
def _plain_cached(low: int, three: int, four: int, five: int, keep: int) -> tuple[int, ...]:
    out: list[int] = []
    for cat, count in ((LOW, low), (THREE, three), (FOUR, four), (FIVE, five)):
        take = min(count, keep - len(out))
        out.extend([cat] * take)
    return tuple(out)


def _offsets(rerolls: int, sixes: bool) -> tuple[int, int]:
    """Slots a future may move down: successes by at most 1 a step either way (U moves
    by 1), 6s by at most 2 (the die's own 6 and one 5 made a 6 more or less); one step
    more than the rerolls, for a pending determination die's throw."""
    steps = rerolls + 1
    return steps, 2 * steps if sixes else 0


def layout(rerolls: int, sixes: bool) -> tuple[int, int, int]:
    """(width, bits, offset) of the packing for ``rerolls``, the same for every pool size:
    slots wide enough for the largest pool's denominator 6^(dice + 1 + rerolls), a
    success ``width`` slots, and every index a future reaches kept non-negative.

    A row needs room for the 6s an outcome can have (0 to dice + 1: the determination
    die's 6 and its chain's first), ``off_x`` above the slot of none: every product of
    a state's row by its future's entry is a real outcome (the future is exact for every
    state in the row), so none lands below 0 or past dice + 1 6s, and no slot above is
    ever written (a wider row only made every product longer)."""
    off_s, off_x = _offsets(rerolls, sixes)
    width = MAX_DICE + 2 + off_x if sixes else 1
    return width, slot_bits(SIDES ** (MAX_DICE + 1 + rerolls)), off_s * width + off_x


def reroll_weights(
    spec: PoolSpec, *, sixes: bool, crit: bool = True
) -> tuple[dict[tuple[bool, bool], int], int, int]:
    """(final, width, bits) of ``odds_core.Weights`` for ``spec`` (talent rerolls > 0),
    over the general search's denominator 6^(dice + 1 + rerolls); ``crit`` False: the
    critical flag merged away (every key's crit False)."""
    dice = spec.dice_count
    rerolls = spec.rerolls
    det = spec.extra_die is DieOrigin.DETERMINATION
    n = dice - (1 if det else 0)
    f, g = min(spec.focus, dice), min(spec.guaranteed, dice)
    width, bits, offset = layout(rerolls, sixes)
    rows, futures = _first_throw(n, det, rerolls, f, g, sixes, width, bits)
    final = _combine(rows, futures, width=width, bits=bits, rerolls=rerolls, sixes=sixes, crit=crit)
    drop = offset * bits
    return {flags: weights >> drop for flags, weights in final.items()}, width, bits


# A future's flags (odds_reroll_table: CHAIN 1, CRIT 2) as the final (crit, chain) key.
_FLAGS = ((False, False), (False, True), (True, False), (True, True))
# (fid, crit, sixes) -> a future's entries with what the query does not tell apart summed.
_MERGED: dict[tuple[int, bool, bool], tuple] = {}
_TERMS: dict[tuple[int, int, int, int], tuple[int, int, int, int]] = {}


def _flat(summed: dict[tuple[int, int, int], int]):
    return ((s, x, on, w) for (s, x, on), w in summed.items())


def _entries(fut: Future, *, crit: bool, sixes: bool) -> tuple:
    """``fut``'s entries, those that differ only in what the query ignores (the 6s, the
    critical flag: a clash never reads it) summed into one: fewer products per row.
    Futures are interned and their ids never reused, so the sums are kept per id."""
    if crit and sixes:
        return fut.entries
    key = (fut.fid, crit, sixes)
    hit = _MERGED.get(key)
    if hit is None:
        summed: dict[tuple[int, int, int], int] = defaultdict(int)
        for s, x, on, w in fut.entries:
            summed[(s, x if sixes else 0, on if crit else on & CHAIN)] += w
        # One tuple per distinct entry, shared between futures, as the file's loading does.
        hit = tuple(_TERMS.setdefault(entry, entry) for entry in _flat(summed))
        if len(_MERGED) >= 4096:
            _MERGED.clear()
            _TERMS.clear()
        _MERGED[key] = hit
    return hit


def _combine(
    rows: dict[int, dict[int, int]],
    futures: dict[int, Future],
    *,
    width: int,
    bits: int,
    rerolls: int,
    sixes: bool,
    crit: bool = True,
) -> dict[tuple[bool, bool], int]:
    """The first throw's rows times their futures, summed per final (crit, chain), offset
    by ``layout``'s offset.

    A future has a few dozen weights at most, so it is applied term by term (a product
    by a small integer and an addition each), never as a dense big-integer product
    (most of a packed future's slots are zeros, and Python multiplies long integers
    in time well above linear). A group of one or two success counts does it per row,
    on integers of one row; a wider group (the states many failures leave, whose
    future is the same whatever the count) packs its rows once and does it whole.
    """
    off_s, off_x = _offsets(rerolls, sixes)
    row_bits = width * bits
    size = row_bits // 8
    # (flags, row) -> one row's packed 6s; (flags, slot) -> packed rows from there.
    by_row: dict[tuple[int, int], int] = defaultdict(int)
    by_slot: dict[tuple[int, int], int] = defaultdict(int)
    for fid, by_succ in rows.items():
        # 6s not counted: a future's weights that move the successes alike apply as one
        # (their sum), a third as many products; so do those that differ only in crit.
        entries = _entries(futures[fid], crit=crit, sixes=sixes)
        if len(by_succ) <= 2:
            for succ, part in by_succ.items():
                base = succ + off_s
                for s, x, on, w in entries:
                    shift = (x + off_x) * bits if sixes else 0
                    by_row[(on, base + s)] += (w * part) << shift
            continue
        first = min(by_succ)
        buf = bytearray(size * (max(by_succ) + 1 - first))
        for succ, part in by_succ.items():
            at = (succ - first) * size
            buf[at : at + size] = part.to_bytes(size, "little")
        packed = int.from_bytes(buf, "little")
        base = (first + off_s) * width + off_x
        for s, x, on, w in entries:
            by_slot[(on, base + s * width + (x if sixes else 0))] += w * packed
    final: dict[tuple[bool, bool], int] = defaultdict(int)
    for (on, row), part in by_row.items():
        final[_FLAGS[on]] += part << (row * row_bits)
    for (on, slot), part in by_slot.items():
        final[_FLAGS[on]] += part << (slot * bits)
    return final


def _first_throw(
    n: int,
    det: bool,
    rerolls: int,
    f: int,
    g: int,
    sixes: bool,
    width: int,
    bits: int,
    *,
    future=future,
) -> tuple[dict[int, dict[int, int]], dict[int, Future]]:
    """Per future the states the first throw lands in share: per success count, the
    packed weights over 6^(n + 1) of the 6s as the first throw of the ``n`` ordinary
    dice leaves them (focus and guarantees placed as if stopping); and the futures.

    ``future`` gives each state's future (odds_table_build records the states asked).

    A determination die is left ``PENDING``: counted as a 4, its throw is the first step
    of the future (odds_reroll_table), so the states here are clamped one step wider.

    Sums over (l, t) = ordinary dice showing 1-2 and 3; the other ``rest`` dice show
    4-6, and their count of 5s (v) only matters near min(f, f + g - F + U): below by
    the clamp or more, every 5 becomes a 6 and the state is the same; above, none more
    does. Those two runs are summed at once (prefix and suffix sums), the values
    between one by one.
    """
    dice = n + (1 if det else 0)
    clamp = rerolls + 1 if det else rerolls
    det_key, weight = (PENDING, 1) if det else (None, SIDES)
    six_bits = bits if sixes else 0
    top = SPREAD * clamp
    binom = binomials(six_bits)

    # Weights per (future, successes, 6s polynomial, 6s added) first, as plain integers:
    # many (l, t) land there alike (past the clamps a count's change moves neither state
    # nor result), so each polynomial product is made once per entry.
    coef: dict[tuple[int, int, int, int], int] = defaultdict(int)
    polys: list[int] = []
    futures: dict[int, Future] = {}
    grouped: dict[tuple[int, int], list] = {}
    # (l, t) with at least ``rerolls`` failures whose plain dice, fail shape, successes
    # and runs of 5s agree (many: past the clamps l and t move neither): their ways
    # summed first, so each one's parts are looked up once, not once per (l, t).
    alike: dict[tuple, int] = defaultdict(int)

    # (plain, fail shape) -> {six shape: future id}: one lookup of the long part per
    # (l, t) group, then only the six shape per part.
    fids_of: dict[tuple, dict[tuple, int]] = {}

    def add(plain: tuple, fail: tuple, succ: int, parts, ways: int) -> None:
        known = fids_of.get((plain, fail))
        if known is None:
            known = fids_of[(plain, fail)] = {}
        for (up, six), pid in parts:
            fid = known.get(six)
            if fid is None:
                fut = future((rerolls, plain, det_key, fail, six))
                fid = known[six] = fut.fid
                futures[fid] = fut
            coef[(fid, succ, pid, up)] += ways

    for failures in range(n + 1):
        rest = n - failures
        # n! / (l! t! rest!) 2^l = C(n, F) C(F, l) 2^l, with F = l + t failures.
        head = comb(n, failures) * weight
        # fail_shape's terms (0, l - g, F - g - f) with l rising: only l - g moves.
        fixed_term = failures - g - f
        for low in range(failures + 1):
            three = failures - low
            ways = head * comb(failures, low) << low
            if failures >= rerolls:
                lows = low - g
                unfixed = max(0, lows, fixed_term)
                fail = _clamp((unfixed, unfixed - lows, unfixed - fixed_term), clamp)
                # (rest, x_cap) fixes the failures and so, with x_cap, the successes.
                plain_at = (min(low, rerolls), min(three, rerolls))
                x_cap = f + g - failures + unfixed
                alike[(plain_at, fail, rest, x_cap, dice - unfixed)] += ways
                continue
            unfixed, fail = fail_shape(low, failures, f, g, clamp)
            # Counts of 5s that land on the same plain dice and six shape share their
            # future and successes: their polynomials, each shifted by its 5s made 6s,
            # are added up first, one part each instead of one per count.
            alike_rest: dict[tuple, int] = defaultdict(int)
            for plain, v, poly in _rest(low, three, rest, rerolls, binom, six_bits):
                up, shape = six_shape(v, failures, unfixed, f, g, clamp)
                alike_rest[(plain, shape)] += poly << (up * six_bits)
            for (plain, shape), poly in alike_rest.items():
                add(plain, fail, dice - unfixed, (((0, shape), len(polys)),), ways)
                polys.append(poly)
    for ((low, three), fail, rest, x_cap, succ), ways in alike.items():
        # The runs of 5s depend on (rest, x_cap) only, shared by many (l, t).
        runs_of = grouped.get((rest, x_cap))
        if runs_of is None:
            runs_of = grouped[(rest, x_cap)] = []
            for shaped, poly in grouped_runs(rest, f, x_cap, top, six_bits):
                runs_of.append((shaped, len(polys)))
                polys.append(poly)
        add(_plain_of(low, three, 0, 0, rerolls), fail, succ, runs_of, ways)
    # Rows per future, not per state: states sharing a future are added up before it
    # is applied.
    rows: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for (fid, succ, pid, up), ways in coef.items():
        rows[fid][succ] += ways * polys[pid] << (up * six_bits)
    return rows, futures


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


# What ``warm`` fills the shared table with, most asked first: (rerolls, focus values,
# guarantee values). The states of the largest pools cover the smaller pools' (a pool
# of fewer dice reaches no shape a larger one with the same modifiers could not), and
# these focus and guarantee values reach nearly every state any value reaches with up
# to 2 rerolls (12,124 over every focus and guarantee, 11,896 of them here).
WARM_GRID = ((1, range(4), range(3)), (2, range(7), range(5)))


def warm(max_rerolls: int, *, stop=lambda: False) -> int:
    """Fill the shared reroll table (``odds_reroll_table``) with what queries of up to
    ``max_rerolls`` talent rerolls reach; ``stop()`` ends it early. Returns the states
    held. Only time is saved: a query finds the same weights in a cold table.

    The precomputed file (``odds_table_build``: every state a query's first throw lands
    in, up to 3 rerolls) is read if it is there, in tens of milliseconds; without it,
    the states up to 2 rerolls are computed, the largest pools first (about a second)."""
    if stop():
        return table_size()
    # The 6s polynomials of each layout a clash of up to max_rerolls uses (a few ms).
    warm_runs({layout(r, True)[1] for r in range(1, max_rerolls + 1)})
    if load_file(max_rerolls):
        _merge_loaded(stop)
        return table_size()
    for rerolls, focus_values, guarantee_values in WARM_GRID:
        if rerolls > max_rerolls:
            break
        for focus in focus_values:
            for guaranteed in guarantee_values:
                for det in (True, False):
                    if stop():
                        return table_size()
                    # The first throw alone, unpacked and without 6s: it asks for every
                    # state's future, which is what fills the table.
                    _first_throw(MAX_DICE - det, det, rerolls, focus, guaranteed, False, 1, 8)
    return table_size()


def _merge_loaded(stop) -> None:
    """The loaded futures' entries as a clash on 6s reads them (``_entries``: the critical
    flag merged), so the slowest /odds family finds them made (about 7 ms of CPU for
    582 futures)."""
    seen: set[int] = set()
    for at, fut in enumerate(list(_FILE.values())):
        if at % 64 == 0:
            if stop():
                return
            time.sleep(0)  # hand the GIL to the event loop, as the file's reading does
        if fut.fid not in seen:
            seen.add(fut.fid)
            _entries(fut, crit=False, sixes=True)
