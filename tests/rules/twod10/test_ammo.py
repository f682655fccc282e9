"""Ammo points: spent on a kept 1, quivers, scavenging; never below zero."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.ammo import (
    AmmoState,
    after_attack,
    after_ranged_attack,
    restock,
    scavenge,
    scavenge_chance,
    uses_ammo,
)
from bot.rules.twod10.attack import AttackerStats, Situation, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.tasks import Edge, roll_d10s
from bot.rules.twod10.wielding import wield


def d10s(faces: list[int], edge: Edge = Edge.NONE):  # type: ignore[no-untyped-def]
    return roll_d10s(edge, ScriptedDice(faces))


@pytest.mark.parametrize(
    ("faces", "edge", "spent"),
    [
        ([1, 7], Edge.NONE, 1),
        ([7, 1], Edge.NONE, 1),
        ([1, 1], Edge.NONE, 1),  # one point per attack
        ([3, 7], Edge.NONE, 0),
        ([1, 5, 6], Edge.ADVANTAGE, 0),  # the dropped 1 doesn't count
        ([1, 5, 6], Edge.DISADVANTAGE, 1),
    ],
)
def test_a_kept_one_spends_a_point(faces: list[int], edge: Edge, spent: int) -> None:
    result = after_ranged_attack(AmmoState(points=2, quivers=1), d10s(faces, edge))
    assert result.spent == spent and result.after.spent == spent


def test_no_ammo_no_shot() -> None:
    last = after_ranged_attack(AmmoState(points=1, quivers=1), d10s([1, 4])).after
    assert last.points == 0
    with pytest.raises(RulesError, match="no ammo points"):
        after_ranged_attack(last, d10s([5, 5]))


def test_quivers_hold_two_and_weigh_one() -> None:
    state = AmmoState(points=4, quivers=2)
    assert state.capacity == 4 and state.weight == 2
    with pytest.raises(RulesError, match="0 to 2"):
        AmmoState(points=3, quivers=1)
    with pytest.raises(RulesError, match="room for 1") as many:
        restock(AmmoState(points=3, quivers=2), points=2)
    assert str(many.value) == "Your 2 quivers hold 4 ammo points; there is room for 1."
    with pytest.raises(RulesError) as one:
        restock(AmmoState(points=2, quivers=1), points=1)
    assert str(one.value) == "Your 1 quiver holds 2 ammo points; there is room for 0."
    assert restock(AmmoState(points=0, quivers=2), points=3).points == 3


@pytest.mark.parametrize(
    ("turns", "perception", "chance"),
    [(1, 0, 1), (2, 0, 2), (5, 0, 2), (5, 4, 4), (3, 4, 3), (10, 6, 6)],
)
def test_scavenge_chance(turns: int, perception: int, chance: int) -> None:
    assert scavenge_chance(turns, perception) == chance


def test_scavenging_regains_half_the_spent_points() -> None:
    state = AmmoState(points=1, quivers=3, spent=3)
    found = scavenge(state, turns=2, dice=ScriptedDice([2]))
    assert found.found and found.after.points == 3 and found.after.spent == 0
    missed = scavenge(state, turns=1, dice=ScriptedDice([2]))
    assert not missed.found and missed.after.points == 1 and missed.after.spent == 0
    with pytest.raises(RulesError, match="none to find"):
        scavenge(missed.after, dice=ScriptedDice([1]))


def test_scavenged_points_past_the_quivers_are_left_behind() -> None:
    state = AmmoState(points=1, quivers=1, spent=4)
    result = scavenge(state, dice=ScriptedDice([1]))
    assert result.after.points == 2 and result.left_behind == 1


@given(
    start=st.integers(0, 4),
    faces=st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), max_size=40),
)
def test_ammo_never_negative(start: int, faces: list[tuple[int, int]]) -> None:
    state = AmmoState(points=start, quivers=2)
    for pair in faces:
        try:
            state = after_ranged_attack(state, d10s(list(pair))).after
        except RulesError:
            assert state.points == 0
        assert 0 <= state.points <= state.capacity
    assert state.spent == start - state.points


FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
TARGET = TargetStats(attribute=Attribute.FINESSE, defense=4)


def test_the_attack_the_bot_rolled_spends_on_a_one() -> None:
    bow = wield(weapon("shortbow"))
    state = AmmoState(points=2, quivers=1)
    # 1 + 9 + finesse 1 + ranged 2 - defense 4 = 9: a miss, and a 1 on the dice.
    result = roll_attack(bow, FIGHTER, TARGET, dice=ScriptedDice([1, 9, 4]))
    assert after_attack(state, result).after.points == 1
    clean = roll_attack(bow, FIGHTER, TARGET, dice=ScriptedDice([5, 9, 4]))
    assert after_attack(state, clean).after.points == 2


def test_thrown_and_melee_use_no_ammo() -> None:
    state = AmmoState(points=1, quivers=1)
    axe = wield(weapon("light axe"), thrown=True)
    assert not uses_ammo(axe) and uses_ammo(wield(weapon("sling")))
    thrown = roll_attack(axe, FIGHTER, TARGET, dice=ScriptedDice([1, 9, 3, 2]))
    assert after_attack(state, thrown).after == state
    sword = roll_attack(wield(weapon("light sword")), FIGHTER, TARGET,
                        dice=ScriptedDice([1, 9, 3]))  # fmt: skip
    assert after_attack(state, sword).after == state


def test_hard_cover_stops_the_shot_before_any_d10() -> None:
    bow = wield(weapon("shortbow"))
    result = roll_attack(bow, FIGHTER, TARGET, situation=Situation(hard_cover=4),
                         dice=ScriptedDice([]))  # fmt: skip
    assert result.roll is None
    state = AmmoState(points=1, quivers=1)
    assert after_attack(state, result).after == state
