"""Skill pools: boons and banes, post-roll modifiers, zero dice, serialisation, rerolls."""

from __future__ import annotations

import json

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.modifiers import dice_change, pool_size
from bot.rules.hocs.pool import DieOrigin, DieRoll, PoolResult, PoolSpec, RerollSource
from bot.rules.hocs.rolling import best_single_reroll_index, reroll_dice, roll_pool


# Every sentence of the boons/banes example paragraph.
@pytest.mark.parametrize(
    ("boons", "banes", "change"),
    [
        (2, 0, +1),  # "2 boons, they only gain +1d6"
        (2, 2, 0),  # "2 boons and 2 banes ... nor a penalty"
        (0, 2, -1),  # "2 banes, they receive a -1d6"
        (0, 3, -2),  # "3 or 4 banes ... -2d6"
        (0, 4, -2),
        (0, 5, -3),  # "5 or 6 banes ... -3d6"
        (0, 6, -3),
        (1, 3, -1),  # "1 boon and 3 banes, they only receive a -1d6"
        (1, 0, +1),
        (0, 1, -1),
        (0, 0, 0),
        (30, 0, +1),
        (0, 30, -15),
    ],
)
def test_boons_and_banes_examples(boons: int, banes: int, change: int) -> None:
    assert dice_change(boons, banes) == change
    assert PoolSpec(base=10, boons=boons, banes=banes).dice_count == max(0, 10 + change)


def test_banes_never_make_a_pool_negative() -> None:
    assert pool_size(1, banes=6) == 0
    assert PoolSpec(base=2, banes=30).dice_count == 0


def test_focus_example_three_successes() -> None:
    # "3d6 plus 1 focus, resulting on a 3, 4 and 6 ... three successes instead of two"
    result = roll_pool(PoolSpec(base=3, focus=1), ScriptedDice([3, 4, 6]))
    assert result.successes == 3
    assert [d.final_face for d in result.dice] == [4, 4, 6]
    assert result.dice[0].focus and result.dice[0].first_face == 3
    assert result.unused_focus == 0


def test_plain_pool_counts_fours_fives_sixes() -> None:
    result = roll_pool(PoolSpec(base=5), ScriptedDice([1, 2, 3, 4, 6]))
    assert (result.successes, result.sixes) == (2, 1)
    assert all(d.origin is DieOrigin.BASE for d in result.dice)


def test_boon_die_is_last_and_marked() -> None:
    result = roll_pool(PoolSpec(base=2, boons=3, banes=1), ScriptedDice([1, 5, 6]))
    assert [d.origin for d in result.dice] == [DieOrigin.BASE, DieOrigin.BASE, DieOrigin.BOON]
    assert result.dice[2].explosions == ()  # an ordinary boon never explodes
    assert result.successes == 2


def test_zero_dice_rolls_nothing() -> None:
    dice = ScriptedDice([])
    result = roll_pool(PoolSpec(base=1, banes=2), dice)
    assert result.zero_dice and result.successes == 0 and result.dice == ()
    assert dice.requests == []


def test_rerolls_then_focus_then_guaranteed_then_focus_on_fives() -> None:
    # Faces 1, 2, 3, 5, 3: two rerolls go to the 1 and the 2 (the 3s are left for focus).
    spec = PoolSpec(base=5, rerolls=2, focus=3, guaranteed=1)
    result = roll_pool(spec, ScriptedDice([1, 2, 3, 5, 3, 2, 6]))
    d = result.dice
    assert [x.rolled_face for x in d] == [2, 6, 3, 5, 3]
    assert d[0].reroll_face == 2 and d[0].rerolls[0].source is RerollSource.TALENT
    assert d[0].guaranteed and d[0].final_face == 4
    assert d[2].focus and d[4].focus and d[3].focus
    assert [x.final_face for x in d] == [4, 6, 4, 6, 4]
    assert result.successes == 5 and result.sixes == 2
    assert (result.unused_rerolls, result.unused_focus, result.unused_guaranteed) == (0, 0, 0)


def test_reroll_not_wasted_on_a_three_that_focus_fixes() -> None:
    result = roll_pool(PoolSpec(base=1, rerolls=1, focus=1), ScriptedDice([3]))
    assert result.successes == 1 and result.dice[0].rerolls == ()
    assert result.unused_rerolls == 1


def test_each_die_rerolled_once_and_unused_reported() -> None:
    result = roll_pool(PoolSpec(base=2, rerolls=5), ScriptedDice([1, 6, 2]))
    assert result.dice[0].rolled_face == 2 and result.dice[0].first_face == 1
    assert result.successes == 1
    assert result.unused_rerolls == 4


def test_guaranteed_unused_when_everything_succeeds() -> None:
    result = roll_pool(PoolSpec(base=2, guaranteed=2, focus=1), ScriptedDice([4, 6]))
    assert result.unused_guaranteed == 2 and result.unused_focus == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base": 31},
        {"base": -1},
        {"base": 3, "boons": 31},
        {"base": 3, "banes": 31},
        {"base": 3, "focus": 31},
        {"base": 3, "rerolls": -1},
        {"base": 3, "rerolls": 11},  # MAX_REROLLS: the exact search stays fast
        {"base": 3, "guaranteed": 99},
        {"base": True},
        {"base": 2.5},
    ],
)
def test_impossible_specs_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(RulesError) as err:
        PoolSpec(**kwargs)  # type: ignore[arg-type]
    assert str(err.value).endswith(".")


def test_to_dict_round_trip_through_json() -> None:
    spec = PoolSpec(base=3, determination=True, rerolls=1, focus=1, guaranteed=1)
    result = roll_pool(spec, ScriptedDice([1, 3, 5, 6, 6, 2, 2]))
    data = json.loads(json.dumps(result.to_dict()))
    assert PoolResult.from_dict(data) == result
    assert data["successes"] == result.successes


def test_damaged_stored_roll_is_refused() -> None:
    data = roll_pool(PoolSpec(base=2), ScriptedDice([1, 2])).to_dict()
    data["dice"] = data["dice"][:1]
    with pytest.raises(RulesError):
        PoolResult.from_dict(data)
    with pytest.raises(RulesError):
        PoolResult.from_dict({"version": 99})
    with pytest.raises(RulesError):
        PoolResult.from_dict({"version": 1})


def test_hero_reroll_of_chosen_dice_even_if_rerolled_before() -> None:
    first = roll_pool(PoolSpec(base=3, rerolls=1), ScriptedDice([1, 5, 2, 3]))
    assert [d.rolled_face for d in first.dice] == [3, 5, 2]  # talent reroll took the 1
    again = reroll_dice(first, [0, 2], ScriptedDice([6, 4]))
    assert [d.rolled_face for d in again.dice] == [6, 5, 4]
    assert [r.source for r in again.dice[0].rerolls] == [RerollSource.TALENT, RerollSource.HERO]
    assert again.successes == 3 and first.successes == 1  # original untouched


def test_hero_reroll_reassigns_focus() -> None:
    first = roll_pool(PoolSpec(base=2, focus=1), ScriptedDice([3, 1]))
    assert first.dice[0].focus and first.successes == 1
    again = reroll_dice(first, [0], ScriptedDice([2]))
    assert not again.dice[0].focus and again.successes == 0
    assert again.unused_focus == 1


def test_fortune_reroll_best_single_die() -> None:
    first = roll_pool(PoolSpec(base=3), ScriptedDice([3, 1, 5]))
    index = best_single_reroll_index(first)
    assert index == 1
    again = reroll_dice(first, [index], ScriptedDice([4]), source=RerollSource.FORTUNE)
    assert again.successes == 2
    with pytest.raises(RulesError):
        reroll_dice(first, [0, 1], ScriptedDice([4, 4]), source=RerollSource.FORTUNE)


def test_best_single_reroll_none_without_failures() -> None:
    assert best_single_reroll_index(roll_pool(PoolSpec(base=2), ScriptedDice([4, 6]))) is None
    assert best_single_reroll_index(roll_pool(PoolSpec(base=0), ScriptedDice([]))) is None


def test_best_single_reroll_prefers_determination_die_on_equal_faces() -> None:
    result = roll_pool(PoolSpec(base=1, determination=True), ScriptedDice([2, 2]))
    assert best_single_reroll_index(result) == 1


@pytest.mark.parametrize("indices", [[], [3], [-1], [0, 0]])
def test_bad_reroll_choices_are_refused(indices: list[int]) -> None:
    result = roll_pool(PoolSpec(base=2), ScriptedDice([1, 2]))
    with pytest.raises(RulesError):
        reroll_dice(result, indices, ScriptedDice([1, 1]))


def test_reroll_of_empty_pool_refused() -> None:
    with pytest.raises(RulesError):
        reroll_dice(roll_pool(PoolSpec(base=0), ScriptedDice([])), [0], ScriptedDice([1]))


def test_stored_roll_beyond_the_reroll_bound_asks_for_a_new_roll() -> None:
    data = roll_pool(PoolSpec(base=2, rerolls=1), ScriptedDice([4, 5])).to_dict()
    data["spec"]["rerolls"] = 30  # stored before talent rerolls were capped at 10
    with pytest.raises(RulesError, match="another bot version; roll again"):
        PoolResult.from_dict(data)


def test_stored_die_leaves_out_keys_at_their_default() -> None:
    result = roll_pool(PoolSpec(base=2, determination=True), ScriptedDice([4, 2, 6, 6, 3]))
    plain, failed, det = result.to_dict()["dice"]
    assert plain == {"origin": "base", "first_face": 4, "final_faces": [4]}
    assert failed == {"origin": "base", "first_face": 2, "final_faces": [2]}
    assert det == {
        "origin": "determination",
        "first_face": 6,
        "explosions": [6, 3],
        "final_faces": [6, 6, 3],
    }
    spent = roll_pool(
        PoolSpec(base=2, rerolls=1, focus=1, guaranteed=1), ScriptedDice([1, 2, 3])
    ).to_dict()["dice"]
    assert spent == [
        {
            "origin": "base",
            "first_face": 1,
            "rerolls": [{"face": 3, "source": "talent"}],
            "focus": True,
            "final_faces": [4],
        },
        {"origin": "base", "first_face": 2, "guaranteed": True, "final_faces": [4]},
    ]
    late = DieRoll(origin=DieOrigin.DETERMINATION, first_face=1, added_after_roll=True)
    assert late.to_dict() == {
        "origin": "determination",
        "first_face": 1,
        "added_after_roll": True,
        "final_faces": [1],
    }


def test_old_full_form_rows_load_like_their_compact_form() -> None:
    spec = PoolSpec(base=3, determination=True, rerolls=1, focus=1, guaranteed=1)
    result = roll_pool(spec, ScriptedDice([1, 3, 5, 6, 6, 2, 2]))
    compact = result.to_dict()
    full = json.loads(json.dumps(compact))
    defaults = {
        "rerolls": [],
        "focus": False,
        "guaranteed": False,
        "explosions": [],
        "added_after_roll": False,
    }
    for die in full["dice"]:  # what every die looked like when stored before
        for key, value in defaults.items():
            die.setdefault(key, value)
    assert all(len(die) == 8 for die in full["dice"])
    assert full != compact
    assert PoolResult.from_dict(full) == PoolResult.from_dict(compact) == result
    assert [DieRoll.from_dict(d) for d in full["dice"]] == list(result.dice)
