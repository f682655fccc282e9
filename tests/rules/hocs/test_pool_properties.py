"""Invariants of skill pools, checked with Hypothesis over scripted faces."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.determination import apply_determination_after, determination_refusal
from bot.rules.hocs.modifiers import dice_change
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import best_single_reroll_index, reroll_dice, roll_pool

counts = st.integers(min_value=0, max_value=30)
small = st.integers(min_value=0, max_value=6)
specs = st.builds(
    PoolSpec,
    base=st.integers(min_value=0, max_value=12),
    boons=small,
    banes=small,
    determination=st.booleans(),
    focus=small,
    rerolls=small,
    guaranteed=small,
)
# Enough faces for any pool above, rerolls and a few explosions; ScriptedDice
# raises if we run short, which would fail the test loudly.
faces = st.lists(st.integers(min_value=1, max_value=6), min_size=80, max_size=80).map(
    lambda f: [*f[:70], 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]  # the tail ends any explosion chain
)

FAST = settings(max_examples=150, deadline=None)


@FAST
@given(boons=counts, banes=counts)
def test_boons_never_add_more_than_one_die_and_banes_never_go_negative(
    boons: int, banes: int
) -> None:
    change = dice_change(boons, banes)
    assert change <= 1
    for base in (0, 1, 5):
        assert PoolSpec(base=base, boons=boons, banes=banes).dice_count >= 0
    if banes == 0 and boons > 0:
        assert change == 1


@FAST
@given(spec=specs, script=faces)
def test_successes_bounded_by_dice_plus_explosions(spec: PoolSpec, script: list[int]) -> None:
    result = roll_pool(spec, ScriptedDice(script))
    assert len(result.dice) == spec.dice_count
    assert 0 <= result.successes <= len(result.dice) + result.explosion_count
    assert result.unused_focus >= 0 and result.unused_rerolls >= 0
    assert result.unused_guaranteed >= 0
    assert all(sum(r.source.value == "talent" for r in d.rerolls) <= 1 for d in result.dice)
    if result.zero_dice:
        assert result.successes == 0


@FAST
@given(spec=specs, script=faces)
def test_modifiers_never_lower_successes(spec: PoolSpec, script: list[int]) -> None:
    plain = PoolSpec(base=spec.base, boons=spec.boons, banes=spec.banes)
    # Same faces for the base roll; extra modifiers may only help.
    unhelped = roll_pool(plain, ScriptedDice(script))
    helped_spec = PoolSpec(
        base=spec.base,
        boons=spec.boons,
        banes=spec.banes,
        focus=spec.focus,
        guaranteed=spec.guaranteed,
    )
    helped = roll_pool(helped_spec, ScriptedDice(script))
    assert helped.successes >= unhelped.successes


@FAST
@given(spec=specs, script=faces)
def test_round_trip_through_json(spec: PoolSpec, script: list[int]) -> None:
    dice = ScriptedDice(script)
    result = roll_pool(spec, dice)
    stored = json.loads(json.dumps(result.to_dict()))
    assert PoolResult.from_dict(stored) == result
    # Keys at their default are left out, and a row stored with them all still loads.
    full = {
        "rerolls": [],
        "focus": False,
        "guaranteed": False,
        "explosions": [],
        "added_after_roll": False,
    }
    for die in stored["dice"]:
        assert not any(die.get(key, True) == value for key, value in full.items())
        die.update({**full, **die})
    assert PoolResult.from_dict(stored) == result
    index = best_single_reroll_index(result)
    if index is not None:
        assert result.dice[index].is_failure
        again = reroll_dice(result, [index], dice)
        assert PoolResult.from_dict(again.to_dict()) == again
    try:
        after = apply_determination_after(result, dice)
    except RulesError:
        return
    assert after.successes >= result.successes or after.dice[-1].added_after_roll
    assert PoolResult.from_dict(after.to_dict()) == after


@FAST
@given(spec=specs, script=faces)
def test_determination_refusal_says_exactly_what_spending_would_raise(
    spec: PoolSpec, script: list[int]
) -> None:
    # The buttons ask determination_refusal (no dice) instead of trying the spend.
    result = roll_pool(spec, ScriptedDice(script))
    refusal = determination_refusal(result)
    try:
        apply_determination_after(result, ScriptedDice(script))
    except RulesError as exc:
        assert refusal == str(exc)
    else:
        assert refusal is None


@FAST
@given(
    base=st.integers(min_value=0, max_value=12),
    boons=small,
    banes=small,
    determination=st.booleans(),
    script=faces,
    marked=st.sampled_from([None, "focus", "guaranteed"]),
)
def test_a_pool_without_modifiers_skips_the_policy_and_ends_the_same(
    base: int, boons: int, banes: int, determination: bool, script: list[int], marked: str | None
) -> None:
    """``optimise`` returns a pool with no rerolls, focus or guarantees as it came; the
    policy's own path (rerolls, then focus and guarantees placed) agrees, asks no dice,
    and clears focus or guarantee marks left on a die, which the shortcut must not skip."""
    from dataclasses import replace

    from bot.rules.hocs import rolling

    spec = PoolSpec(base=base, boons=boons, banes=banes, determination=determination)
    rolled = list(roll_pool(spec, ScriptedDice(script)).dice)
    if marked and rolled:
        rolled[0] = replace(rolled[0], **{marked: True})
    slow = list(rolled)
    rolling._spend_talent_rerolls(slow, spec, ScriptedDice([]))
    rolling._assign_focus_and_guarantees(slow, spec)
    assert rolling.optimise(rolled, spec, ScriptedDice([])) == tuple(slow)
    assert not any(d.focus or d.guaranteed for d in slow)
