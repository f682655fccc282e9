"""The largest clashes decided on 6s give exactly the figures of the code before the
faster path (issue 14): each side's weights with the critical flag merged in the
futures, the first throw's shared 6s polynomials and narrower rows, and live chains
carried up one success count at a time.

Two references, both exact: the clash as 3f45e38 computed it, rebuilt here from each
side's full weights (the critical flag kept, merged by hand) and 3f45e38's own walk of
every live chain (``_old_side``), and compared with a digest of what the reroll module
before (f6daac3, which shares no code with the fast path) gave for the same clash; and
a frozen digest of every ``ClashOdds`` 3f45e38 gave for a grid of 72 large clashes.
(The weights themselves are pinned to f6daac3's by test_odds_grid's digests.)
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from fractions import Fraction

import pytest

from bot.rules.hocs import odds_clash
from bot.rules.hocs.check import ADVANTAGE_MARGIN
from bot.rules.hocs.clash import MAX_ROUNDS
from bot.rules.hocs.odds_clash import _Side, clash_odds
from bot.rules.hocs.odds_core import pool_weights
from bot.rules.hocs.pool import PoolSpec


def _old_raw(spec: PoolSpec) -> tuple[tuple[tuple[int, int, bool, int], ...], int]:
    """3f45e38's ``_raw`` for a clash on 6s: the full weights, the critical flag kept
    and merged here (not in the futures, as the fast path does)."""
    weights = pool_weights(spec, sixes=True)
    merged: dict[tuple[int, int, bool], int] = defaultdict(int)
    for _, on, succ, six, w in weights.outcomes():
        merged[(succ, six, on)] += w
    return tuple((s, x, on, w) for (s, x, on), w in merged.items()), weights.denominator


def _old_side(raw: tuple[tuple[int, int, bool, int], ...], den: int, limit: int) -> _Side:
    """3f45e38's ``_side``: every live chain walked for each length below the limit."""
    marginal = [0] * limit
    joint: list[dict[int, int]] = [defaultdict(int) for _ in range(limit)]
    tail = 0
    offsets: dict[int, int] = defaultdict(int)
    scale = 6 ** (limit + 1)
    for s0, x0, on, w in raw:
        if not on:
            marginal[s0] += w * scale
            joint[s0][x0] += w * scale
            continue
        for e, ways in ((0, 3), (1, 2)):
            k = 0
            while s0 + k + e < limit:
                part = w * ways * 6 ** (limit - k)
                marginal[s0 + k + e] += part
                joint[s0 + k + e][x0 + k] += part
                k += 1
            weight = w * ways * 6 ** (s0 + e + limit)
            tail += weight
            offsets[x0 - s0 - e] += weight
    return _Side(
        marginal=tuple(marginal),
        joint=tuple(tuple(sorted(j.items())) for j in joint),
        tail=tail,
        offsets=dict(offsets),
        limit=limit,
        den=den * scale,
    )


def _old_clash(a: PoolSpec, b: PoolSpec) -> tuple[Fraction, ...]:
    """(A wins, B wins, stand-off, A's advantage, B's advantage, repeat) of a clash on 6s
    as 3f45e38 computed them; the round sums (unchanged since) are odds_clash's own."""
    (raw_a, den_a), (raw_b, den_b) = _old_raw(a), _old_raw(b)
    limit = 1 + max(s for s, *_ in (*raw_a, *raw_b))
    sa, sb = _old_side(raw_a, den_a, limit), _old_side(raw_b, den_b, limit)
    a_round = odds_clash._wins_by(sa, sb, 1) + odds_clash._more_sixes_on_tie(sa, sb)
    b_round = odds_clash._wins_by(sb, sa, 1) + odds_clash._more_sixes_on_tie(sb, sa)
    repeat = 1 - a_round - b_round
    a_adv = odds_clash._wins_by(sa, sb, ADVANTAGE_MARGIN)
    b_adv = odds_clash._wins_by(sb, sa, ADVANTAGE_MARGIN)

    def series(x: Fraction) -> Fraction:
        return x * (1 - repeat**MAX_ROUNDS) / (1 - repeat)

    return (series(a_round), series(b_round), repeat**MAX_ROUNDS, series(a_adv),
            series(b_adv), repeat)  # fmt: skip


# (a, b, sha256 (first 16 hex digits) of repr(_old_clash(a, b)) as computed on main's
# reroll module before, f6daac3's, when this test was written).
LARGE = [
    # The worst case measured: 31 dice each, a determination die against a boon.
    (PoolSpec(base=30, determination=True, focus=8, guaranteed=1, rerolls=3),
     PoolSpec(base=30, boons=1, focus=8, guaranteed=1, rerolls=3),
     "1f1ffd5026f2cb68"),
    (PoolSpec(base=30, determination=True, focus=5, guaranteed=3, rerolls=2),
     PoolSpec(base=30, focus=29, guaranteed=3, rerolls=3),
     "e208eec0ec69a029"),
    (PoolSpec(base=25, determination=True, focus=29, guaranteed=3, rerolls=3),
     PoolSpec(base=28, determination=True, rerolls=2),
     "f99189e2f7e4f16f"),
    (PoolSpec(base=30, determination=True, focus=30, guaranteed=2, rerolls=1),
     PoolSpec(base=27, boons=1, focus=2, guaranteed=1),
     "5386ba654c3a14c1"),
    (PoolSpec(base=26, focus=12, rerolls=3, banes=1),
     PoolSpec(base=30, determination=True, focus=12, guaranteed=5, rerolls=3),
     "70b974fb972d9e45"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "digest"), LARGE, ids=repr)
def test_large_clashes_on_sixes_as_before(a: PoolSpec, b: PoolSpec, digest: str) -> None:
    clash_odds.cache_clear()
    odds_clash._raw.cache_clear()
    odds = clash_odds(a, b)
    got = (odds.a_wins, odds.b_wins, odds.standoff, odds.a_advantage, odds.b_advantage,
           odds.repeat)  # fmt: skip
    before = _old_clash(a, b)
    assert hashlib.sha256(repr(before).encode()).hexdigest()[:16] == digest
    assert got == before
    assert 0 < odds.a_wins < 1 and 0 < odds.b_wins < 1  # a real contest, not a walkover


@pytest.mark.parametrize("extra", [0, 1, 4])
@pytest.mark.parametrize(
    "spec",
    [
        PoolSpec(base=30, determination=True, focus=8, guaranteed=1, rerolls=3),
        PoolSpec(base=30, determination=True),
        PoolSpec(base=0, determination=True),
        PoolSpec(base=12, boons=1, focus=3, rerolls=2),
    ],
    ids=repr,
)
def test_side_carries_chains_as_the_walk_did(spec: PoolSpec, extra: int) -> None:
    """The same _Side, field for field, at the smallest limit and above it (the other
    side may reach further)."""
    raw, den = odds_clash._raw(spec, True)
    limit = 1 + max(s for s, *_ in raw) + extra
    assert odds_clash._side(raw, den, limit) == _old_side(raw, den, limit)


@pytest.mark.parametrize(
    "spec",
    [
        PoolSpec(base=30, determination=True, focus=8, guaranteed=1, rerolls=3),
        PoolSpec(base=9, determination=True, focus=2, rerolls=1),
        PoolSpec(base=9, determination=True, focus=2),
        PoolSpec(base=9, boons=1, guaranteed=2, rerolls=2),
    ],
    ids=repr,
)
@pytest.mark.parametrize("sixes", [True, False])
def test_weights_without_crit_are_the_sum_over_crit(spec: PoolSpec, sixes: bool) -> None:
    """pool_weights(crit=False) is pool_weights' outcomes with the flag summed away, and
    keeps them (the determination die's first 1 has weight of its own)."""
    merged: dict[tuple[bool, int, int], int] = defaultdict(int)
    crits = 0
    for crit, chain, succ, six, w in pool_weights(spec, sixes=sixes).outcomes():
        merged[(chain, succ, six)] += w
        crits += crit
    if spec.determination:
        assert crits > 0
    got: dict[tuple[bool, int, int], int] = defaultdict(int)
    for crit, chain, succ, six, w in pool_weights(spec, sixes=sixes, crit=False).outcomes():
        assert not crit
        got[(chain, succ, six)] += w
    assert got == merged


def _grid():
    """72 clashes of 25 and 30 base dice, A with a determination die, B with a boon, a
    determination die or neither, across focus, guarantees and 0-3 rerolls."""
    for base, other, (f, g), (ra, rb) in itertools.product(
        (25, 30), ("boon", "det", "plain"), ((5, 3), (8, 1), (29, 3), (30, 30)),
        ((3, 3), (2, 3), (0, 2)),
    ):  # fmt: skip
        a = PoolSpec(base=base, determination=True, focus=f, guaranteed=g, rerolls=ra)
        b = PoolSpec(base=base, boons=int(other == "boon"), determination=other == "det",
                     focus=min(g + 1, 30), guaranteed=f % 7, rerolls=rb)  # fmt: skip
        yield a, b


# sha256 (first 16 hex digits) of repr(clash_odds(a, b)) for _grid() in order, as 3f45e38
# gave them (exact Fractions: any change in any digit of any figure changes the digest).
FROZEN = """
0a9a08c4ba6dd033 40e9b8326d5105d9 cb29b7109dd6ed4a daf2eca005096f48 5a89e26301477cf9
adaad65186e4d5b1 09b3709d390ede4c 0fcda82188afa61b 8a02acb516ab10eb 342bc55b7d4c3fb3
e5308007f0b9eecf d82b544bb898f4f3 d43ac67b3ad156b7 434c9b513c455804 296c007279e91b93
0631f24b89b69829 33509feb828fdb56 7e7e10be4ecbedc0 6060bdeaa5986f0a 83b3e1bc199d307a
6cd3b30150ef7bad a0b867e5a5820566 e17258d07dd07843 0b68408fac0f27f5 8342d9daf6cd4918
fbd0c2980ab18f13 b1754cfbaa2bc395 ff92d5ad18e35de4 35238a8642ce2e5d e51e2dc9cbf7921c
de58dc4905307a6f f458a8efcb2a16aa 564a0bbec25715da 09ddadaccbcdc4aa 09ddadaccbcdc4aa
558feca00e680be7 2e25c3c0f9c737fb 1993e793d03d4922 ba27e84ecc2400a9 a47c1cc877465f1e
9004542bec04384d b1ec8aed5f29dded 5c345dce1bc8a566 14f12024aae3fc36 f65766b614902e66
b824d7219ccc7ff0 6823cc5660503846 8897d94d38077363 4882abd4ba60e4fc 6084188d7f325b19
d35ff4dfbd867e88 e5bfae5b6fcde3e7 e639b2209a9ffbaa 57508e17537561cc daaaf77c0d0224ac
5ced08a2db79d360 e78901d913d85577 9776775c947d3c76 42128a97ef60e10f b5642465c0cb8758
46e7a74fefb05f22 4a18ad16622d4f10 729d19ac10be6aa5 3b8f19a6867f94ba e18bf227528896ab
81813555f5ad23fd eac90b2fa315ab07 e75dbbbc8acb4f5d e6123199aa649844 e7559885cddba29d
b5b43b4805365966 5efdef27791deddc
""".split()


def test_grid_of_large_clashes_matches_the_frozen_figures() -> None:
    cases = list(_grid())
    assert len(cases) == len(FROZEN) == 72
    for (a, b), digest in zip(cases, FROZEN, strict=True):
        odds = clash_odds(a, b)
        assert hashlib.sha256(repr(odds).encode()).hexdigest()[:16] == digest, (a, b)
