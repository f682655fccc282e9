"""A determination point spent before a threshold test is in the test's pool from the start.

Scripted dice throughout: each test says which face goes where. The damage die comes
first, then the test's base dice, then the determination die and its explosions.
"""

from __future__ import annotations

from dataclasses import replace

from bot.render.hocs.combat import hit_lines
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.attack import (
    HitInputs,
    PriorRolls,
    raw_damage_pool,
    resolve_attack,
    resolve_hit,
    roll_inputs,
    settle_threshold_pledge,
    threshold_pledge_spent,
)
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.pool import DieOrigin
from bot.rules.hocs.threshold import ThresholdResult
from tests.rules.hocs.test_attack import GREATSWORD, PHYSICAL, fighter, raw


def pledged(sizes: tuple[int, ...], faces: list[int]) -> tuple[HitInputs, ScriptedDice]:
    inputs, dice = raw(sizes, faces)
    return replace(inputs, threshold_determination=True), dice


def test_the_pledged_point_is_an_exploding_die_in_the_pool_from_the_start() -> None:
    gob = fighter("Gob", strength=2, hp=1)  # physique 2 dice; threshold −5
    # d4 3: 1 → −2, a test vs 3. Physique 5, 1 and the determination die 6, exploding
    # into 5: 1 + 0 + 2 = 3 successes, staggered. Without the point: 1 success, dying.
    inputs, dice = pledged((4,), [3, 5, 1, 6, 5])
    hit = resolve_hit(gob, inputs, index=None, dice=dice)
    assert dice.remaining == 0
    test = hit.threshold_test
    assert test is not None and test.outcome.difficulty == 3
    roll = test.roll
    assert roll.spec.determination and not roll.determination_after
    assert [d.origin for d in roll.dice] == [
        DieOrigin.BASE,
        DieOrigin.BASE,
        DieOrigin.DETERMINATION,
    ]
    assert [d.final_faces for d in roll.dice] == [(5,), (1,), (6, 5)]
    assert roll.successes == 3
    assert test.outcome.result is ThresholdResult.STAGGERED
    assert hit.after.conditions == hit.before.conditions.add(Condition.STAGGERED)
    assert hit.after.hp == -2
    assert threshold_pledge_spent(hit)
    assert settle_threshold_pledge(inputs, hit) is inputs  # the point stays with its test
    lines = hit_lines(hit, threshold=-5)
    assert (
        "**Threshold test** (0 HP or below, inside −5): Physique (STR 2) with determination"
        " vs 3: [**5**, 1, **6 5**] 3 successes → **staggered**." in lines
    )


def test_the_same_faces_without_the_point_fail_by_two() -> None:
    gob = fighter("Gob", strength=2, hp=1)
    inputs, dice = raw((4,), [3, 5, 1])
    hit = resolve_hit(gob, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None and hit.threshold_test.roll.successes == 1
    assert hit.threshold_test.outcome.result is ThresholdResult.UNCONSCIOUS_DYING
    assert not threshold_pledge_spent(hit)
    assert "Physique (STR 2) vs 3: [**5**, 1] 1 success" in hit_lines(hit, threshold=-5)[1]


def test_the_pledge_goes_to_the_chosen_skill() -> None:
    sage = fighter("Sage", strength=3, mind=1, hp=1)  # physique 3 dice, willpower 1
    # d4 1: 1 → 0, a test vs 1. Willpower as chosen: 1 base die (2) and the boon die 4.
    inputs, dice = pledged((4,), [1, 2, 4])
    inputs = replace(inputs, threshold_skill="Willpower")
    hit = resolve_hit(sage, inputs, index=None, dice=dice)
    test = hit.threshold_test
    assert test is not None and test.skill.startswith("Willpower") and dice.remaining == 0
    assert len(test.roll.dice) == 2 and test.roll.dice[1].origin is DieOrigin.DETERMINATION
    assert test.outcome.result is ThresholdResult.STAGGERED  # 1 success vs 1


def test_staggered_banes_take_the_boon_first() -> None:
    # Staggered: 2 banes on 2 dice leave 1; the point makes it 1 bane, still −1d6, so the
    # pool is the same one die (the text: the point is one more boon, spent before).
    gob = fighter("Gob", strength=2, hp=1, conditions=Conditions.of(Condition.STAGGERED))
    inputs, dice = pledged((4,), [1, 6])
    hit = resolve_hit(gob, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None and dice.remaining == 0
    roll = hit.threshold_test.roll
    assert roll.spec.determination and len(roll.dice) == 1 and threshold_pledge_spent(hit)


def test_a_hit_that_calls_for_no_test_lets_the_pledge_lapse() -> None:
    gob = fighter("Gob", strength=2)  # 10 HP
    inputs, dice = pledged((4,), [3])
    hit = resolve_hit(gob, inputs, index=None, dice=dice)
    assert hit.threshold_test is None and dice.remaining == 0
    assert not threshold_pledge_spent(hit) and not threshold_pledge_spent(None)
    settled = settle_threshold_pledge(inputs, hit)
    assert not settled.threshold_determination
    assert "threshold_determination" not in settled.to_dict()


def test_a_redone_hit_keeps_its_test_and_a_lapsed_pledge_stays_lapsed() -> None:
    gob = fighter("Gob", strength=2, hp=3)  # threshold −5
    pool = raw_damage_pool((10, 6), types=PHYSICAL, lethal=True)
    dice = ScriptedDice([10, 4, 2])  # d10 10 exploding into 2: 12 → −9, dead: no test
    inputs = replace(roll_inputs(pool, PHYSICAL, dice), threshold_determination=True)
    first = resolve_hit(gob, inputs, index=None, dice=dice)
    assert first.dead and first.threshold_test is None
    stored = settle_threshold_pledge(inputs, first)
    assert not stored.threshold_determination
    # The d6 kept instead: 4 + 1 = 5 → −2, a test falls due only now and is rolled
    # without the lapsed point (2 dice, no determination die).
    second = resolve_hit(gob, stored, index=1, dice=ScriptedDice([4, 4]), prior=first.rolls)
    assert second.threshold_test is not None and not second.threshold_test.roll.spec.determination
    assert len(second.threshold_test.roll.dice) == 2
    # A test rolled with the point is reused whole when the hit is redone: no new dice.
    gob = fighter("Gob", strength=2, hp=1)
    inputs, dice = pledged((4, 4), [3, 1, 5, 1, 6, 5])  # d4 3 kept (d4 1): −2, vs 3
    hit = resolve_hit(gob, inputs, index=None, dice=dice)
    assert hit.damage.amount == 3 and threshold_pledge_spent(hit) and dice.remaining == 0
    again = resolve_hit(gob, inputs, index=0, dice=ScriptedDice([]), prior=hit.rolls)
    assert again.threshold_test == hit.threshold_test and again.after == hit.after


def test_the_pledge_round_trips_through_json() -> None:
    inputs, dice = pledged((4,), [3, 5, 1, 6, 5])
    assert inputs.to_dict()["threshold_determination"] is True
    assert HitInputs.from_dict(inputs.to_dict()) == inputs
    plain = replace(inputs, threshold_determination=False)
    assert "threshold_determination" not in plain.to_dict()
    assert HitInputs.from_dict(plain.to_dict()) == plain
    hit = resolve_hit(fighter("Gob", strength=2, hp=1), inputs, index=None, dice=dice)
    assert PriorRolls.from_dict(hit.rolls.to_dict()) == hit.rolls
    assert hit.rolls.threshold_roll is not None and hit.rolls.threshold_roll.spec.determination


def test_resolve_attack_takes_the_pledge_into_the_test() -> None:
    bram = fighter("Bram", strength=3, agility=2)
    gob = fighter("Gob", strength=2, agility=2, hp=1)
    # Bram 5 2 (1) vs Gob 3 1 (0): a hit by 1; d12 4, d10 2, d8 1: 4 → −3, a test vs 4;
    # physique 5 4 and the determination die 6 exploding into 5: 4 successes, staggered.
    dice = ScriptedDice([5, 2, 3, 1, 4, 2, 1, 5, 4, 6, 5])
    result = resolve_attack(bram, gob, GREATSWORD, dice=dice, threshold_determination=True)
    assert dice.remaining == 0 and result.hit is not None and result.inputs is not None
    assert result.inputs.threshold_determination
    test = result.hit.threshold_test
    assert test is not None and test.roll.successes == 4 and test.roll.spec.determination
    assert test.outcome.result is ThresholdResult.STAGGERED
    # The same attack on a healthy Gob calls for no test: the pledge lapses.
    dice = ScriptedDice([5, 2, 3, 1, 4, 2, 1])
    healthy = fighter("Gob", strength=2, agility=2)
    result = resolve_attack(bram, healthy, GREATSWORD, dice=dice, threshold_determination=True)
    assert result.inputs is not None and not result.inputs.threshold_determination
    # A miss has no hit, no inputs: nothing to spend the point on.
    dice = ScriptedDice([1, 2, 5, 1])
    missed = resolve_attack(bram, gob, GREATSWORD, dice=dice, threshold_determination=True)
    assert missed.hit is None and missed.inputs is None
    assert not threshold_pledge_spent(missed.hit)
