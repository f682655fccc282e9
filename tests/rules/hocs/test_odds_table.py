"""The shared reroll table (odds_reroll_table), its warm-up and the pending determination
die give exactly the weights of the general search, of brute force and of main's module
before them (pinned by digest on large pools: reroll_grid), whatever the table holds
when a query comes.

Every new path is compared: the determination die thrown as the future's first step,
futures shared between queries (and between counting 6s and not), the table dropping
states when full, the warm-up, and the term-by-term products (narrow and wide groups).
"""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.hocs import odds_core, odds_reroll_table, odds_rerolls
from bot.rules.hocs.odds import pool_odds
from bot.rules.hocs.pool import PoolSpec
from cogs.hocs import odds_warm_up
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from tests.rules.hocs.odds_support import outcomes, pools
from tests.rules.hocs.reroll_grid import GRID, REROLLS, digest, grid_specs, key, read_fixture
from tests.rules.hocs.test_odds_pool import brute


def _fast(spec: PoolSpec, sixes: bool) -> dict:
    return outcomes(odds_core.pool_weights(spec, sixes=sixes))


@pytest.fixture
def empty_table():
    # A bot test that ran on_ready started the real warm-up: let it end, or it would fill
    # the table while these tests count what is in it.
    for thread in threading.enumerate():
        if thread.name == "odds-warm-up":
            thread.join()
    odds_reroll_table.clear()
    yield
    odds_reroll_table.clear()


@pytest.mark.parametrize("rerolls", REROLLS)
@pytest.mark.parametrize("sixes", [False, True])
def test_same_weights_as_before_on_a_grid(rerolls: int, sixes: bool) -> None:
    """Dice counts 1-31, beyond brute force and the general search: each pool's weights
    are exactly those main's module gave at f6daac3 (pinned by digest: reroll_grid)."""
    pinned = read_fixture()
    for spec in grid_specs(rerolls):
        name = key(spec, sixes)
        assert digest(_fast(spec, sixes)) == pinned[name], name


def test_the_grid_fixture_pins_the_whole_grid_and_nothing_else() -> None:
    names = [key(spec, sixes) for r in REROLLS for sixes in (False, True) for spec in grid_specs(r)]
    assert sorted(names) == sorted(read_fixture())
    assert len(set(names)) == len(names) == 3 * 2 * len(GRID)


@settings(max_examples=80, deadline=None)
@given(spec=pools(1, ODDS_MAX_REROLLS), sixes=st.booleans(),
       cleared=st.booleans())  # fmt: skip
def test_random_pools_same_as_general_search_whatever_the_table_holds(
    spec: PoolSpec, sixes: bool, cleared: bool
) -> None:
    """Up to the /odds cap, from an empty table or one earlier examples filled."""
    if cleared:
        odds_reroll_table.clear()
    general = outcomes(odds_core._search_weights(spec, sixes=sixes))
    assert _fast(spec, sixes) == general


@pytest.mark.parametrize(
    "spec",
    [
        PoolSpec(base=1, determination=True, rerolls=3),
        PoolSpec(base=1, determination=True, focus=1, guaranteed=1, rerolls=2),
        PoolSpec(base=1, determination=True, guaranteed=1, rerolls=3),
        PoolSpec(base=2, banes=1, determination=True, rerolls=2),  # the bane takes the det die
    ],
    ids=repr,
)
def test_pending_determination_die_matches_brute_force(spec: PoolSpec, empty_table) -> None:
    """The determination die thrown as the future's first step: the rolling code's own
    choices, every face enumerated (a chain's open tail bounds the difference)."""
    cap = spec.dice_count + 2
    dist, crit, open_mass = brute(spec, spec.dice_count + spec.rerolls + 4, cap)
    odds = pool_odds.__wrapped__(spec, cap)
    for k in range(cap + 1):
        assert dist[k] <= odds.dist[k] <= dist[k] + open_mass, k
        assert crit[k] <= odds.crit_dist[k] <= crit[k] + open_mass, k


def test_a_full_table_drops_states_and_answers_the_same(monkeypatch, empty_table) -> None:
    """With room for a few hundred states, the table empties itself during a query (more
    than once): the weights stay those of a roomy table."""
    specs = [
        PoolSpec(base=12, determination=True, focus=5, guaranteed=3, rerolls=3),
        PoolSpec(base=9, focus=2, guaranteed=1, rerolls=2),
    ]
    expected = [(_fast(spec, sixes), spec, sixes) for spec in specs for sixes in (False, True)]
    odds_reroll_table.clear()
    monkeypatch.setattr(odds_reroll_table, "MAX_STATES", 300)
    for weights, spec, sixes in expected:
        assert _fast(spec, sixes) == weights
        assert len(odds_reroll_table._VALUES) < 300
        assert len(odds_reroll_table._FUTURES) < 300


def test_a_full_table_keeps_the_warmed_states(monkeypatch, tmp_path, empty_table) -> None:
    """Full, the table drops what the warm-up does not fill (3 rerolls left) first (the
    warm-up computing its states: without the precomputed file, test_odds_file)."""
    monkeypatch.setattr(odds_reroll_table, "FILE", tmp_path / "missing.txt")
    spec = PoolSpec(base=20, determination=True, focus=2, rerolls=3)
    odds_rerolls.warm(1)
    warmed = dict(odds_reroll_table._FUTURES)
    expected = _fast(spec, True)
    roomy = len(odds_reroll_table._FUTURES)
    assert roomy > 3 * len(warmed)  # the query needs more room than it will have
    odds_reroll_table.clear()
    odds_rerolls.warm(1)
    # The warm-up at 1 reroll: what it fills is what a full table keeps.
    monkeypatch.setattr(odds_reroll_table, "KEEP_LEFT", 1)
    monkeypatch.setattr(odds_reroll_table, "MAX_STATES", 3 * len(warmed))
    assert _fast(spec, True) == expected
    assert len(odds_reroll_table._FUTURES) < roomy
    assert all(key in odds_reroll_table._FUTURES for key in warmed)


def test_futures_are_shared_between_states_and_queries(empty_table) -> None:
    """Most states just stop: far fewer distinct futures than states, and a second query
    on other dice adds no state the first already holds."""
    spec = PoolSpec(base=30, determination=True, focus=5, guaranteed=3, rerolls=2)
    first = _fast(spec, False)
    states = odds_reroll_table.size()
    assert len(odds_reroll_table._INTERNED) * 5 < len(odds_reroll_table._FUTURES)
    assert _fast(spec, True) != first  # 6s counted this time
    assert odds_reroll_table.size() == states  # the same states serve both


def test_warm_up_fills_the_table_and_changes_no_answer(empty_table) -> None:
    specs = [
        PoolSpec(base=30, determination=True, focus=2, guaranteed=1, rerolls=1),
        PoolSpec(base=30, boons=1, focus=3, rerolls=1),
    ]
    cold = [_fast(spec, sixes) for spec in specs for sixes in (False, True)]
    odds_reroll_table.clear()
    held = odds_rerolls.warm(1)
    assert held == odds_reroll_table.size() > 0
    # The warm-up reaches every state these queries need: they add none.
    assert [_fast(spec, sixes) for spec in specs for sixes in (False, True)] == cold
    assert odds_reroll_table.size() == held


def test_warm_up_stops_when_asked(empty_table) -> None:
    assert odds_rerolls.warm(2, stop=lambda: True) == 0
    calls = itertools.count()
    odds_rerolls.warm(2, stop=lambda: next(calls) >= 3)
    assert 0 < odds_reroll_table.size()


def test_the_bot_starts_one_warm_up_thread(monkeypatch) -> None:
    ran = threading.Event()
    started: list[int] = []

    def fake_warm(max_rerolls: int) -> int:
        started.append(max_rerolls)
        ran.set()
        return 0

    monkeypatch.setattr(odds_warm_up, "warm", fake_warm)
    monkeypatch.setattr(odds_warm_up, "_started", threading.Event())
    odds_warm_up.start_odds_warm_up()
    odds_warm_up.start_odds_warm_up()
    assert ran.wait(5)
    assert started == [odds_warm_up.WARM_REROLLS]
