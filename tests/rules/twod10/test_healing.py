"""Short and long rests: gains, the damage gate, the cap at the last short rest."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import death_threshold, max_hit_points
from bot.rules.twod10.healing import (
    HealingState,
    fresh,
    long_rest,
    long_rest_gain,
    resize,
    short_rest,
    short_rest_gain,
    take_damage,
)


@pytest.mark.parametrize(("toughness", "gain"), [(-1, 1), (0, 1), (1, 1), (3, 3), (6, 6)])
def test_short_rest_gains_toughness_or_one(toughness: int, gain: int) -> None:
    assert short_rest_gain(toughness) == gain


@pytest.mark.parametrize(("toughness", "gain"), [(-1, 2), (0, 2), (1, 3), (2, 6), (6, 18)])
def test_long_rest_gains_three_toughness_or_two(toughness: int, gain: int) -> None:
    assert long_rest_gain(toughness) == gain


def test_short_rest_needs_damage_again() -> None:
    state = take_damage(fresh(30), 20, toughness=3)
    assert state.hp == 10 and state.damaged_since_rest
    rested = short_rest(state, toughness=3)
    assert rested.after.hp == 13 and rested.gained == 3
    with pytest.raises(RulesError, match="after damage is taken again"):
        short_rest(rested.after, toughness=3)
    with pytest.raises(RulesError, match="after damage is taken again"):
        short_rest(fresh(30), toughness=3)


def test_short_rest_never_past_the_last_short_rests_hp() -> None:
    state = short_rest(take_damage(fresh(30), 20, toughness=3), toughness=3).after
    assert state.short_rest_cap == 13
    hurt = take_damage(state, 1, toughness=3)
    rested = short_rest(hurt, toughness=3)
    assert rested.cap == 13 and rested.after.hp == 13  # 12 + 3 would be 15


def test_long_rest_heals_and_clears_the_cap() -> None:
    state = short_rest(take_damage(fresh(30), 20, toughness=3), toughness=3).after
    rested = long_rest(state, toughness=3)
    assert rested.after.hp == 22 and rested.after.short_rest_cap is None
    again = short_rest(take_damage(rested.after, 2, toughness=3), toughness=3)
    assert again.after.hp == 23


def test_long_rest_never_past_maximum() -> None:
    state = take_damage(fresh(25), 3, toughness=2)
    assert long_rest(state, toughness=2).after.hp == 25


def test_short_rest_medicine_adds_under_the_cap() -> None:
    state = take_damage(fresh(30), 20, toughness=3)
    assert short_rest(state, toughness=3, medicine=2).after.hp == 15
    capped = replace(state, short_rest_cap=14)
    assert short_rest(capped, toughness=3, medicine=3).after.hp == 14
    # A medicine mishap eats into the rest's gain: 10 + 3 - 2.
    assert short_rest(state, toughness=3, medicine=-2).after.hp == 11


def test_short_rest_mishap_can_net_a_loss() -> None:
    state = take_damage(fresh(12), 10, toughness=-1)
    assert short_rest(state, toughness=-1, medicine=-2).after.hp == 1


def test_dying_or_dead_cannot_rest() -> None:
    dying = take_damage(fresh(25), 25, toughness=2)
    with pytest.raises(RulesError, match="stabilise them first"):
        short_rest(dying, toughness=2)
    with pytest.raises(RulesError, match="stabilise them first"):
        long_rest(dying, toughness=2)
    dead = take_damage(fresh(25), 100, toughness=2)
    assert dead.hp == -4 and dead.dead(2)
    with pytest.raises(RulesError, match="dead"):
        long_rest(dead, toughness=2)


def test_bounds() -> None:
    with pytest.raises(RulesError, match="HP must be"):
        HealingState(hp=26, max_hp=25)
    with pytest.raises(RulesError, match="Damage must be"):
        take_damage(fresh(25), -1, toughness=2)


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("damage"), st.integers(0, 15)),
        st.tuples(st.just("short"), st.integers(-2, 3)),
        st.tuples(st.just("long"), st.just(0)),
    ),
    max_size=30,
)


@given(toughness=st.integers(-1, 6), ops=OPS)
def test_rests_never_pass_the_cap_or_the_maximum(toughness: int, ops: list) -> None:  # type: ignore[type-arg]
    state = fresh(max_hit_points(toughness))
    for op, value in ops:
        try:
            if op == "damage":
                state = take_damage(state, value, toughness=toughness)
            elif op == "short":
                before = state
                result = short_rest(state, toughness=toughness, medicine=value)
                cap = before.short_rest_cap or before.max_hp
                assert result.after.hp <= max(before.hp, cap)
                state = result.after
            else:
                state = long_rest(state, toughness=toughness).after
        except RulesError:
            continue
        assert state.hp <= state.max_hp
        assert state.hp >= death_threshold(toughness)


def test_resize_keeps_hp_and_cap_within_the_new_maximum() -> None:
    state = HealingState(hp=30, max_hp=30, short_rest_cap=28)
    smaller = resize(state, 25)
    assert (smaller.hp, smaller.max_hp, smaller.short_rest_cap) == (25, 25, 25)
    bigger = resize(HealingState(hp=10, max_hp=25), 30)
    assert (bigger.hp, bigger.max_hp, bigger.short_rest_cap) == (10, 30, None)
    with pytest.raises(RulesError, match="Maximum HP"):
        resize(state, 50)
