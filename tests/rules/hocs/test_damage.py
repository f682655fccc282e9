from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.errors import RulesError
from bot.rules.hocs.damage import (
    HitPoints,
    apply_damage,
    gain_temporary_hp,
    heal,
    reduction_for,
    restore_nonlethal,
    with_maximum,
)
from bot.rules.hocs.damage_pool import DamageType

PHYSICAL = DamageType.PHYSICAL
FIRE = DamageType.FIRE
MENTAL = DamageType.MENTAL


def full(strength: int = 3) -> HitPoints:
    return HitPoints.for_strength(strength)


def test_hit_points_and_threshold_from_strength() -> None:
    hp = HitPoints.for_strength(3)
    assert (hp.current, hp.maximum, hp.threshold) == (12, 12, -6)


def test_text_example_toughness_four_against_eight() -> None:
    result = apply_damage(full(), 8, toughness=4)
    assert result.hp_lost == 4
    assert result.after.current == 8


def test_text_example_toughness_four_against_three_still_costs_one() -> None:
    result = apply_damage(full(), 3, toughness=4)
    assert result.after_reductions == 1
    assert result.hp_lost == 1


def test_mettle_reduces_mental_damage_and_toughness_does_not() -> None:
    result = apply_damage(full(), 6, types=(MENTAL,), toughness=5, mettle=2)
    assert result.reduction == 2
    assert result.hp_lost == 4


def test_text_example_flaming_arrow_uses_toughness_plus_fire_resistance() -> None:
    # Physical + fire vs toughness 1 and resistance to fire: +2 → 3.
    result = apply_damage(full(), 9, types=(PHYSICAL, FIRE), toughness=1, resistances=(FIRE,))
    assert result.resisted
    assert result.reduction == 3
    assert result.hp_lost == 6


def test_text_example_resistance_with_a_weakness_die_in_the_same_attack() -> None:
    # Resistance to slash gives +2 toughness while the attacker adds +1d10 cold for
    # a cold weakness; the pool's damage types are slash and cold.
    result = apply_damage(
        full(),
        10,
        types=(DamageType.SLASH, DamageType.COLD),
        toughness=2,
        resistances=(DamageType.SLASH,),
    )
    assert result.reduction == 4
    assert result.hp_lost == 6


def test_only_one_resistance_applies() -> None:
    reduction, resisted = reduction_for(
        (DamageType.SLASH, FIRE), toughness=1, mettle=0, resistances=(FIRE, DamageType.SLASH)
    )
    assert (reduction, resisted) == (3, True)


def test_mixed_toughness_and_mettle_damage_uses_the_lower() -> None:
    assert reduction_for((PHYSICAL, MENTAL), toughness=4, mettle=1) == (1, False)


def test_immunity_to_every_type_costs_nothing() -> None:
    result = apply_damage(full(), 20, types=(FIRE,), immunities=(FIRE,))
    assert result.immune
    assert result.hp_lost == 0 and result.after == result.before


def test_partial_immunity_still_damages_with_the_other_type() -> None:
    result = apply_damage(full(), 5, types=(PHYSICAL, FIRE), immunities=(FIRE,), toughness=1)
    assert not result.immune
    assert result.hp_lost == 4


def test_immunity_to_physical_covers_blunt() -> None:
    result = apply_damage(full(), 5, types=(DamageType.BLUNT,), immunities=(PHYSICAL,))
    assert result.immune


def test_temporary_hit_points_absorb_first() -> None:
    hp = gain_temporary_hp(full(), 5)
    result = apply_damage(hp, 8, toughness=1)
    assert result.after_reductions == 7
    assert result.temporary_absorbed == 5
    assert result.hp_lost == 2
    assert result.after.temporary == 0
    assert result.after.current == 10


def test_only_one_instance_of_temporary_hit_points_is_kept() -> None:
    hp = gain_temporary_hp(gain_temporary_hp(full(), 5), 3)
    assert hp.temporary == 5
    assert gain_temporary_hp(hp, 30).temporary == 30  # may exceed maximum HP


def test_non_lethal_damage_is_tracked_and_stops_at_zero() -> None:
    first = apply_damage(full(), 5, lethal=False)
    assert first.after.nonlethal_taken == 5
    second = apply_damage(first.after, 20, lethal=False)
    assert second.after.current == 0
    assert second.hp_lost == 7
    assert second.after.nonlethal_taken == 12
    assert restore_nonlethal(second.after).current == 12


def test_lethal_damage_can_go_beyond_the_threshold() -> None:
    result = apply_damage(full(), 20)
    assert result.after.current == -8
    assert result.after.is_beyond_threshold


def test_heal_caps_at_maximum_and_trims_non_lethal_tally() -> None:
    hp = apply_damage(full(), 4, lethal=False).after
    healed = heal(hp, 3)
    assert healed.current == 11 and healed.nonlethal_taken == 1
    assert heal(healed, 50).current == 12


def test_with_maximum_caps_current() -> None:
    assert with_maximum(full(), 8).current == 8


def test_invalid_inputs_are_refused() -> None:
    with pytest.raises(RulesError):
        apply_damage(full(), -1)
    with pytest.raises(RulesError):
        apply_damage(full(), 3, toughness=-1)
    with pytest.raises(RulesError):
        HitPoints(current=13, maximum=12, threshold=-6)
    with pytest.raises(RulesError):
        heal(full(), -2)


def test_hit_points_round_trip() -> None:
    hp = apply_damage(gain_temporary_hp(full(), 2), 6, lethal=False).after
    assert HitPoints.from_dict(hp.to_dict()) == hp


# --- invariants -------------------------------------------------------------

types_strategy = st.lists(st.sampled_from(list(DamageType)), min_size=1, max_size=3, unique=True)


@st.composite
def hit_points(draw: st.DrawFn) -> HitPoints:
    strength = draw(st.integers(1, 5))
    hp = HitPoints.for_strength(strength)
    current = draw(st.integers(hp.threshold, hp.maximum))
    nonlethal = draw(st.integers(0, hp.maximum - current))
    return HitPoints(
        current=current,
        maximum=hp.maximum,
        threshold=hp.threshold,
        temporary=draw(st.integers(0, 10)),
        nonlethal_taken=nonlethal,
    )


@settings(max_examples=300, deadline=None)
@given(
    hp=hit_points(),
    amount=st.integers(1, 60),
    types=types_strategy,
    lethal=st.booleans(),
    toughness=st.integers(0, 10),
    mettle=st.integers(0, 10),
    resistances=st.lists(st.sampled_from(list(DamageType)), max_size=3),
    immunities=st.lists(st.sampled_from(list(DamageType)), max_size=2),
)
def test_damage_always_costs_at_least_one_unless_immune(
    hp: HitPoints,
    amount: int,
    types: list[DamageType],
    lethal: bool,
    toughness: int,
    mettle: int,
    resistances: list[DamageType],
    immunities: list[DamageType],
) -> None:
    result = apply_damage(
        hp,
        amount,
        types=types,
        lethal=lethal,
        toughness=toughness,
        mettle=mettle,
        resistances=resistances,
        immunities=immunities,
    )
    if result.immune:
        assert result.after == hp
    else:
        assert result.after_reductions >= 1
        to_hp = result.after_reductions - result.temporary_absorbed
        if lethal:
            assert result.temporary_absorbed + result.hp_lost >= 1
            assert result.hp_lost == to_hp
        else:
            # Non-lethal damage stops at 0 hit points (ruling).
            assert result.hp_lost == min(to_hp, max(0, hp.current))
    assert result.after.current <= hp.current
    if not lethal:
        assert result.after.current >= min(0, hp.current)


@settings(max_examples=300, deadline=None)
@given(hp=hit_points(), amount=st.integers(0, 100))
def test_healing_never_exceeds_maximum(hp: HitPoints, amount: int) -> None:
    healed = heal(hp, amount)
    assert hp.current <= healed.current <= hp.maximum
    assert restore_nonlethal(healed).current <= hp.maximum
