"""HOCS luck: every kind's percentile against brute-force enumeration of the dice.

The oracles below enumerate faces with itertools.product and never call the bot's
odds code; the rows are built by the bot's own rolling code (as the commands do).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.clash import MAX_ROUNDS, resolve_clash
from bot.rules.hocs.luck import OPPONENT, ROLLER, SNAPSHOT_KEY, first_throw, parts, percentile
from bot.rules.hocs.luck_ladders import pool_ladder, spec_tuple
from bot.rules.hocs.many_dice import resolve_choice, roll_one_result
from bot.rules.hocs.many_dice import roll_pool as roll_faces
from bot.rules.hocs.pool import PoolSpec, RerollSource
from bot.rules.hocs.rolling import reroll_dice, roll_pool

HALF = Fraction(1, 2)
D6 = range(1, 7)


def pct(dist: dict, value: object, rank=lambda v: v) -> Fraction:
    """P(worse) + ½ P(same), straight from the definition."""
    mine = rank(value)
    worse = sum((p for v, p in dist.items() if rank(v) < mine), Fraction(0))
    same = sum((p for v, p in dist.items() if rank(v) == mine), Fraction(0))
    return worse + same / 2


def variance(dist: dict, rank=lambda v: v) -> Fraction:
    return sum(p * (pct(dist, v, rank) - HALF) ** 2 for v, p in dist.items())


def _best_successes(faces: tuple[int, ...], focus: int, guaranteed: int) -> int:
    """Most successes over every way of placing focus (+1) and guarantees (a 4)."""
    best = 0
    n = len(faces)
    for f in range(min(focus, n) + 1):
        for focused in combinations(range(n), f):
            rest = [i for i in range(n) if i not in focused]
            for g in range(min(guaranteed, len(rest)) + 1):
                for sure in combinations(rest, g):
                    shown = [
                        4 if i in sure else faces[i] + (1 if i in focused else 0) for i in range(n)
                    ]
                    best = max(best, sum(1 for x in shown if x >= 4))
    return best


def pool_oracle(dice: int, *, focus: int = 0, guaranteed: int = 0, rerolls: int = 0) -> dict:
    """Successes of ``dice`` plain d6s; a talent reroll takes a failed die (the only
    reroll that adds expected successes), once per die, up to ``rerolls`` of them."""
    assert not (rerolls and (focus or guaranteed))
    counts: Counter[int] = Counter()
    for faces in product(D6, repeat=dice):
        failed = [i for i, x in enumerate(faces) if x < 4]
        again = failed[:rerolls]
        for new in product(D6, repeat=len(again)):
            shown = list(faces)
            for i, x in zip(again, new, strict=True):
                shown[i] = x
            weight = 6 ** (rerolls - len(again))  # the same denominator for every branch
            counts[_best_successes(tuple(shown), focus, guaranteed)] += weight
    total = sum(counts.values())
    return {k: Fraction(c, total) for k, c in counts.items()}


def pool_row(spec: PoolSpec, faces: list[int]) -> dict:
    return {"roll": roll_pool(spec, ScriptedDice(faces)).to_dict(), "difficulty": None}


@pytest.mark.parametrize(
    ("spec", "faces", "oracle"),
    [
        (PoolSpec(base=3), [1, 4, 6], pool_oracle(3)),
        (PoolSpec(base=3, focus=1), [3, 4, 6], pool_oracle(3, focus=1)),
        (PoolSpec(base=4, banes=2), [2, 5, 5], pool_oracle(3)),  # 2 banes: −1d6
        (PoolSpec(base=3, boons=1, guaranteed=1), [1, 1, 3, 2], pool_oracle(4, guaranteed=1)),
        (PoolSpec(base=2, focus=2, guaranteed=1), [3, 1], pool_oracle(2, focus=2, guaranteed=1)),
        (PoolSpec(base=3, rerolls=1), [1, 2, 6, 4], pool_oracle(3, rerolls=1)),
        (PoolSpec(base=3, rerolls=2), [1, 2, 6, 5, 3], pool_oracle(3, rerolls=2)),
    ],
)
def test_pool_percentiles_against_brute_force(spec: PoolSpec, faces: list[int], oracle) -> None:
    row = pool_row(spec, faces)
    successes = row["roll"]["successes"]
    [part] = parts("pool", row)
    assert (part.what, part.whose) == ("roll", ROLLER)
    assert part.scored.value == successes
    assert part.scored.percentile == pct(oracle, successes)
    assert part.scored.variance == variance(oracle)
    assert percentile("check", row) == part.scored


def test_an_empty_pool_is_certain() -> None:
    scored = percentile("pool", pool_row(PoolSpec(base=2, banes=6), []))
    assert scored is not None and (scored.percentile, scored.variance) == (HALF, 0)


def test_the_determination_die_s_chain_is_in_the_odds() -> None:
    # 1 base die + the exploding boon: 6, 6, 2 on the boon → 2 successes from it, 3 in all.
    row = pool_row(PoolSpec(base=1, determination=True), [4, 6, 6, 2])
    assert row["roll"]["successes"] == 3
    scored = percentile("pool", row)
    # Independent: the base die is a coin (½ a success); the boon die adds 0 successes
    # with chance ½ (a 1–3 first), else j ≥ 1 (``_chain``), summed far past any doubt.
    boon = {0: HALF, **{j: _chain(j) for j in range(1, 60)}}
    total: dict[int, Fraction] = {}
    for base, pb in ((0, HALF), (1, HALF)):
        for j, pj in boon.items():
            total[base + j] = total.get(base + j, Fraction(0)) + pb * pj
    assert scored is not None
    # Beyond the odds' cap (13) successes tie; 3 is far below it, so exact up to 6^-57.
    assert abs(scored.percentile - pct(total, 3)) < Fraction(1, 10**40)


def _chain(j: int) -> Fraction:
    """P(the determination die adds exactly j ≥ 1 successes)."""
    sixes_then_four_five = Fraction(1, 6) ** (j - 1) * Fraction(2, 6)
    sixes_then_fail = Fraction(1, 6) ** j * Fraction(3, 6)
    return sixes_then_four_five + sixes_then_fail


def clash_oracle(a: int, b: int, *, attack: bool) -> dict[str, Fraction]:
    """A clash of two plain pools, every round's faces enumerated, repeats summed."""
    counts: Counter[str] = Counter()
    for faces in product(D6, repeat=a + b):
        fa, fb = faces[:a], faces[a:]
        sa, sb = sum(x >= 4 for x in fa), sum(x >= 4 for x in fb)
        xa, xb = fa.count(6), fb.count(6)
        if sa == sb == 0 or (sa == sb and not attack and xa == xb):
            counts["again"] += 1
            continue
        a_wins = sa > sb or (sa == sb and (attack or xa > xb))
        side = "a" if a_wins else "b"
        counts[f"{side}_{'advantage' if abs(sa - sb) >= 2 else 'wins'}"] += 1
    n = 6 ** (a + b)
    q = Fraction(counts.pop("again", 0), n)
    series = (1 - q**MAX_ROUNDS) / (1 - q)
    dist = {k: Fraction(c, n) * series for k, c in counts.items()}
    dist["standoff"] = q**MAX_ROUNDS
    return dist


ORDER = ["b_advantage", "b_wins", "standoff", "a_wins", "a_advantage"].index


@pytest.mark.parametrize(
    ("a", "b", "attack", "faces"),
    [
        (2, 2, False, [6, 4, 5, 1]),  # 2 vs 1: A wins by 1
        (2, 2, False, [1, 2, 5, 6]),  # 0 vs 2: B wins with advantage
        (2, 1, True, [1, 2, 3, 4, 1, 1]),  # a repeat, then the attacker wins the 1–1 tie
        (1, 2, False, [6, 6, 1, 5, 2, 4]),  # two deadlocks (1–1, 6s equal), then B wins 2–1
    ],
)
def test_clash_outcomes_against_brute_force(a: int, b: int, attack: bool, faces: list[int]) -> None:
    dice = ScriptedDice(faces + [4] * 40)  # spare faces for repeated rounds
    clash = resolve_clash(PoolSpec(base=a), PoolSpec(base=b), dice=dice, attack=attack)
    row = {"clash": clash.to_dict()}
    oracle = clash_oracle(a, b, attack=attack)
    mine, theirs = parts("clash", row)
    outcome = mine.scored.value
    assert (mine.whose, theirs.whose) == (ROLLER, OPPONENT)
    assert mine.scored.percentile == pct(oracle, outcome, ORDER)
    assert theirs.scored.percentile == 1 - mine.scored.percentile
    assert mine.scored.variance == theirs.scored.variance == variance(oracle, ORDER)


def test_a_clash_outcome_names_the_winner_and_the_advantage() -> None:
    clash = resolve_clash(PoolSpec(base=2), PoolSpec(base=2), dice=ScriptedDice([1, 2, 5, 6]))
    assert first_throw("clash", {"clash": clash.to_dict()})["clash"] == {
        "a": [2, 0, 0, 0, 0, 0, 0],
        "b": [2, 0, 0, 0, 0, 0, 0],
        "attack": False,
        "outcome": "b_advantage",
    }


def test_a_hero_reroll_is_scored_on_the_first_throw() -> None:
    spec = PoolSpec(base=3)
    first = roll_pool(spec, ScriptedDice([1, 2, 4]))
    row = {"roll": first.to_dict()}
    row[SNAPSHOT_KEY] = first_throw("pool", row)
    rerolled = reroll_dice(first, [0, 1], ScriptedDice([6, 6]), source=RerollSource.HERO)
    changed = {**row, "roll": rerolled.to_dict(), "revision": 1}  # as a spend rewrites it
    assert changed["roll"]["successes"] == 3
    scored = percentile("pool", changed)
    assert scored is not None and scored.value == 1
    assert scored.percentile == pct(pool_oracle(3), 1)
    # A row logged before the snapshot existed, changed since: counted, not scored.
    old = {"roll": rerolled.to_dict(), "revision": 1}
    assert percentile("pool", old) is None and parts("pool", old) == ()
    # A fortune reroll and a determination point after the roll are changes too.
    fortune = reroll_dice(first, [0], ScriptedDice([5]), source=RerollSource.FORTUNE)
    assert percentile("pool", {"roll": fortune.to_dict()}) is None


def damage_oracle(sizes: tuple[int, ...], bonus: int = 0) -> dict[int, Fraction]:
    """Many dice, one result: keep the die with the best expected total (a 10 counts its
    explosions' worth), earliest on a tie; +1 per other die at its maximum; a kept 10
    rolls on while it shows 10, at most 50 more dice."""
    n = 1
    for s in sizes:
        n *= s
    dist: dict[int, Fraction] = {}

    def add(amount: int, p: Fraction) -> None:
        amount = max(0, amount)
        dist[amount] = dist.get(amount, Fraction(0)) + p

    for faces in product(*(range(1, s + 1) for s in sizes)):
        at_max = [f == s for f, s in zip(faces, sizes, strict=True)]

        def worth(i: int, faces=faces, at_max=at_max) -> Fraction:
            s, f = sizes[i], faces[i]
            extra = Fraction(s + 1, 2) / (1 - Fraction(1, s)) if s >= 10 and f == 10 else 0
            return f + extra + sum(at_max) - at_max[i]

        kept = max(range(len(sizes)), key=lambda i: (worth(i), -i))
        base = faces[kept] + sum(at_max) - at_max[kept] + bonus
        p = Fraction(1, n)
        s = sizes[kept]
        if not (s >= 10 and faces[kept] == 10):
            add(base, p)
            continue
        for tens in range(49):  # ``tens`` more 10s, then a face that stops the chain
            for f in range(1, s + 1):
                if f != 10:
                    add(base + 10 * tens + f, p * Fraction(1, s) ** (tens + 1))
        for f in range(1, s + 1):  # 49 tens, then the 50th die, whatever it shows
            add(base + 490 + f, p * Fraction(1, s) ** 50)
    return dist


def damage_row(sizes: tuple[int, ...], faces: list[int], bonus: int = 0) -> dict:
    result = roll_one_result(sizes, ScriptedDice(faces))
    amount = max(0, result.total + bonus)
    return {
        "target": None,
        "damage": {"inputs": {}, "kept": result.to_dict(), "bonus": bonus, "amount": amount},
        "hit": None,
    }


@pytest.mark.parametrize(
    ("sizes", "faces", "bonus"),
    [
        ((8, 6, 6), [4, 6, 6], 0),  # a 6 kept, +1 for the other 6: 7
        ((10, 8), [10, 3, 10, 2], 0),  # the d10 explodes twice: 10 + 10 + 2
        ((12, 4), [10, 4, 7], 2),  # a d12 showing 10 explodes too
        ((6,), [2], -5),  # never below 0
    ],
)
def test_damage_against_brute_force(sizes: tuple[int, ...], faces: list[int], bonus: int) -> None:
    row = damage_row(sizes, faces, bonus)
    oracle = damage_oracle(sizes, bonus)
    [part] = parts("damage", row)
    assert (part.what, part.whose) == ("damage", ROLLER)
    assert part.scored.value == row["damage"]["amount"]
    assert part.scored.percentile == pct(oracle, row["damage"]["amount"])
    assert part.scored.variance == variance(oracle)


def test_a_die_kept_by_the_player_or_hero_rerolled_is_not_scored() -> None:
    rolled = roll_faces((8, 6), ScriptedDice([7, 2]))
    kept = resolve_choice(rolled, 1, ScriptedDice([]))  # the 2, not the bot's 7
    row = {"damage": {"kept": kept.to_dict(), "bonus": 0, "amount": 2}, "hit": None}
    assert parts("damage", row) == ()
    best = damage_row((8, 6), [7, 2])
    assert parts("damage", {**best, "changes": [{"hero_reroll": [1]}]}) == ()
    assert len(parts("damage", {**best, "changes": [{"kept": 0}]})) == 1
    # With the first throw kept at logging, a later hero reroll changes nothing.
    logged = {**best, SNAPSHOT_KEY: first_throw("damage", best)}
    rerolled = damage_row((8, 6), [3, 2])
    changed = {**logged, "damage": rerolled["damage"], "changes": [{"hero_reroll": [0]}]}
    [part] = parts("damage", changed)
    assert part.scored.value == 7
    assert part.scored.percentile == pct(damage_oracle((8, 6)), 7)


def test_hero_damage_is_2d6() -> None:
    two_d6 = Counter(a + b for a, b in product(D6, repeat=2))
    oracle = {t: Fraction(c, 36) for t, c in two_d6.items()}
    for faces in ([2, 3], [6, 6], [1, 1]):
        scored = percentile("hero_damage", {"faces": faces, "total": sum(faces)})
        assert scored is not None and scored.percentile == pct(oracle, sum(faces))
        assert scored.variance == variance(oracle)
    assert percentile("hero_damage", {"faces": [7, 1]}) is None
    assert percentile("hero_damage", {}) is None


def test_unknown_kinds_and_damaged_rows_are_not_scored() -> None:
    assert parts("initiative", {"roll": {}}) == ()
    assert parts("pool", {}) == ()
    assert parts("pool", {"roll": {"version": 1, "spec": {"base": "x"}, "dice": []}}) == ()
    assert parts("clash", {"clash": {"rounds": []}}) == ()
    assert parts("attack", {"attack": {"mode": "defenseless melee"}}) == ()


specs = st.builds(
    PoolSpec,
    base=st.integers(min_value=0, max_value=5),
    boons=st.integers(min_value=0, max_value=2),
    banes=st.integers(min_value=0, max_value=3),
    determination=st.booleans(),
    focus=st.integers(min_value=0, max_value=2),
    rerolls=st.integers(min_value=0, max_value=1),
    guaranteed=st.integers(min_value=0, max_value=1),
)


@settings(max_examples=40, deadline=None)
@given(specs)
def test_every_pool_s_mean_percentile_is_one_half(spec: PoolSpec) -> None:
    ladder, cap = pool_ladder(spec_tuple(spec.to_dict()))
    chances = [Fraction(w, ladder.den) for w in ladder.ways]
    scores = [ladder.score(rank).percentile for rank in ladder.ranks]
    assert all(0 <= u <= 1 for u in scores)
    assert sum(p * u for p, u in zip(chances, scores, strict=True)) == HALF
    brute = sum(p * (u - HALF) ** 2 for p, u in zip(chances, scores, strict=True))
    assert ladder.variance == brute
    assert cap >= 13
