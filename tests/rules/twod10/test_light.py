"""Torches and lanterns: burn time (exact distribution), countdown, drops, oil, warnings."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.light import (
    Light,
    LightKind,
    LightStatus,
    advance,
    drop,
    light,
    relight,
    warning,
)


def test_torch_keeps_the_highest_of_2d6() -> None:
    dice = ScriptedDice([2, 5])
    torch = light(LightKind.TORCH, dice=dice)
    assert torch.remaining == 5 and torch.burn_roll == (2, 5) and torch.lit
    assert dice.requests == [6, 6]


def test_lantern_keeps_the_highest_of_3d8() -> None:
    dice = ScriptedDice([3, 8, 1])
    lantern = light(LightKind.LANTERN, dice=dice)
    assert lantern.remaining == 8 and dice.requests == [8, 8, 8]


@pytest.mark.parametrize(
    ("kind", "model"),
    [(LightKind.TORCH, icepool.d6.highest(2, 1)), (LightKind.LANTERN, icepool.d8.highest(3, 1))],
)
def test_burn_time_distribution_is_exact(kind: LightKind, model: icepool.Die) -> None:
    count, sides = kind.burn_dice
    seen: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        seen[light(kind, dice=ScriptedDice(faces)).remaining] += 1
    total = sides**count
    got = {k: Fraction(v, total) for k, v in seen.items()}
    want = {int(k): Fraction(model.quantity(k), model.denominator()) for k in model.outcomes()}
    assert got == want


def test_counts_down_and_goes_out_after_its_secret_number() -> None:
    torch = light(LightKind.TORCH, dice=ScriptedDice([3, 3]))
    steps = []
    for _ in range(3):
        step = advance(torch)
        torch = step.after
        steps.append((torch.remaining, step.went_out))
    assert steps == [(2, False), (1, False), (0, True)]
    assert torch.status is LightStatus.BURNED_OUT
    assert advance(torch).after == torch  # an unlit light doesn't burn


def test_advance_several_turns_and_bounds() -> None:
    lantern = Light(kind=LightKind.LANTERN, remaining=6)
    assert advance(lantern, turns=4).after.remaining == 2
    assert advance(lantern, turns=9).after.status is LightStatus.BURNED_OUT
    with pytest.raises(RulesError, match="1 to 50"):
        advance(lantern, turns=0)


def test_warning_at_one_turn_left_never_the_number() -> None:
    assert warning(Light(kind=LightKind.TORCH, remaining=2)) is None
    assert warning(Light(kind=LightKind.TORCH, remaining=1)) == (
        "The torch gutters: it is about to go out."
    )
    out = Light(kind=LightKind.LANTERN, remaining=0, status=LightStatus.BURNED_OUT)
    assert warning(out) == "The lantern has gone out."


@given(kind=st.sampled_from(list(LightKind)), faces=st.lists(st.integers(1, 8), min_size=3))
def test_burn_time_in_bounds_and_warnings_hide_it(kind: LightKind, faces: list[int]) -> None:
    count, sides = kind.burn_dice
    source = light(kind, dice=ScriptedDice([(f - 1) % sides + 1 for f in faces[:count]]))
    assert 1 <= source.remaining <= sides
    while source.lit:
        text = warning(source)
        assert text is None or not re.search(r"\d", text)
        source = advance(source).after
    assert source.remaining == 0


@pytest.mark.parametrize(("kind", "sides"), [(LightKind.TORCH, 4), (LightKind.LANTERN, 12)])
def test_dropping_goes_out_on_a_one(kind: LightKind, sides: int) -> None:
    source = Light(kind=kind, remaining=3)
    out = drop(source, dice=ScriptedDice([1]))
    assert out.sides == sides and out.went_out
    assert out.after.status is LightStatus.DROPPED_OUT and out.after.remaining == 3
    kept = drop(source, dice=ScriptedDice([2]))
    assert not kept.went_out and kept.after == source
    assert warning(out.after) == f"The dropped {kind.value} went out."


def test_relighting() -> None:
    dropped = Light(kind=LightKind.LANTERN, remaining=3, status=LightStatus.DROPPED_OUT)
    again = relight(dropped, dice=ScriptedDice([]))
    assert again.after.lit and again.after.remaining == 3 and again.oil_used == 0
    burned = Light(kind=LightKind.LANTERN, remaining=0, status=LightStatus.BURNED_OUT)
    with pytest.raises(RulesError, match="unit of oil"):
        relight(burned, dice=ScriptedDice([]))
    oiled = relight(burned, oil=True, dice=ScriptedDice([2, 4, 7]))
    assert oiled.after.remaining == 7 and oiled.oil_used == 1
    spent = Light(kind=LightKind.TORCH, remaining=0, status=LightStatus.BURNED_OUT)
    with pytest.raises(RulesError, match="light a new one"):
        relight(spent, oil=True, dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="already lit"):
        relight(Light(kind=LightKind.TORCH, remaining=2), dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="not lit"):
        drop(spent, dice=ScriptedDice([]))


def test_state_is_consistent() -> None:
    with pytest.raises(RulesError, match="0 to 6"):
        Light(kind=LightKind.TORCH, remaining=7)
    with pytest.raises(RulesError, match="exactly when"):
        Light(kind=LightKind.TORCH, remaining=0)
    assert LightKind.TORCH.lights == "the bearer and 2 others, or 30 feet"
    assert LightKind.LANTERN.lights == "the bearer and 3 others, or 40 feet"
