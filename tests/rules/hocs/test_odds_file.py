"""The precomputed reroll futures (odds_reroll_futures.txt, odds_table_build): the file is
what the build computes, byte for byte, and every figure read through it is the one the
general search, main's module before it and brute force give.

The exactness tests elsewhere run from an empty table (their fixtures clear it, the file
with it); here the same checks run with the file loaded, and assert that the file alone
served every state (the computed tables stay empty).
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.hocs import odds_reroll_table, odds_rerolls, odds_table_build
from bot.rules.hocs.odds_clash import _raw, clash_odds
from bot.rules.hocs.pool import PoolSpec
from cogs.hocs import odds_warm_up
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from tests.rules.hocs import test_odds_fast, test_odds_table
from tests.rules.hocs.odds_support import pools


@pytest.fixture
def no_table():
    # A bot test that ran on_ready started the real warm-up: let it end first.
    for thread in threading.enumerate():
        if thread.name == "odds-warm-up":
            thread.join()
    odds_reroll_table.clear()
    yield
    odds_reroll_table.clear()


@pytest.fixture
def file_loaded(no_table):
    assert odds_rerolls.warm(ODDS_MAX_REROLLS) == len(odds_reroll_table._FILE) > 0
    yield


def _computed() -> int:
    """States the queries computed (not read from the file)."""
    return len(odds_reroll_table._FUTURES) + len(odds_reroll_table._VALUES)


def _file_slice(keys: set[str]) -> str:
    """The committed file cut down to these states' tokens, in its own order."""
    text = odds_table_build.PATH.read_text(encoding="ascii")
    assert text.startswith(odds_table_build.HEADER)
    lines = text[len(odds_table_build.HEADER) :].splitlines()
    out = []
    for entries, states in zip(lines[::2], lines[1::2], strict=True):
        kept = [token for token in states[2:].split(" ") if token in keys]
        if kept:
            out += [entries, "K " + " ".join(kept)]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("rerolls", "focus_values", "guarantee_values"),
    [
        (1, range(32), (0, 1, 2, 31)),
        (2, range(0, 32, 3), (0, 2, 5)),
        (3, (0, 2, 5, 30), (0, 1, 3)),
    ],
)
def test_the_file_is_what_the_build_computes(
    rerolls: int, focus_values, guarantee_values, no_table
) -> None:
    """A slice of the build, recomputed from an empty table, gives the committed file's
    bytes for those states (and the file holds every state the slice reaches)."""
    found = odds_table_build.states(rerolls, focus_values, guarantee_values)
    assert found
    tokens = {odds_table_build.encode(key) for key in found}
    assert odds_table_build.render(found) == _file_slice(tokens)


def test_the_file_decodes_to_the_states_it_encodes(no_table) -> None:
    held = odds_reroll_table.load(ODDS_MAX_REROLLS)
    assert held == len(odds_reroll_table._FILE)
    assert {key[0] for key in odds_reroll_table._FILE} == {1, 2, 3}
    for key, fut in odds_reroll_table._FILE.items():
        assert odds_reroll_table._decode(odds_table_build.encode(key), {}) == key
        assert fut.entries and sum(w for *_, w in fut.entries) == 6 ** key[0] * (
            36 if key[2] == odds_reroll_table.PENDING else 1
        )
    # Fewer rerolls read only their states.
    odds_reroll_table.clear()
    assert 0 < odds_reroll_table.load(1) < held
    assert {key[0] for key in odds_reroll_table._FILE} == {1}


def test_a_missing_file_leaves_the_warm_up_to_compute(tmp_path, monkeypatch, no_table) -> None:
    assert odds_reroll_table.load(3, tmp_path / "none.txt") == 0
    monkeypatch.setattr(odds_reroll_table, "FILE", tmp_path / "none.txt")
    held = odds_rerolls.warm(1)
    assert held == odds_reroll_table.size() > 0
    assert not odds_reroll_table._FILE


@pytest.mark.parametrize("rerolls", [1, 2, 3])
@pytest.mark.parametrize("sixes", [False, True])
def test_same_weights_as_before_on_a_grid_from_the_file(
    rerolls: int, sixes: bool, file_loaded
) -> None:
    """test_odds_table's grid (1-31 dice, determination, focus and guarantees around the
    clamps and the largest) against main's module, every state from the file."""
    test_odds_table.test_same_weights_as_before_on_a_grid(rerolls, sixes)
    assert _computed() == 0


@pytest.mark.parametrize("rerolls", [1, 2, 3])
@pytest.mark.parametrize("sixes", [False, True])
def test_same_as_general_search_from_the_file(rerolls: int, sixes: bool, file_loaded) -> None:
    """test_odds_fast's grid (small pools with boons, banes and large focus and
    guarantees) against the general search, every state from the file."""
    test_odds_fast.test_with_rerolls_same_as_general_search(rerolls, sixes)
    assert _computed() == 0


@settings(max_examples=60, deadline=None)
@given(spec=pools(1, ODDS_MAX_REROLLS), sixes=st.booleans())
def test_random_pools_from_the_file_same_as_general_search(spec: PoolSpec, sixes: bool) -> None:
    if not odds_reroll_table._FILE:
        odds_reroll_table.clear()
        odds_rerolls.warm(ODDS_MAX_REROLLS)
    test_odds_fast._same(spec, sixes)
    assert _computed() == 0


def test_clash_with_rerolls_from_the_file(monkeypatch, file_loaded) -> None:
    test_odds_fast.test_clash_with_rerolls_unchanged(monkeypatch)
    a = PoolSpec(base=30, determination=True, focus=5, guaranteed=3, rerolls=3)
    b = PoolSpec(base=30, focus=5, guaranteed=3, rerolls=3)
    clash_odds.cache_clear()
    _raw.cache_clear()
    from_file = clash_odds(a, b, attack=False)
    assert _computed() == 0
    odds_reroll_table.clear()
    clash_odds.cache_clear()
    _raw.cache_clear()
    assert clash_odds(a, b, attack=False) == from_file
    assert _computed() > 0
    clash_odds.cache_clear()
    _raw.cache_clear()


def test_a_full_table_never_drops_the_file(monkeypatch, file_loaded) -> None:
    """Queries past the file (4 rerolls) fill the computed tables and empty them when
    full; the file's states stay, and every answer is the roomy table's."""
    spec = PoolSpec(base=9, determination=True, focus=2, guaranteed=1, rerolls=4)
    expected = test_odds_table._fast(spec, True)
    held = dict(odds_reroll_table._FILE)
    odds_reroll_table._clear_computed()
    monkeypatch.setattr(odds_reroll_table, "MAX_STATES", 300)
    assert test_odds_table._fast(spec, True) == expected
    assert len(odds_reroll_table._FUTURES) < 300
    assert odds_reroll_table._FILE == held


def test_the_bot_warms_up_from_the_file() -> None:
    """The bot's warm-up reads every state /odds can start from."""
    assert odds_warm_up.WARM_REROLLS == ODDS_MAX_REROLLS == odds_table_build.FILE_REROLLS
