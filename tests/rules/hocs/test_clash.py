"""Clashes: successes, ties on 6s, attacker wins ties, repeats, zero dice."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.clash import MAX_ROUNDS, ClashDecision, ClashResult, ClashSide, resolve_clash
from bot.rules.hocs.pool import PoolSpec

TWO = PoolSpec(base=2)


def test_more_successes_wins_with_advantage_by_two() -> None:
    # A rolls 5, 6, 4 (3 successes); B rolls 1, 4 (1 success).
    clash = resolve_clash(PoolSpec(base=3), TWO, dice=ScriptedDice([5, 6, 4, 1, 4]))
    assert clash.winner is ClashSide.A and clash.decided_by is ClashDecision.SUCCESSES
    assert clash.margin == 2 and clash.advantage
    assert len(clash.rounds) == 1


def test_win_by_one_has_no_advantage() -> None:
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([5, 1, 1, 1]))
    assert clash.winner is ClashSide.A and not clash.advantage


def test_tie_goes_to_more_sixes() -> None:
    # Both 1 success; B's is a 6.
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([5, 1, 6, 2]))
    assert clash.winner is ClashSide.B and clash.decided_by is ClashDecision.SIXES
    assert not clash.advantage


def test_attacker_wins_ties_even_with_fewer_sixes() -> None:
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([5, 1, 6, 2]), attack=True)
    assert clash.winner is ClashSide.A
    assert clash.decided_by is ClashDecision.ATTACKER_WINS_TIE


def test_no_successes_on_both_sides_repeats_and_records_rounds() -> None:
    faces = [1, 2, 3, 1, 2, 2, 1, 1, 4, 1, 1, 1]  # rounds of A, A, B, B
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice(faces), attack=True)
    assert len(clash.rounds) == 3
    assert [r.a.successes + r.b.successes for r in clash.rounds] == [0, 0, 1]
    assert clash.winner is ClashSide.A


def test_full_tie_outside_attacks_repeats() -> None:
    faces = [5, 1, 5, 1, 1, 1, 4, 1]  # a full tie, then B wins
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice(faces))
    assert len(clash.rounds) == 2 and clash.winner is ClashSide.B


def test_round_limit_gives_standoff() -> None:
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([1] * 4 * MAX_ROUNDS))
    assert clash.standoff and clash.decided_by is ClashDecision.ROUND_LIMIT
    assert len(clash.rounds) == MAX_ROUNDS and clash.margin == 0


def test_both_pools_empty() -> None:
    empty = PoolSpec(base=1, banes=2)
    attack = resolve_clash(empty, empty, dice=ScriptedDice([]), attack=True)
    assert attack.winner is ClashSide.A and attack.decided_by is ClashDecision.NO_DICE
    assert attack.final.a.zero_dice and len(attack.rounds) == 1
    contest = resolve_clash(empty, empty, dice=ScriptedDice([]))
    assert contest.standoff and contest.decided_by is ClashDecision.NO_DICE


def test_one_empty_pool_scores_zero_and_repeats_until_a_success() -> None:
    empty = PoolSpec(base=0)
    clash = resolve_clash(empty, TWO, dice=ScriptedDice([1, 1, 6, 1]), attack=True)
    assert len(clash.rounds) == 2 and clash.winner is ClashSide.B
    assert clash.final.a.successes == 0 and clash.final.a.zero_dice


def test_determination_explosion_in_clash() -> None:
    a = PoolSpec(base=1, determination=True)
    clash = resolve_clash(a, TWO, dice=ScriptedDice([1, 6, 6, 2, 4, 4]))
    assert clash.final.a.successes == 2 and clash.final.a.sixes == 2
    assert clash.decided_by is ClashDecision.SIXES
    assert clash.winner is ClashSide.A  # tie 2–2, A has two 6s


@pytest.mark.parametrize("limit", [0, 21, True])
def test_bad_round_limit(limit: int) -> None:
    with pytest.raises(RulesError):
        resolve_clash(TWO, TWO, dice=ScriptedDice([]), max_rounds=limit)


def test_clash_round_trip() -> None:
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([1, 1, 1, 1, 5, 1, 6, 2]))
    assert ClashResult.from_dict(clash.to_dict()) == clash
