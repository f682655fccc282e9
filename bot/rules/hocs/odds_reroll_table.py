"""The talent-reroll policy over clamped states, and what it makes of each: one table
shared by every query.

A state (``_Key``, see ``odds_rerolls``) is rerolls left, the dice the policy may
reroll, and the two clamped shapes. What the policy does there (``value``) and
the distribution of how much the successes and 6s change from there on
(``future``) depend on the state alone: not on the pool's size, focus,
guarantees, nor on whether 6s are counted. So both live in module-level tables
that every query reads and fills, bounded (``MAX_STATES``, ``_room``). The
futures of the states a query starts from are precomputed (``odds_table_build``,
up to 3 rerolls) and ``odds_rerolls.warm`` reads them into ``_FILE`` off the
reply path at start-up (``load``). A query that finds a state missing computes
it as before: the tables only save time.

Futures are kept unpacked (``(successes, 6s, flags, weight)``) and interned:
states with the same distribution share one ``Future``, which is what lets the
first throw add up its rows per distinct future before applying it (most states
just stop).
"""

from __future__ import annotations

import itertools
import time
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

SIDES = 6
LOW, THREE, FOUR, FIVE, SIX = 1, 3, 4, 5, 6
_FACES = ((LOW, 2), (THREE, 1), (FOUR, 1), (FIVE, 1), (SIX, 1))
_STOP, _DET, _PLAIN = 0, 1, 2
# One reroll moves a gap between two terms of the 6s' min by at most this (odds_rerolls).
SPREAD = 1
# (left, plain, det, fail_shape, six_shape): see odds_rerolls.
_Key = tuple
CHAIN, CRIT = 1, 2
# A determination die not thrown yet: the first throw leaves it out, as if it showed a 4
# (which moves no term), with shapes clamped one step wider, and its future begins by
# throwing it. That throw changes the terms as a reroll from a 4 would, so it is one
# more step of the same kind, and the first throw sums over the ordinary dice alone.
PENDING = 0
# (category it moves the terms as, det category if still free, flags, chain successes,
# 6s beyond the category's, weight over 36): a 1 and a 2 land alike (one critical); a 6
# explodes at once and its first chain face decides: 1-3 (3 ways) adds nothing and the
# die may still be rerolled, 4-5 (2) a success, 6 (1) a success, a 6 and a live chain.
_DET_THROW = (
    (LOW, LOW, CRIT, 0, 0, 6),
    (LOW, LOW, 0, 0, 0, 6),
    (THREE, THREE, 0, 0, 0, 6),
    (FOUR, FOUR, 0, 0, 0, 6),
    (FIVE, FIVE, 0, 0, 0, 6),
    (FOUR, SIX, 0, 0, 1, 3),
    (FOUR, None, 0, 1, 1, 2),
    (FOUR, None, CHAIN, 1, 2, 1),
)
# Past this many entries in a table, states are dropped (``_room``; a query then
# recomputes what it needs): about 450 bytes a state with the caches beside them, so
# about 10 MB at most. With the precomputed file read (``_FILE``, apart and never
# dropped: 15,036 states, +2.4 MiB resident), a query of up to 3 rerolls adds none; a
# query with a cold table (31 dice, 3 rerolls) adds up to ~5,500.
MAX_STATES = 12_000
# What the warm-up computes when the file is missing (odds_rerolls.WARM_GRID): states
# with at most this many rerolls left, kept when the tables are full.
KEEP_LEFT = 2


class Future(NamedTuple):
    """What the rerolls make of a state: ``entries`` (change in successes, change in 6s,
    flags, weight over 6^left, and 36 more for a pending determination die); ``fid``
    names it. Flags: ``CHAIN`` a chain of 6s is live, ``CRIT`` the determination die
    first showed a 1."""

    fid: int
    entries: tuple[tuple[int, int, bool, int], ...]


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


_OUTCOMES: dict[tuple, tuple] = {}
_DET_STEPS: dict[tuple, tuple] = {}
_VALUES: dict[_Key, tuple[int, int, int]] = {}
_FUTURES: dict[_Key, Future] = {}
# (left, move, each outcome's weight, changes, chain flag and next future's fid) -> Future:
# two states whose rerolls lead to the same futures the same way share one.
_BY_MOVE: dict[tuple, Future] = {}
_INTERNED: dict[tuple, Future] = {}
_IDS = itertools.count()
# The futures of the states a query's first throw lands in, read from the file
# odds_table_build writes (``load``): never dropped by ``_room``, so a query of up to
# 3 rerolls finds every state it starts from here and computes none.
_FILE: dict[_Key, Future] = {}
FILE = Path(__file__).with_name("odds_reroll_futures.txt")


def _clear_computed() -> None:
    """Empty the tables queries fill (past ``MAX_STATES``); the loaded file stays."""
    for table in (_OUTCOMES, _DET_STEPS, _VALUES, _FUTURES, _BY_MOVE, _INTERNED):
        table.clear()


def clear() -> None:
    """Empty every table, the loaded file's futures too (the benchmark's cold start)."""
    _clear_computed()
    _FILE.clear()


def size() -> int:
    """States held (values and futures, computed or loaded)."""
    return len(_VALUES) + len(_FUTURES) + len(_FILE)


def _decode(token: str, shapes: dict[str, tuple]) -> _Key:
    """``odds_table_build.encode``'s token back to its state (tuples shared)."""
    plain = shapes.get(token[8:])
    if plain is None:
        plain = shapes[token[8:]] = tuple(map(int, token[8:]))
    fail = shapes.get(token[1:4])
    if fail is None:
        fail = shapes[token[1:4]] = tuple(map(int, token[1:4]))
    six = shapes.get(token[4:7])
    if six is None:
        six = shapes[token[4:7]] = tuple(map(int, token[4:7]))
    det = PENDING if token[7] == "p" else None
    return (int(token[0]), plain, det, fail, six)


def load(max_left: int, path: Path | None = None) -> int:
    """Read the precomputed futures (``odds_table_build``) of the states with at most
    ``max_left`` rerolls left into ``_FILE``; returns how many (0 if the file is
    missing or unreadable: queries then compute their states, as without it)."""
    try:
        lines = (path or FILE).read_text(encoding="ascii").splitlines()
    except OSError:
        return 0
    shapes: dict[str, tuple] = {}
    # One tuple per distinct entry (2,082 for 12,530 written): less memory, and
    # fewer objects made means fewer garbage collections holding the GIL meanwhile.
    terms: dict[str, tuple[int, ...]] = {}
    loaded: dict[_Key, Future] = {}
    entries: tuple = ()
    for at, line in enumerate(lines):
        if at % 8 == 0:
            # The warm-up thread reads this: hand the GIL to the event loop often, so a
            # command arriving meanwhile waits a few milliseconds at most.
            time.sleep(0)
        if line.startswith("F "):
            parts = []
            for entry in line[2:].split(" "):
                term = terms.get(entry)
                if term is None:
                    term = terms[entry] = tuple(map(int, entry.split(":")))
                parts.append(term)
            entries = tuple(parts)
        elif line.startswith("K "):
            tokens = [token for token in line[2:].split(" ") if int(token[0]) <= max_left]
            if tokens:
                fut = Future(next(_IDS), entries)
                for token in tokens:
                    loaded[_decode(token, shapes)] = fut
    _FILE.update(loaded)
    return len(loaded)


def _room() -> None:
    """Past ``MAX_STATES`` in a table, drop the states with more than ``KEEP_LEFT``
    rerolls left (the warm-up fills none), then, if that is not enough, everything."""
    tables = (_VALUES, _FUTURES, _OUTCOMES, _BY_MOVE, _DET_STEPS)
    for table in (_VALUES, _FUTURES):
        # list() first: another thread (the warm-up, a query) may add to the table.
        for key in [key for key in list(table) if key[0] > KEEP_LEFT]:
            table.pop(key, None)
    if any(len(table) >= MAX_STATES * 3 // 4 for table in tables):
        _clear_computed()


def _step(left: int, fail: tuple, six: tuple, old: int, new: int) -> tuple:
    """One die from ``old`` to ``new`` with ``left`` rerolls before it: (change in unfixed
    failures, change in 5s made 6s, change in rolled 6s, next fail shape, next six shape)."""
    d_low = (new == LOW) - (old == LOW)
    d_fail = d_low + (new == THREE) - (old == THREE)
    # Terms relative to the old largest (fail) and smallest (six), which were 0.
    u = (-fail[0], -fail[1] + d_low, -fail[2] + d_fail)
    d_unfixed = max(u)
    nxt_fail = _clamp((d_unfixed - u[0], d_unfixed - u[1], d_unfixed - u[2]), left - 1)
    s = (six[0] + (new == FIVE) - (old == FIVE), six[1], six[2] - d_fail + d_unfixed)
    d_up = min(s)
    nxt_six = _clamp((s[0] - d_up, s[1] - d_up, s[2] - d_up), SPREAD * (left - 1))
    return (d_unfixed, d_up, (new == SIX) - (old == SIX), nxt_fail, nxt_six)


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
        hit = _OUTCOMES[key] = tuple(hit)
    return hit


def _det_throw(key: _Key) -> tuple:
    """(weight, change in successes, change in 6s, flags, next state) for each first
    throw of a pending determination die (``_DET_THROW``)."""
    left, plain, _, fail, six = key
    steps = _DET_STEPS.get((left, fail, six))
    if steps is None:
        steps = []
        for new, det, flags, extra_s, extra_x, weight in _DET_THROW:
            du, dup, _, nxt_fail, nxt_six = _step(left + 1, fail, six, FOUR, new)
            steps.append((weight, extra_s - du, dup + extra_x, flags, det, nxt_fail, nxt_six))
        steps = _DET_STEPS[(left, fail, six)] = tuple(steps)
    return tuple(
        (w, ds, dx, fl, (left, plain, det, nf, ns)) for w, ds, dx, fl, det, nf, ns in steps
    )


def _moves(key: _Key):
    """(kind, old category, next plain, next det) for each possible move."""
    left, plain, det = key[0], key[1], key[2]
    moves = []
    if det is not None:
        moves.append((_DET, det, plain[: left - 1], None))
    if plain:
        moves.append((_PLAIN, plain[0], plain[1:left], det))
    return moves


def value(key: _Key) -> tuple[int, int, int]:
    """(successes, 6s) gained from here over 5·6^left, and the move, as ``policy._best``.

    The same expectimax (stop, the determination die, or the lowest ordinary die; a tie
    keeps the reroll, then prefers the determination die; a determination die rerolled
    into a 6 is worth its chain's 3/5 success and 1/5 six on average), over values that
    differ from ``_best``'s by a constant per state, so every comparison comes out the same.
    """
    hit = _VALUES.get(key)
    if hit is not None:
        return hit
    left = key[0]
    best = (0, 0)
    move = _STOP
    if left:
        unit = 5 * SIDES ** (left - 1)
        # policy.CHAIN_VALUE: a fresh chain is worth 3/5 success and 1/5 six.
        chain_s, chain_x = unit * 3 // 5, unit // 5
        for kind, old, plain, det in _moves(key):
            total_s = total_x = 0
            for weight, du, dx, fail, six, is_six in _outcomes(left, key[3], key[4], old):
                s, x = -du * unit, dx * unit
                if left > 1:
                    nxt = (left - 1, plain, det, fail, six)
                    vs, vx, _ = _VALUES.get(nxt) or value(nxt)
                    s += vs
                    x += vx
                if is_six and kind == _DET:
                    s += chain_s
                    x += chain_x
                total_s += weight * s
                total_x += weight * x
            if (total_s, total_x) > best:
                best, move = (total_s, total_x), kind
    if len(_VALUES) >= MAX_STATES:
        _room()
    hit = _VALUES[key] = (*best, move)
    return hit


def future(key: _Key) -> Future:
    """The distribution of the change in (successes, 6s) from this state on, the
    policy's moves taken (interned: equal distributions are one ``Future``).

    A state whose determination die is ``PENDING`` (see ``_DET_THROW``) starts with that
    die's first throw, then goes on as the state it lands in.
    """
    hit = _FUTURES.get(key) or _FILE.get(key)
    if hit is not None:
        return hit
    left = key[0]
    if key[2] == PENDING:
        steps: tuple = tuple(
            (weight, ds, dx, flags, _FUTURES.get(nxt) or future(nxt))
            for weight, ds, dx, flags, nxt in _det_throw(key)
        )
        shape: tuple = (left, PENDING, *((w, ds, dx, fl, nxt.fid) for w, ds, dx, fl, nxt in steps))
    elif (move := value(key)[2]) == _STOP:
        shape = (left,)
        steps = ()
    else:
        kind, old, plain, det = next(m for m in _moves(key) if m[0] == move)
        chain = CHAIN if kind == _DET else 0
        steps = tuple(
            (weight, -du, dx, chain if is_six else 0, _FUTURES.get(nxt) or future(nxt))
            for weight, du, dx, fail, six, is_six in _outcomes(left, key[3], key[4], old)
            for nxt in ((left - 1, plain, det, fail, six),)
        )
        shape = (left, *((w, ds, dx, fl, nxt.fid) for w, ds, dx, fl, nxt in steps))
    hit = _BY_MOVE.get(shape)
    if hit is None:
        if not steps:
            entries: tuple = ((0, 0, 0, SIDES**left),)
        else:
            acc: dict[tuple[int, int, int], int] = defaultdict(int)
            for weight, ds, dx, flags, nxt in steps:
                for s, x, on, w in nxt.entries:
                    acc[(s + ds, x + dx, on | flags)] += weight * w
            entries = tuple(sorted((s, x, on, w) for (s, x, on), w in acc.items()))
        hit = _INTERNED.get(entries)
        if hit is None:
            hit = _INTERNED[entries] = Future(next(_IDS), entries)
        _BY_MOVE[shape] = hit
    if len(_FUTURES) >= MAX_STATES or len(_OUTCOMES) >= MAX_STATES:
        _room()
    _FUTURES[key] = hit
    return hit
