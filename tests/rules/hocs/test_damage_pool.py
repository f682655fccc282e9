from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.character import SizeCategory
from bot.rules.hocs.damage_pool import (
    AttackKind,
    DamageType,
    Defense,
    DieRole,
    Impact,
    build_damage_pool,
    resolve_damage,
    roll_damage,
    roll_damage_pool,
    size_dice,
)

PHYSICAL = DamageType.PHYSICAL
FIRE = DamageType.FIRE


def test_text_example_greatsword_pool_and_roll() -> None:
    # Warrior STR 3 with a greatsword, lethal: 1d12 source, 1d10 lethality, 1d8 STR.
    pool = build_damage_pool(source=(12,), attack_kind=AttackKind.MELEE, attribute=3)
    assert pool.sizes == (12, 10, 8)
    assert [d.label for d in pool.dice] == ["source", "lethality", "attribute"]
    assert pool.lethal
    assert pool.types == (PHYSICAL,)
    # Pool order differs from the text's reading order: source 10, lethality 7, STR 5.
    damage = roll_damage(pool, ScriptedDice([10, 7, 5, 4]))
    assert damage.chosen_die is not None and damage.chosen_die.role is DieRole.SOURCE
    assert damage.amount == 14


def test_non_lethal_attack_has_no_lethality_die() -> None:
    pool = build_damage_pool(source=(6,), attack_kind=AttackKind.MELEE, attribute=2, lethal=False)
    assert pool.sizes == (6, 6)
    assert not pool.lethal


def test_strength_four_adds_two_d8_and_ranged_uses_the_given_attribute() -> None:
    pool = build_damage_pool(source=(8,), attack_kind=AttackKind.RANGED, attribute=4)
    assert [(d.sides, d.role) for d in pool.dice] == [
        (8, DieRole.SOURCE),
        (10, DieRole.LETHALITY),
        (8, DieRole.ATTRIBUTE),
        (8, DieRole.ATTRIBUTE),
    ]


def test_attribute_outside_the_table_is_refused() -> None:
    with pytest.raises(RulesError):
        build_damage_pool(source=(6,), attack_kind=AttackKind.MAGIC, attribute=6)


def test_empty_source_is_refused() -> None:
    with pytest.raises(RulesError, match="source die"):
        build_damage_pool(source=(), attack_kind=AttackKind.MELEE, attribute=1)


@pytest.mark.parametrize(
    ("attacker", "target", "expected"),
    [
        (SizeCategory.MEDIUM, SizeCategory.MEDIUM, ()),
        (SizeCategory.LARGE, SizeCategory.SMALL, (8,)),  # same group: one d8
        (SizeCategory.SMALL, SizeCategory.LARGE, ()),
        (SizeCategory.SMALL, SizeCategory.TINY, (10,)),  # one group smaller
        (SizeCategory.COLOSSAL, SizeCategory.FINE, (10, 10)),
        (SizeCategory.TINY, SizeCategory.HUGE, ()),
    ],
)
def test_size_dice(attacker: SizeCategory, target: SizeCategory, expected: tuple[int, ...]) -> None:
    assert size_dice(attacker, target) == expected


def test_size_weakness_and_impact_dice_are_labelled() -> None:
    pool = build_damage_pool(
        source=(6,),
        types=(DamageType.BLUNT, DamageType.HOLY),
        attack_kind=AttackKind.MELEE,
        attribute=1,
        attacker_size=SizeCategory.HUGE,
        target_size=SizeCategory.MEDIUM,
        target_weaknesses=(DamageType.HOLY, DamageType.BLUNT, DamageType.COLD),
        impact=Impact.D8,
    )
    assert [(d.sides, d.label) for d in pool.dice] == [
        (6, "source"),
        (10, "lethality"),
        (4, "attribute"),
        (10, "size"),
        (10, "weakness:holy"),
        (10, "weakness:blunt"),
        (8, "impact"),
    ]
    assert pool.types == (DamageType.BLUNT, DamageType.HOLY)


def test_weakness_to_physical_covers_slash_but_not_the_reverse() -> None:
    pool = build_damage_pool(
        source=(8,),
        types=(DamageType.SLASH,),
        attack_kind=AttackKind.MELEE,
        attribute=1,
        target_weaknesses=(PHYSICAL, DamageType.PIERCE),
    )
    assert [d.label for d in pool.dice if d.role is DieRole.WEAKNESS] == ["weakness:physical"]
    plain = build_damage_pool(
        source=(8,),
        attack_kind=AttackKind.MELEE,
        attribute=1,
        target_weaknesses=(DamageType.SLASH,),
    )
    assert not [d for d in plain.dice if d.role is DieRole.WEAKNESS]


def test_immunity_drops_the_weakness_die_of_that_type_but_not_the_attack() -> None:
    # Flaming arrow (physical + fire) vs a target immune to fire and weak to fire.
    pool = build_damage_pool(
        source=(8,),
        types=(PHYSICAL, FIRE),
        attack_kind=AttackKind.RANGED,
        attribute=2,
        target_weaknesses=(FIRE,),
        target_immunities=(FIRE,),
        bonus_dice=((6, FIRE),),
    )
    assert pool.sizes == (8, 10, 6)
    assert all(d.types == (PHYSICAL,) for d in pool.dice)
    assert pool.types == (PHYSICAL,)


def test_immune_to_every_type_means_no_damage() -> None:
    pool = build_damage_pool(
        source=(6,),
        types=(FIRE,),
        attack_kind=AttackKind.MAGIC,
        attribute=3,
        target_immunities=(FIRE,),
    )
    assert pool.immune and pool.dice == ()
    dice = ScriptedDice([])
    assert roll_damage_pool(pool, dice) is None
    assert roll_damage(pool, dice).amount == 0


def test_bonus_die_type_triggers_a_weakness() -> None:
    pool = build_damage_pool(
        source=(8,),
        attack_kind=AttackKind.MELEE,
        attribute=1,
        target_weaknesses=(DamageType.COLD,),
        bonus_dice=((6, DamageType.COLD),),
    )
    assert [d.label for d in pool.dice][-2:] == ["weakness:cold", "bonus"]
    assert pool.types == (PHYSICAL, DamageType.COLD)


def test_two_step_roll_lets_the_player_pick_another_die() -> None:
    pool = build_damage_pool(source=(12,), attack_kind=AttackKind.MELEE, attribute=3)
    dice = ScriptedDice([10, 7, 8])
    rolled = roll_damage_pool(pool, dice)
    damage = resolve_damage(pool, rolled, 2, dice, bonus=1)  # keep the d8's 8
    assert damage.amount == 8 + 1  # no discarded die at its maximum
    assert damage.result is not None and damage.result.explosions == ()


def test_resolve_refuses_dice_from_another_pool() -> None:
    pool = build_damage_pool(source=(12,), attack_kind=AttackKind.MELEE, attribute=3)
    other = build_damage_pool(source=(6,), attack_kind=AttackKind.MELEE, attribute=3)
    rolled = roll_damage_pool(other, ScriptedDice([1, 1, 1]))
    with pytest.raises(RulesError):
        resolve_damage(pool, rolled, None, ScriptedDice([]))


def test_damage_type_defences() -> None:
    assert DamageType.MENTAL.defense is Defense.METTLE
    assert DamageType.SPIRITUAL.defense is Defense.METTLE
    assert FIRE.defense is Defense.TOUGHNESS
    assert DamageType.BLUNT.is_physical and not FIRE.is_physical
