"""The attack orchestration with scripted dice, including the worked examples of the text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import (
    Advantage,
    AttackMode,
    Combatant,
    HitInputs,
    PriorRolls,
    Vitals,
    WeaponUse,
    apply_wound_list,
    choose_damage,
    parse_damage_dice,
    parse_damage_types,
    raw_damage_pool,
    resolve_attack,
    resolve_hit,
    roll_inputs,
    size_attack_bonus,
    weapon_pool,
)
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.conditions import NO_CONDITIONS, Condition, Conditions
from bot.rules.hocs.damage_pool import AttackKind, DamageType, DieRole
from bot.rules.hocs.threshold import ThresholdResult, ThresholdState
from bot.rules.hocs.wounds import InjuryKind, Wound, WoundCheckResult, WoundKind

PHYSICAL = (DamageType.PHYSICAL,)
GREATSWORD = WeaponUse(name="Greatsword", dice=(12,), types=(DamageType.SLASH,))


def fighter(
    name: str = "Bram",
    *,
    strength: int = 3,
    agility: int = 2,
    mind: int = 2,
    presence: int = 1,
    hp: int | None = None,
    size: SizeCategory = SizeCategory.MEDIUM,
    conditions: Conditions = NO_CONDITIONS,
    wounds: tuple[Wound, ...] = (),
    temp_hp: int = 0,
    **details: Any,
) -> Combatant:
    sheet = CharacterSheet(
        name=name, strength=strength, agility=agility, mind=mind, presence=presence, size=size
    )
    vitals = Vitals(
        hp=sheet.hit_points if hp is None else hp,
        temp_hp=temp_hp,
        conditions=conditions,
        wounds=wounds,
    )
    return Combatant(sheet=sheet, vitals=vitals, **details)


def raw(sizes: tuple[int, ...], faces: list[int], **kwargs: Any) -> tuple[HitInputs, ScriptedDice]:
    dice = ScriptedDice(faces)
    types = kwargs.pop("types", PHYSICAL)
    pool = raw_damage_pool(sizes, types=types, lethal=kwargs.pop("lethal", True), **kwargs)
    return roll_inputs(pool, types, dice), dice


# --- the worked examples --------------------------------------------------------------------


def test_many_dice_example_keeps_the_7() -> None:
    inputs, dice = raw((10, 8, 6, 6), [4, 7, 4, 3])
    damage, _, suggested = choose_damage(inputs, None, dice)
    assert damage.amount == 7 and suggested
    assert damage.result is not None and damage.result.chosen_index == 1


def test_many_dice_example_with_two_sixes_is_7_plus_2() -> None:
    inputs, dice = raw((10, 8, 6, 6), [4, 7, 6, 6])
    damage, _, _ = choose_damage(inputs, None, dice)
    assert damage.amount == 9
    assert damage.result is not None and damage.result.max_bonus == 2


def test_greatsword_example_explodes_the_kept_10_into_14() -> None:
    warrior = fighter(strength=3)
    pool = weapon_pool(warrior, fighter("Target"), GREATSWORD)
    assert pool.sizes == (12, 10, 8)
    assert [d.role for d in pool.dice] == [DieRole.SOURCE, DieRole.LETHALITY, DieRole.ATTRIBUTE]
    dice = ScriptedDice([10, 7, 5, 4])  # d12 10, d10 7, d8 5; the d12 explodes: 4
    inputs = roll_inputs(pool, GREATSWORD.types, dice)
    damage, rolls, _ = choose_damage(inputs, None, dice)
    assert damage.amount == 14
    assert rolls.explosions == ((0, (4,)),)
    assert dice.remaining == 0


def test_toughness_4_against_8_and_against_3() -> None:
    target = fighter("Knight", armor=4)
    for face, lost in ((8, 4), (3, 1)):
        inputs, dice = raw((8,), [face])
        hit = resolve_hit(target, inputs, index=None, dice=dice)
        assert hit.application.hp_lost == lost
        assert hit.after.hp == target.vitals.hp - lost


def test_weakness_and_resistance_together() -> None:
    # Resistant to slash (+2 toughness) and weak to cold (+1d10 cold) against an ice blade.
    target = fighter(
        "Troll", armor=2, resistances=(DamageType.SLASH,), weaknesses=(DamageType.COLD,)
    )
    blade = WeaponUse(name="Ice blade", dice=(8,), types=(DamageType.SLASH, DamageType.COLD))
    pool = weapon_pool(fighter(strength=2), target, blade)
    assert [d.label for d in pool.dice] == ["source", "lethality", "attribute", "weakness:cold"]
    dice = ScriptedDice([3, 2, 1, 9])  # d8 3, d10 2, d6 1, weakness d10 9
    inputs = roll_inputs(pool, blade.types, dice)
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.damage.amount == 9
    assert hit.application.reduction == 4 and hit.application.resisted
    assert hit.application.hp_lost == 5


# --- damage application, temp HP, immunity -----------------------------------------------------


def test_temporary_hp_absorb_first() -> None:
    target = fighter(temp_hp=3)
    inputs, dice = raw((8,), [5])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.application.temporary_absorbed == 3
    assert hit.after.temp_hp == 0 and hit.after.hp == target.vitals.hp - 2


def test_immunity_to_every_type_empties_the_pool() -> None:
    target = fighter(immunities=(DamageType.FIRE,))
    inputs, dice = raw((8, 6), [], types=(DamageType.FIRE,), target_immunities=(DamageType.FIRE,))
    assert inputs.pool.immune and inputs.rolled is None
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.damage.amount == 0 and hit.application.immune and hit.after == target.vitals


def test_nonlethal_damage_is_recorded_and_knocks_out() -> None:
    target = fighter(hp=2)
    inputs, dice = raw((8,), [6], lethal=False)
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.after.hp == 0 and hit.after.nonlethal == 2
    assert hit.threshold.state is ThresholdState.KNOCKED_OUT
    assert {Condition.UNCONSCIOUS, Condition.STABLE} <= set(hit.after.conditions)


# --- threshold ----------------------------------------------------------------------------------


def test_threshold_test_success_staggers() -> None:
    target = fighter("Gob", strength=2, hp=1)  # physique 2 dice, willpower 2 (mind)
    inputs, dice = raw((4,), [2, 4, 5])  # 2 damage → −1; test vs 2: 4, 5
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None
    assert hit.threshold_test.skill.startswith("Physique")
    assert hit.threshold_test.outcome.result is ThresholdResult.STAGGERED
    assert Condition.STAGGERED in hit.after.conditions and hit.after.hp == -1


def test_threshold_test_advantage_acts_normally() -> None:
    target = fighter("Ogre", strength=3, hp=1)
    inputs, dice = raw((4,), [1, 6, 5, 4])  # 1 damage → 0; test vs 1: 3 successes
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None
    assert hit.threshold_test.outcome.result is ThresholdResult.ACTS_NORMALLY
    assert Condition.STAGGERED not in hit.after.conditions


def test_threshold_failure_and_failure_by_two() -> None:
    target = fighter("Gob", strength=2, hp=1)
    inputs, dice = raw((4,), [2, 4, 1])  # vs 2: 1 success → unconscious, stable
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert {Condition.UNCONSCIOUS, Condition.STABLE} <= set(hit.after.conditions)
    inputs, dice = raw((4,), [3, 1, 1])  # 3 damage → −2, vs 3: 0 successes → dying
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert {Condition.UNCONSCIOUS, Condition.DYING} <= set(hit.after.conditions)


def test_beyond_the_threshold_is_dead_and_no_wound_check() -> None:
    target = fighter("Gob", strength=2, hp=3)  # threshold −5
    inputs, dice = raw((12,), [12])  # 12 damage → −9
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.dead and hit.threshold.state is ThresholdState.DEAD
    assert hit.wound_check is None and dice.remaining == 0


def test_willpower_is_rolled_when_it_has_more_dice() -> None:
    target = fighter("Sage", strength=1, mind=3, hp=1)
    inputs, dice = raw((4,), [1, 4, 4, 4])  # 1 damage → 0; willpower 3 dice
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None and hit.threshold_test.skill.startswith("Willpower")


def test_staggered_banes_apply_to_the_threshold_test() -> None:
    target = fighter("Gob", strength=2, hp=1, conditions=Conditions.of(Condition.STAGGERED))
    inputs, dice = raw((4,), [1, 6])  # 2 dice − 1 (2 banes) = 1 die
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None and len(hit.threshold_test.roll.dice) == 1


# --- wounds -------------------------------------------------------------------------------------


def test_ten_damage_calls_for_a_wound_check_and_stores_the_wound() -> None:
    target = fighter("Bram", strength=3)  # 12 HP
    # d12 10 explodes 1 → 11 damage; wound check 9 → wound d10 2 (max HP −2); 2d4 3, 2.
    inputs, dice = raw((12,), [10, 1, 9, 2, 3, 2])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.application.after_reductions == 11 and hit.after.hp == 1
    assert hit.wound_check is not None and hit.wound_check.result is WoundCheckResult.WOUNDED
    [wound] = hit.after.wounds
    assert wound.kind is WoundKind.MAX_HP_MINUS_2 and wound.recovery_days == 3 + 2 + 4
    assert Condition.WOUNDED in hit.after.conditions
    assert hit.max_hp_after == 10


def test_wound_check_low_face_does_nothing() -> None:
    inputs, dice = raw((12,), [11, 3])
    hit = resolve_hit(fighter(strength=3), inputs, index=None, dice=dice)
    assert hit.wound_check is not None and hit.wound_check.result is WoundCheckResult.NOTHING
    assert hit.after.wounds == ()


def test_injury_internal_bleeding() -> None:
    # wound check 10 → wounds table 10 → injury d12 7: internal bleeding; 2d6 1, 1.
    inputs, dice = raw((12,), [11, 10, 10, 7, 1, 1])
    hit = resolve_hit(fighter(strength=4), inputs, index=None, dice=dice)
    [injury] = hit.after.wounds
    assert injury.kind is InjuryKind.INTERNAL_BLEEDING and injury.recovery_days == 12
    assert hit.after.conditions.value(Condition.BLEEDING) == 2


def test_as_many_wounds_as_strength_kills() -> None:
    old = Wound(WoundKind.SPEED_MINUS_10, 6)
    target = fighter("Gob", strength=2, wounds=(old,))
    inputs, dice = raw((12,), [10, 2, 8, 1, 1, 1])  # 12 damage → −2 inside; test; wound
    dice = ScriptedDice([10, 2, 6, 6, 8, 1, 1, 1])  # d12 10+2; test 6, 6; check 8; d10 1
    inputs = roll_inputs(inputs.pool, PHYSICAL, dice)
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert len(hit.after.wounds) == 2 and hit.dead
    assert any("strength" in cause for cause in hit.death_causes)


def test_wounded_values_change_max_hp_threshold_and_attributes() -> None:
    weak = Wound(WoundKind.STRENGTH_MINUS_1, 6)
    hurt = Wound(WoundKind.MAX_HP_MINUS_4, 6)
    target = fighter(strength=3, wounds=(weak, hurt))
    assert target.max_hp == (2 * 2 + 6) - 4 and target.threshold == -5
    assert target.effective_sheet.strength == 2
    vitals, cause = apply_wound_list(target, replace(target.vitals, hp=12))
    assert vitals.hp == 6 and cause is None and Condition.WOUNDED in vitals.conditions
    healed, _ = apply_wound_list(target, replace(vitals, wounds=()))
    assert Condition.WOUNDED not in healed.conditions


def test_threshold_difficulty_wound_makes_the_test_harder() -> None:
    target = fighter("Gob", strength=2, hp=1, wounds=(Wound(WoundKind.THRESHOLD_DIFFICULTY, 6),))
    inputs, dice = raw((4,), [2, 4, 5])
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert hit.threshold_test is not None and hit.threshold_test.outcome.difficulty == 3


# --- switching the kept die ---------------------------------------------------------------------


def test_switching_reuses_every_roll_already_made() -> None:
    target = fighter("Gob", strength=2, hp=3)
    pool = raw_damage_pool((10, 6), types=PHYSICAL, lethal=True)
    dice = ScriptedDice([10, 4, 2, 4, 4])  # d10 10 explodes 2 → 12: 3 − 12 = −9, beyond −5
    inputs = roll_inputs(pool, PHYSICAL, dice)
    first = resolve_hit(target, inputs, index=None, dice=dice)
    assert first.damage.amount == 12 and first.dead
    second = resolve_hit(target, inputs, index=1, dice=dice, prior=first.rolls)
    # d6 4 + 1 (the d10 at its maximum) = 5 → −2: a threshold test is rolled only now
    # (4, 4 vs 5 → failure by 3: dying).
    assert second.damage.amount == 5 and not second.suggested
    assert Condition.DYING in second.after.conditions
    assert second.threshold_test is not None and dice.remaining == 0
    back = resolve_hit(target, inputs, index=None, dice=ScriptedDice([]), prior=second.rolls)
    assert back.damage.amount == 12 and back.dead  # nothing new rolled
    again = resolve_hit(target, inputs, index=1, dice=ScriptedDice([]), prior=back.rolls)
    assert again.after == second.after


def test_rolls_round_trip_through_json() -> None:
    target = fighter(strength=3)
    inputs, dice = raw((12, 8), [11, 2, 9, 2, 3, 2], types=(DamageType.FIRE,))
    hit = resolve_hit(target, inputs, index=None, dice=dice)
    assert HitInputs.from_dict(inputs.to_dict()) == inputs
    assert PriorRolls.from_dict(hit.rolls.to_dict()) == hit.rolls
    assert Vitals.from_dict(hit.after.to_dict()) == hit.after


# --- the attack roll ----------------------------------------------------------------------------


def test_attack_clash_hit_then_damage() -> None:
    attacker, target = fighter(agility=2), fighter("Gob", strength=2, agility=1)
    # clash: attacker 5, 2 (1 success) vs defender 3 (0) → hit by 1; damage d12 6, d10 3, d8 2
    dice = ScriptedDice([5, 2, 3, 6, 3, 2])
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice)
    assert result.roll.mode is AttackMode.CLASH and result.roll.hit and result.roll.margin == 1
    assert result.roll.advantage is None
    assert result.hit is not None and result.hit.damage.amount == 6
    assert result.hit.after.hp == 10 - 6


def test_attack_miss_and_counter() -> None:
    attacker, target = fighter(agility=1), fighter("Gob", agility=2)
    dice = ScriptedDice([1, 5, 6])
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice)
    assert not result.roll.hit and result.roll.counter and result.hit is None


def test_repeated_clash_when_nobody_succeeds() -> None:
    attacker, target = fighter(agility=1), fighter("Gob", agility=1)
    dice = ScriptedDice([1, 2, 4, 1, 1, 1, 1])  # round 1: 1 vs 2; round 2: 4 vs 1 → hit
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice)
    assert result.roll.clash is not None and len(result.roll.clash.rounds) == 2
    assert result.roll.hit


def test_advantage_by_two_adds_impact_d8_by_default() -> None:
    attacker, target = fighter(agility=2), fighter("Gob", agility=1)
    dice = ScriptedDice([5, 6, 1, 1, 1, 1, 1])  # 2 vs 0 → advantage; pool d12 d10 d8 d8
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice)
    assert result.roll.advantage is Advantage.IMPACT_D8
    assert result.inputs is not None and result.inputs.pool.sizes == (12, 10, 8, 8)
    assert result.inputs.pool.dice[-1].role is DieRole.IMPACT


def test_chosen_advantage_tempo_adds_no_die() -> None:
    attacker, target = fighter(agility=2), fighter("Gob", agility=1)
    dice = ScriptedDice([5, 6, 1, 1, 1, 1])
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice, advantage=Advantage.TEMPO)
    assert result.roll.advantage is Advantage.TEMPO
    assert result.inputs is not None and result.inputs.pool.sizes == (12, 10, 8)


def test_defenseless_melee_target_is_hit_without_a_roll_with_advantage() -> None:
    target = fighter("Gob", conditions=Conditions.of(Condition.UNCONSCIOUS))
    dice = ScriptedDice([1, 1, 1, 1])
    result = resolve_attack(fighter(), target, GREATSWORD, dice=dice)
    assert result.roll.mode is AttackMode.DEFENSELESS_MELEE and result.roll.advantage
    assert result.inputs is not None and len(result.inputs.pool.dice) == 4


def test_defenseless_ranged_is_a_test() -> None:
    bow = WeaponUse(name="Bow", dice=(8,), kind=AttackKind.RANGED)
    target = fighter("Gob", conditions=Conditions.of(Condition.DEFENSELESS))
    dice = ScriptedDice([2, 3])  # 0 successes vs 1 → miss
    result = resolve_attack(fighter(), target, bow, dice=dice, difficulty=1)
    assert result.roll.mode is AttackMode.DEFENSELESS_RANGED and not result.roll.hit


def test_outnumbered_and_flanked_give_melee_boons_staggered_gives_banes() -> None:
    target = fighter("Gob", conditions=Conditions.of(Condition.OUTNUMBERED, Condition.FLANKED))
    attacker = fighter(conditions=Conditions.of(Condition.STAGGERED))
    assert attacker.roll_banes(attacker.sheet.spirit_attribute) == (("staggered", 2),)
    # AGI 2, 2 boons − 2 banes: net 0 → 2 dice vs defense 2 dice; then d12 d10 d8.
    dice = ScriptedDice([6, 1, 1, 1, 1, 1, 1])
    result = resolve_attack(attacker, target, GREATSWORD, dice=dice)
    assert sum(n for _, n in result.roll.boons) == 2
    assert result.roll.clash is not None and result.roll.clash.a.boons == 2
    assert result.roll.clash.a.banes == 2


def test_size_bonuses() -> None:
    assert size_attack_bonus(SizeCategory.MEDIUM, SizeCategory.LARGE) == (1, 0)
    assert size_attack_bonus(SizeCategory.SMALL, SizeCategory.COLOSSAL) == (0, 1)
    assert size_attack_bonus(SizeCategory.TINY, SizeCategory.HUGE) == (0, 2)
    assert size_attack_bonus(SizeCategory.LARGE, SizeCategory.MEDIUM) == (0, 0)
    ogre = fighter("Ogre", size=SizeCategory.LARGE)
    pool = weapon_pool(ogre, fighter("Gob", size=SizeCategory.SMALL), GREATSWORD)
    assert [d.role for d in pool.dice].count(DieRole.SIZE) == 1 and pool.sizes[-1] == 8


def test_dead_or_unconscious_attacker_and_dead_target_are_refused() -> None:
    dead = Conditions.of(Condition.DEAD)
    with pytest.raises(RulesError, match="dead"):
        resolve_attack(fighter(conditions=dead), fighter("Gob"), GREATSWORD, dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="already dead"):
        resolve_attack(
            fighter(), fighter("Gob", conditions=dead), GREATSWORD, dice=ScriptedDice([])
        )


# --- parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d10 1d8 2d6", ((10, 8, 6, 6), 0)),
        ("1d12+2", ((12,), 2)),
        ("d12, 2d6 -1", ((12, 6, 6), -1)),
        ("1D20", ((20,), 0)),
    ],
)
def test_parse_damage_dice(text: str, expected: tuple[tuple[int, ...], int]) -> None:
    assert parse_damage_dice(text) == expected


@pytest.mark.parametrize("text", ["1d7x", "1d7", "13d6", "0d6", "", "sword", "1d6+99"])
def test_parse_damage_dice_refuses(text: str) -> None:
    with pytest.raises(RulesError):
        parse_damage_dice(text)


def test_parse_damage_types() -> None:
    assert parse_damage_types(None) == PHYSICAL
    assert parse_damage_types("slash, fire") == (DamageType.SLASH, DamageType.FIRE)
    with pytest.raises(RulesError, match="not a damage type"):
        parse_damage_types("lava")
