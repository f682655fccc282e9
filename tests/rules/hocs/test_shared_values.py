"""Values the rules share or work out once for speed can never be stale.

Fresh skill dice are one shared instance per (origin, face); a reroll, focus or
guarantee must make a new die and leave the shared one as it was. ``best_choice``
skips Fractions when no explosion is pending; it must still pick what the exact
expected totals pick.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.many_dice import RolledDie, RolledPool, best_choice, expected_total
from bot.rules.hocs.pool import DieOrigin, DieRoll, PoolSpec, RerollSource
from bot.rules.hocs.rolling import reroll_dice, roll_pool, throw_die


def test_a_fresh_die_is_the_value_of_its_face() -> None:
    result = roll_pool(PoolSpec(base=3, boons=1), ScriptedDice([6, 3, 1, 4]))
    assert result.dice == (
        DieRoll(origin=DieOrigin.BASE, first_face=6),
        DieRoll(origin=DieOrigin.BASE, first_face=3),
        DieRoll(origin=DieOrigin.BASE, first_face=1),
        DieRoll(origin=DieOrigin.BOON, first_face=4),
    )
    assert [d.successes for d in result.dice] == [1, 0, 0, 1]
    assert [d.sixes for d in result.dice] == [1, 0, 0, 0]
    assert (result.successes, result.sixes) == (2, 1)


def test_focus_and_rerolls_do_not_reach_the_next_roll_of_the_same_face() -> None:
    # First roll: the 3 takes the focus (a 4) and the 1 the talent reroll (a 5).
    spent = roll_pool(PoolSpec(base=2, focus=1, rerolls=1), ScriptedDice([3, 1, 5]))
    assert [(d.final_face, d.focus, len(d.rerolls)) for d in spent.dice] == [
        (4, True, 0),
        (5, False, 1),
    ]
    assert spent.successes == 2
    # The same faces again without modifiers: nothing of the first roll is left on them.
    plain = roll_pool(PoolSpec(base=2), ScriptedDice([3, 1]))
    assert [(d.final_face, d.focus, d.rerolls) for d in plain.dice] == [
        (3, False, ()),
        (1, False, ()),
    ]
    assert (plain.successes, plain.sixes) == (0, 0)
    assert [d.is_failure for d in plain.dice] == [True, True]


def test_a_hero_reroll_leaves_the_shared_die_unchanged() -> None:
    first = roll_pool(PoolSpec(base=1), ScriptedDice([2]))
    rerolled = reroll_dice(first, [0], ScriptedDice([6]))
    assert rerolled.dice[0].rerolls[0].source is RerollSource.HERO
    assert (rerolled.successes, rerolled.sixes) == (1, 1)
    assert first.dice[0].rerolls == () and first.successes == 0
    again = roll_pool(PoolSpec(base=1), ScriptedDice([2]))
    assert again.dice[0].rolled_face == 2 and again.successes == 0


def test_an_exploding_or_late_die_is_its_own() -> None:
    dice = ScriptedDice([6, 6, 2])
    exploded = throw_die(DieOrigin.DETERMINATION, dice)
    assert exploded.explosions == (6, 2) and exploded.successes == 2 and exploded.sixes == 2
    plain = throw_die(DieOrigin.DETERMINATION, ScriptedDice([5]))
    assert plain.explosions == () and plain.successes == 1
    late = throw_die(DieOrigin.DETERMINATION, ScriptedDice([5]), added_after_roll=True)
    assert late.added_after_roll and not plain.added_after_roll


def test_a_face_that_is_not_an_int_is_still_refused() -> None:
    class BoolDice:
        def roll(self, sides: int) -> int:
            return True

    with pytest.raises(RulesError, match="cannot show True"):
        roll_pool(PoolSpec(base=1), BoolDice())
    with pytest.raises(RulesError, match="cannot show True"):
        throw_die(DieOrigin.BOON, BoolDice())


def test_a_spec_works_out_its_dice_from_its_own_counts() -> None:
    first = PoolSpec(base=4, banes=3)
    second = PoolSpec(base=4, boons=1)
    assert (first.net, first.dice_change, first.dice_count, first.extra_die) == (-3, -2, 2, None)
    assert (second.net, second.dice_change, second.dice_count) == (1, 1, 5)
    assert second.extra_die is DieOrigin.BOON
    assert PoolSpec(base=4, determination=True).extra_die is DieOrigin.DETERMINATION


_DIE_SIZES = (4, 6, 8, 10, 12, 20)


@st.composite
def rolled_pools(draw: st.DrawFn) -> RolledPool:
    sizes = draw(st.lists(st.sampled_from(_DIE_SIZES), min_size=1, max_size=6))
    dice = tuple(RolledDie(s, draw(st.integers(1, s))) for s in sizes)
    return RolledPool(dice, exploding=draw(st.booleans()))


@given(rolled_pools())
def test_best_choice_is_the_first_best_exact_expected_total(pool: RolledPool) -> None:
    totals: list[Fraction] = [expected_total(pool, i) for i in range(len(pool.dice))]
    assert best_choice(pool) == totals.index(max(totals))


def test_best_choice_weighs_a_pending_explosion_exactly() -> None:
    # d10 showing 10 is worth 10 + 55/9; a d12 showing 12 plus the 10's max bonus is 13.
    pool = RolledPool((RolledDie(12, 12), RolledDie(10, 10)))
    assert best_choice(pool) == 1
    assert best_choice(RolledPool(pool.dice, exploding=False)) == 0
    # Two equal pending explosions tie: the first is kept.
    assert best_choice(RolledPool((RolledDie(10, 10), RolledDie(10, 10)))) == 0
