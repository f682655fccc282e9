"""The post-roll policy against exhaustive search: the proof that it is optimal.

For every pool of up to four dice (with and without a determination die, whose
6 may come with a chain that added a success or fizzled), every face on every
die and every combination of talent rerolls, focus and guaranteed successes from
0 to the number of dice (more of any of them is worth no more: one of each per
die), the policy's expected (successes, 6s) equals the best any strategy can
get. The exhaustive search below knows none of the policy's shortcuts: at each
step it tries every die that may still be rerolled (successes and 6s too) and
stopping, and it settles focus and guarantees by trying every assignment.
Values are exact fractions, so "equal" means equal.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.policy import (
    CHAIN_VALUE,
    Position,
    expected_after_reroll,
    expected_value,
    next_talent_reroll,
    settle,
)
from bot.rules.hocs.pool import DieOrigin, PoolSpec, RerollSource
from bot.rules.hocs.rolling import best_single_reroll_index, roll_pool

Value = tuple[Fraction, Fraction]


def _add(a: Value, b: Value) -> Value:
    return a[0] + b[0], a[1] + b[1]


ZERO: Value = (Fraction(0), Fraction(0))
# Values at a node with r rerolls left are exact integers over 5·6^r (the 5 for the
# chain's 3/5), which keeps this search fast enough to run on every pool.
Scaled = tuple[int, int]
# What a determination die's chain is worth: nothing, one success (a 4 or 5 after the
# 6), the expectation of a fresh chain, or of one known not to have fizzled.
CHAINS: dict[str, Value] = {
    "none": ZERO,
    "one": (Fraction(1), Fraction(0)),
    "fresh": CHAIN_VALUE,
    "live": (Fraction(6, 5), Fraction(2, 5)),
}


def _unit(rerolls: int) -> int:
    return 5 * 6**rerolls


def _scaled(value: Value, rerolls: int) -> Scaled:
    s, x = value[0] * _unit(rerolls), value[1] * _unit(rerolls)
    assert s.denominator == 1 and x.denominator == 1
    return int(s), int(x)


def _unscaled(value: Scaled, rerolls: int) -> Value:
    return Fraction(value[0], _unit(rerolls)), Fraction(value[1], _unit(rerolls))


@cache
def brute_settle(faces: tuple[int, ...], focus: int, guaranteed: int) -> tuple[int, int]:
    """Best (successes, 6s) over every way to place focus and guarantees (one per die)."""
    best = (0, 0)
    for choice in itertools.product((None, "focus", "guaranteed"), repeat=len(faces)):
        if choice.count("focus") > focus or choice.count("guaranteed") > guaranteed:
            continue
        finals = [
            4 if c == "guaranteed" else face + (c == "focus")
            for face, c in zip(faces, choice, strict=True)
        ]
        best = max(best, (sum(f >= 4 for f in finals), sum(f == 6 for f in finals)))
    return best


@cache
def _final(settled: tuple[int, int], chain: str, rerolls: int) -> Scaled:
    extra = _scaled(CHAINS[chain], rerolls)
    unit = _unit(rerolls)
    return settled[0] * unit + extra[0], settled[1] * unit + extra[1]


@cache
def _rerolled(
    faces: tuple[int, ...], free: tuple[bool, ...], det: int | None, i: int, face: int
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The dice after die ``i`` is rerolled to ``face``, ordinary dice put in a canonical
    order (they are interchangeable; the determination die stays last) to share work."""
    faces = (*faces[:i], face, *faces[i + 1 :])
    free = (*free[:i], False, *free[i + 1 :])
    plain = len(faces) - (det is not None)
    ordered = sorted(zip(faces[:plain], free[:plain], strict=True))
    return (
        tuple(f for f, _ in ordered) + faces[plain:],
        tuple(r for _, r in ordered) + free[plain:],
    )


@cache
def optimum(
    faces: tuple[int, ...],
    free: tuple[bool, ...],
    det: int | None,
    chain: str,
    rerolls: int,
    focus: int,
    guaranteed: int,
) -> Scaled:
    """Exhaustive expectimax: stop, or reroll any die that has not had its talent reroll."""
    best = _final(brute_settle(faces, focus, guaranteed), chain, rerolls)
    if rerolls == 0:
        return best
    for i in range(len(faces)):
        if free[i]:
            best = max(
                best, _expect(optimum, faces, free, det, chain, i, rerolls, focus, guaranteed)
            )
    return best


def _expect(
    solve: object,
    faces: tuple[int, ...],
    free: tuple[bool, ...],
    det: int | None,
    chain: str,
    i: int,
    rerolls: int,
    focus: int,
    guaranteed: int,
) -> Scaled:
    total_s = total_x = 0
    for face in range(1, 7):
        new_faces, new_free = _rerolled(faces, free, det, i, face)
        new_chain = chain
        if i == det:
            # The old chain goes with the old face; a new 6 explodes. Its chain is worth
            # its expectation: the die is spent, nothing decided later can touch it.
            new_chain = "fresh" if face == 6 else "none"
        s, x = solve(new_faces, new_free, det, new_chain, rerolls - 1, focus, guaranteed)  # type: ignore[operator]
        total_s += s
        total_x += x
    return total_s, total_x


def _position(
    faces: tuple[int, ...],
    free: tuple[bool, ...],
    det: int | None,
    chain: str,
    rerolls: int,
    focus: int,
    guaranteed: int,
) -> Position:
    # The policy is told the chain's successes and 6s; once a die is spent any stand-in
    # with the same "did it add a success" answer will do.
    return Position(
        faces=faces,
        rerollable=free,
        determination=det,
        chain=(0, 0) if chain == "none" else (1, 0),
        rerolls=rerolls,
        focus=focus,
        guaranteed=guaranteed,
    )


@cache
def policy_value(
    faces: tuple[int, ...],
    free: tuple[bool, ...],
    det: int | None,
    chain: str,
    rerolls: int,
    focus: int,
    guaranteed: int,
) -> Scaled:
    """What following the policy earns: its reroll choices, then its settle()."""
    choice = next_talent_reroll(_position(faces, free, det, chain, rerolls, focus, guaranteed))
    if choice is None:
        focused, sure = settle(faces, focus=focus, guaranteed=guaranteed)
        assert len(focused) <= focus and len(sure) <= guaranteed and not focused & sure
        finals = [4 if i in sure else face + (i in focused) for i, face in enumerate(faces)]
        settled = (sum(f >= 4 for f in finals), sum(f == 6 for f in finals))
        return _final(settled, chain, rerolls)
    assert free[choice], "the policy rerolled a die twice"
    return _expect(policy_value, faces, free, det, chain, choice, rerolls, focus, guaranteed)


def _roots(n: int) -> list[tuple[tuple[int, ...], int | None, str]]:
    """Every multiset of ordinary faces, with no determination die or one of every face."""
    roots: list[tuple[tuple[int, ...], int | None, str]] = []
    for plain in itertools.combinations_with_replacement(range(1, 7), n):
        roots.append((plain, None, "none"))
    for plain in itertools.combinations_with_replacement(range(1, 7), n - 1) if n else ():
        for face in range(1, 7):
            # A determination 6 comes with a chain: one that fizzled (worth nothing) or one
            # that added a success (a 4 or 5 after it).
            for chain in ("none", "one") if face == 6 else ("none",):
                roots.append(((*plain, face), n - 1, chain))
    return roots


# One test per pool size and focus: no search state is shared between two focus values
# (focus stays fixed down every branch), so the parts run in parallel without one
# redoing another's work, and together they cover every combination as before.
@pytest.mark.parametrize(("n", "focus"), [(n, f) for n in range(5) for f in range(n + 1)])
def test_policy_matches_exhaustive_search(n: int, focus: int) -> None:
    checked = 0
    for faces, det, chain in _roots(n):
        free = (True,) * n
        for rerolls, guaranteed in itertools.product(range(n + 1), repeat=2):
            args = (faces, free, det, chain, rerolls, focus, guaranteed)
            best = optimum(*args)
            assert policy_value(*args) == best, args
            assert expected_value(_position(*args)) == _unscaled(best, rerolls), args
            checked += 1
    assert checked == len(_roots(n)) * (n + 1) ** 2


def test_policy_matches_exhaustive_search_after_some_talent_rerolls() -> None:
    # Hero and fortune rerolls leave dice that already had their talent reroll.
    for faces in itertools.product(range(1, 7), repeat=3):
        for free in itertools.product((True, False), repeat=3):
            for det in (None, 2):
                for rerolls, focus, guaranteed in itertools.product(range(3), repeat=3):
                    args = (faces, free, det, "none", rerolls, focus, guaranteed)
                    assert policy_value(*args) == optimum(*args), args


def test_fortune_choice_matches_exhaustive_search() -> None:
    free = (True,) * 3
    for faces in itertools.product(range(1, 7), repeat=3):
        for det in (None, 2):
            for rerolls, focus, guaranteed in itertools.product(range(2), repeat=3):
                mods = (rerolls, focus, guaranteed)
                pos = _position(faces, free, det, "none", *mods)
                for i in range(3):
                    total = ZERO
                    for face in range(1, 7):
                        new_faces = (*faces[:i], face, *faces[i + 1 :])
                        if i == det and face == 6:
                            # The new chain is seen before any talent reroll: half the time
                            # it fizzles (worth nothing), else it is worth 6/5 and 2/5 on
                            # average and never worth losing.
                            dead = _unscaled(optimum(new_faces, free, det, "none", *mods), rerolls)
                            live = _unscaled(optimum(new_faces, free, det, "live", *mods), rerolls)
                            value = ((dead[0] + live[0]) / 2, (dead[1] + live[1]) / 2)
                        else:
                            value = _unscaled(optimum(new_faces, free, det, "none", *mods), rerolls)
                        total = _add(total, value)
                    assert expected_after_reroll(pos, i) == (total[0] / 6, total[1] / 6)


# The two defects the issue names, through the real roll.


def test_equal_failures_reroll_the_determination_die_first() -> None:
    # A 2 on an ordinary die and a 2 on the determination die, one reroll: only the
    # determination die can explode, so it takes the reroll.
    result = roll_pool(PoolSpec(base=1, determination=True, rerolls=1), ScriptedDice([2, 2, 5]))
    assert result.dice[1].origin is DieOrigin.DETERMINATION
    assert [d.rolled_face for d in result.dice] == [2, 5]
    assert result.dice[1].talent_rerolled and not result.dice[0].rerolls


def test_a_reroll_that_turns_up_a_three_after_focus_is_spent_is_not_wasted() -> None:
    # 1 and 3 with one focus and two rerolls: the 1 is rerolled and shows 3. The focus
    # can fix only one of the two 3s, so the second reroll goes to the other 3 (a 5).
    result = roll_pool(PoolSpec(base=2, rerolls=2, focus=1), ScriptedDice([1, 3, 3, 5]))
    assert [d.rolled_face for d in result.dice] == [3, 5]
    assert [d.talent_rerolled for d in result.dice] == [True, True]
    assert result.dice[0].focus and result.successes == 2 and result.unused_rerolls == 0


def test_a_three_the_focus_fixes_keeps_its_reroll() -> None:
    result = roll_pool(PoolSpec(base=1, rerolls=1, focus=1), ScriptedDice([3]))
    assert result.dice[0].rerolls == () and result.dice[0].focus and result.unused_rerolls == 1


def test_spare_guarantee_makes_a_determination_four_worth_a_reroll() -> None:
    # A 4 on the determination die, one reroll, one guaranteed success with nothing to
    # fix: a reroll cannot lose the success (a 1-3 takes the guarantee) and a 6 explodes.
    result = roll_pool(
        PoolSpec(base=0, determination=True, rerolls=1, guaranteed=1), ScriptedDice([4, 6, 5])
    )
    die = result.dice[0]
    assert die.rerolls[0].source is RerollSource.TALENT and die.explosions == (5,)
    assert result.successes == 2


def test_guarantee_takes_the_three_so_focus_can_make_a_six() -> None:
    # 3 and 5, one focus, one guarantee: guarantee the 3, focus the 5: two successes and
    # a 6 (the 6 breaks clash ties), rather than focus on the 3 and an idle guarantee.
    result = roll_pool(PoolSpec(base=2, focus=1, guaranteed=1), ScriptedDice([3, 5]))
    assert [d.final_face for d in result.dice] == [4, 6]
    assert result.dice[0].guaranteed and result.dice[1].focus
    assert (result.successes, result.sixes) == (2, 1)


def test_fortune_reroll_prefers_the_determination_die_on_equal_faces() -> None:
    result = roll_pool(PoolSpec(base=1, determination=True), ScriptedDice([2, 2]))
    assert best_single_reroll_index(result) == 1


def test_the_largest_pool_is_decided_exactly() -> None:
    # 30 dice and the boon die, the most talent rerolls a roll may have, every focus and
    # guarantee: the search still answers (its cost is what MAX_REROLLS bounds), and a
    # roll of all 1s rerolls as many dice as it may.
    spec = PoolSpec(base=30, boons=1, determination=True, rerolls=10, focus=30, guaranteed=2)
    result = roll_pool(spec, ScriptedDice([1] * 31 + [2] * 10))
    assert result.unused_rerolls == 0 and sum(d.talent_rerolled for d in result.dice) == 10
    assert result.dice[-1].talent_rerolled  # the determination die first: only it explodes


def test_larger_pools_match_exhaustive_search_on_a_fixed_sample() -> None:
    # Five and six dice (beyond the full sweep), a fixed sample so the run is repeatable.
    rng = random.Random(20261130)
    for _ in range(40):
        n = rng.choice((5, 6))
        det = rng.choice((None, n - 1))
        faces = tuple(sorted(rng.randint(1, 6) for _ in range(n - (det is not None))))
        if det is not None:
            faces = (*faces, rng.randint(1, 5))
        args = (faces, (True,) * n, det, "none", rng.randint(1, 3), rng.randint(0, 3))
        args = (*args, rng.randint(0, 2))
        assert policy_value(*args) == optimum(*args), args
