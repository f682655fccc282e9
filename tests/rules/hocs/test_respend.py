"""Points spent after a clash or attack roll: the clash re-decided, the attack re-judged,
and the threshold test's physique-or-willpower choice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import (
    Advantage,
    AttackMode,
    HitInputs,
    SideModifiers,
    attack_roll_from_dict,
    attack_roll_record,
    rejudge_attack,
    resolve_attack,
    resolve_hit,
)
from bot.rules.hocs.clash import ClashDecision, ClashSide, resolve_clash, respend_clash
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.determination import apply_determination_after
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import reroll_dice
from tests.rules.hocs.test_attack import GREATSWORD, fighter, raw

TWO = PoolSpec(base=2)


def test_a_reroll_that_flips_the_winner_re_decides_the_clash() -> None:
    # A 1 2 (0) vs B 4 1 (1): B wins. A rerolls both: 5 6 → 2 vs 1, A wins.
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([1, 2, 4, 1]))
    assert clash.winner is ClashSide.B
    changed = reroll_dice(clash.final.a, (0, 1), ScriptedDice([5, 6]))
    after = respend_clash(clash, ClashSide.A, changed, dice=ScriptedDice([]))
    assert after.winner is ClashSide.A and after.decided_by is ClashDecision.SUCCESSES
    assert after.margin == 1 and len(after.rounds) == 1
    assert [d.final_face for d in after.final.a.dice] == [5, 6]
    assert after.final.b == clash.final.b


def test_a_spend_that_ends_in_a_deadlock_repeats_the_clash_with_its_determination() -> None:
    # A 4 1 (1) vs B 1 1 (0): A wins. B's determination die: 5 → 1 vs 1, no 6s: deadlock.
    clash = resolve_clash(TWO, TWO, dice=ScriptedDice([4, 1, 1, 1]))
    b = apply_determination_after(clash.final.b, ScriptedDice([5]))
    # Repeated round: A 1 1 vs B (with its determination die) 1 1 | 6 → chain 2: B wins.
    after = respend_clash(clash, ClashSide.B, b, dice=ScriptedDice([1, 1, 1, 1, 6, 2]))
    assert len(after.rounds) == 2 and after.winner is ClashSide.B
    assert after.b.determination and not after.a.determination
    assert after.rounds[0].b.successes == 1 and after.final.b.successes == 1


def test_an_attack_that_now_wins_by_two_earns_the_asked_advantage() -> None:
    # Bram 5 1 (1) vs Gob 4 1 (1): a tie, the attacker hits by 0; damage d12 3, d10 2, d6 1.
    bram, gob = fighter("Bram"), fighter("Gob", strength=2)
    dice = ScriptedDice([5, 1, 4, 1, 3, 2, 1])
    result = resolve_attack(bram, gob, GREATSWORD, dice=dice)
    assert result.roll.hit and not result.roll.earned_advantage
    # Bram's 1 rerolled into a 6: 2 vs 1, still no advantage.
    clash = result.roll.clash
    assert clash is not None
    changed = reroll_dice(clash.final.a, (1,), ScriptedDice([6]))
    after = rejudge_attack(
        result.roll, ClashSide.A, changed, dice=ScriptedDice([]), asked=Advantage.TEMPO
    )
    assert after.hit and after.margin == 1 and after.advantage is None
    # Now Gob's 4 rerolled into a 2: 2 vs 0, a hit by 2 with the asked advantage.
    assert after.clash is not None
    gob_roll = reroll_dice(after.clash.final.b, (0,), ScriptedDice([2]))
    twice = rejudge_attack(after, ClashSide.B, gob_roll, dice=ScriptedDice([]), asked=None)
    assert twice.hit and twice.margin == 2 and twice.advantage is Advantage.IMPACT_D8
    assert attack_roll_from_dict(attack_roll_record(twice)) == twice


def test_the_defender_wins_by_two_and_gets_counter() -> None:
    bram, gob = fighter("Bram"), fighter("Gob", strength=2)
    result = resolve_attack(bram, gob, GREATSWORD, dice=ScriptedDice([4, 1, 4, 1, 3, 2, 1]))
    assert result.roll.clash is not None
    # Bram's 4 rerolled into a 1 (a hero point may reroll any die): 0 vs 1.
    bram_roll = reroll_dice(result.roll.clash.final.a, (0,), ScriptedDice([1]))
    missed = rejudge_attack(result.roll, ClashSide.A, bram_roll, dice=ScriptedDice([]), asked=None)
    assert not missed.hit and not missed.counter and missed.advantage is None
    assert missed.clash is not None
    gob_roll = reroll_dice(missed.clash.final.b, (1,), ScriptedDice([6]))
    countered = rejudge_attack(missed, ClashSide.B, gob_roll, dice=ScriptedDice([]), asked=None)
    assert not countered.hit and countered.counter and countered.margin == 2


def test_a_defenseless_melee_attack_has_no_roll_to_change() -> None:
    bram = fighter("Bram")
    gob = fighter("Gob", conditions=Conditions.of(Condition.UNCONSCIOUS))
    result = resolve_attack(bram, gob, GREATSWORD, dice=ScriptedDice([3, 2, 1, 1]))
    assert result.roll.mode is AttackMode.DEFENSELESS_MELEE
    with pytest.raises(RulesError):
        rejudge_attack(
            result.roll,
            ClashSide.A,
            result.roll.clash.final.a if result.roll.clash else None,  # type: ignore[arg-type]
            dice=ScriptedDice([]),
            asked=None,
        )


def test_both_sides_modifiers_reach_the_pools() -> None:
    bram, gob = fighter("Bram"), fighter("Gob", strength=2)
    result = resolve_attack(
        bram,
        gob,
        GREATSWORD,
        dice=ScriptedDice([3, 1, 1, 2, 6, 1, 1, 1]),  # a hit by 2: impact d8 too
        mods=SideModifiers(focus=1, guaranteed=1),
        defense=SideModifiers(rerolls=1, banes=1),
    )
    clash = result.roll.clash
    assert clash is not None
    assert (clash.a.focus, clash.a.guaranteed) == (1, 1)
    assert (clash.b.rerolls, clash.b.banes) == (1, 1)
    # Bram 3 1: focus → 4, guaranteed → 4: 2. Gob 1 bane → 1 die: 1, rerolled 2: 0.
    assert clash.final.a.successes == 2 and clash.final.b.successes == 0
    assert result.roll.defense_banes == (("given", 1),)
    assert result.roll.defense_rerolls == (("given", 1),)


def test_the_threshold_test_uses_the_players_choice() -> None:
    # Physique would roll 3 dice (STR 3), willpower 2 (MIND 2): the player picks willpower.
    target = fighter("Bram", strength=3, mind=2, hp=1)
    inputs, dice = raw((4,), [1, 5, 5])  # 1 damage → 0 HP: a test vs 1
    chosen: HitInputs = replace(inputs, threshold_skill="Willpower")
    hit = resolve_hit(target, chosen, index=None, dice=dice)
    assert hit.threshold_test is not None
    assert hit.threshold_test.skill.startswith("Willpower")
    assert len(hit.threshold_test.roll.dice) == 2 and dice.remaining == 0
    # Without a choice the pool with more dice is rolled.
    inputs, dice = raw((4,), [1, 5, 5, 5])
    default = resolve_hit(target, inputs, index=None, dice=dice)
    assert default.threshold_test is not None
    assert default.threshold_test.skill.startswith("Physique")
    assert HitInputs.from_dict(chosen.to_dict()) == chosen
