"""Effective (wounded) values: the one place a character's values in play come from."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.errors import RulesError
from bot.rules.hocs.attack import Combatant, Vitals
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory, skill_pool
from bot.rules.hocs.conditions import NO_CONDITIONS, Condition, Conditions
from bot.rules.hocs.effective import EffectiveValues, effective_values
from bot.rules.hocs.skills import find_skill
from bot.rules.hocs.wounds import BaneScope, InjuryKind, Wound, WoundKind

ALL_KINDS: list[WoundKind | InjuryKind] = [*WoundKind, *InjuryKind]


def sheet(**values: object) -> CharacterSheet:
    base = {"name": "Mira", "strength": 3, "agility": 2, "mind": 2, "presence": 1}
    return CharacterSheet(**(base | values))  # type: ignore[arg-type]


def wounded(*kinds: WoundKind | InjuryKind, speed: int = 30, **values: object) -> EffectiveValues:
    return effective_values(sheet(**values), [Wound(k, 5) for k in kinds], speed=speed)


@pytest.mark.parametrize(
    ("strength", "agility", "size"),
    list(itertools.product(range(1, 6), range(1, 6), list(SizeCategory))),
)
def test_unwounded_values_are_the_sheets(strength: int, agility: int, size: SizeCategory) -> None:
    base = sheet(strength=strength, agility=agility, size=size, mind=3, presence=4)
    values = effective_values(base, speed=30)
    assert values.sheet == base and values.base == base
    assert values.max_hp == base.hit_points
    assert values.threshold == base.threshold
    assert values.recovery_max == base.recovery_points
    assert values.determination_max == base.determination_points
    assert values.carrying_capacity == base.carrying_capacity
    assert values.mettle == base.mettle
    assert values.speed == 30
    for attribute in Attribute:
        assert values.attribute(attribute) == base.attribute(attribute)
        assert values.attribute_die(attribute) == base.attribute_die(attribute)
    assert not values.wounded and not values.dead and values.unwounded is values


def test_max_hp_wound_lowers_only_the_maximum() -> None:
    values = wounded(WoundKind.MAX_HP_MINUS_4)  # STR 3: 12 HP
    assert values.max_hp == 8
    assert values.threshold == -6 and values.recovery_max == 3 and values.strength == 3
    assert values.unwounded.max_hp == 12


def test_strength_wound_lowers_strength_and_everything_that_follows_it() -> None:
    values = wounded(WoundKind.STRENGTH_MINUS_1)  # STR 3 → 2
    assert values.strength == 2 and values.sheet.strength == 2
    assert values.max_hp == 10  # 2×2+6
    assert values.threshold == -5
    assert values.recovery_max == 2
    assert values.carrying_capacity == 10  # medium 8 + 2
    assert values.attribute_die(Attribute.STRENGTH) == (6,)  # was 1d8
    assert values.determination_max == 3 and values.mettle == 2  # mind/presence untouched
    athletics = values.skill_pool("athletics")
    assert athletics.dice == skill_pool(values.base, "athletics").dice - 1 == 2
    assert athletics.label == "Athletics (STR 2)"
    assert values.skill_pool("agility").dice == 2  # agility untouched
    skill = find_skill("athletics")
    assert skill is not None and values.skill_value(skill) == 2


def test_strength_wound_and_max_hp_wound_stack() -> None:
    values = wounded(WoundKind.STRENGTH_AND_AGILITY_MINUS_1, WoundKind.MAX_HP_MINUS_2)
    assert (values.strength, values.agility) == (2, 1)
    assert values.max_hp == 8  # (2×2+6) − 2
    assert values.skill_pool("initiative").dice == 1


def test_attributes_roll_at_least_1_but_derived_values_follow_0() -> None:
    values = wounded(WoundKind.STRENGTH_MINUS_1, strength=1, agility=1)
    assert values.strength == 0 and values.sheet.strength == 1
    assert values.attribute_die(Attribute.STRENGTH) == (4,)
    assert values.max_hp == 6 and values.threshold == -3 and values.recovery_max == 0
    assert values.dead  # one wound, base strength 1


def test_speed_wounds() -> None:
    assert wounded(WoundKind.SPEED_MINUS_10, speed=30).speed == 20
    assert wounded(WoundKind.SPEED_MINUS_10, WoundKind.SPEED_HALVED, speed=30).speed == 10
    assert wounded(InjuryKind.BROKEN_LEG, speed=40).speed == 10
    assert wounded(WoundKind.SPEED_HALVED, speed=25).base_speed == 25
    with pytest.raises(RulesError):
        effective_values(sheet(), speed=-1)


def test_other_wound_effects_are_carried() -> None:
    values = wounded(
        WoundKind.THRESHOLD_DIFFICULTY, WoundKind.RESTING_MINUS_5, InjuryKind.INTERNAL_BLEEDING
    )
    assert values.threshold_difficulty == 1 and values.resting_value == -5
    assert values.bleeding == 2 and not values.out_of_game
    assert wounded(InjuryKind.FRACTURED_SKULL).out_of_game
    assert wounded(InjuryKind.BROKEN_ARM).strength_damage == -5


def test_roll_banes_from_conditions_and_injuries() -> None:
    conditions = Conditions.of(Condition.STAGGERED, fatigued=2)
    plain = wounded()
    assert plain.roll_banes(Attribute.MIND) == ()
    assert plain.roll_banes(Attribute.MIND, conditions) == (("staggered", 2), ("fatigued", 2))
    torso = wounded(InjuryKind.BROKEN_TORSO)
    assert torso.roll_banes(Attribute.STRENGTH) == (("injury", 5),)
    assert torso.roll_banes(Attribute.AGILITY) == (("injury", 5),)
    assert torso.roll_banes(Attribute.PRESENCE) == ()
    assert wounded(InjuryKind.FRACTURED_SKULL).roll_banes(Attribute.MIND) == (("injury", 5),)
    # Arm and leg injuries depend on the limb: the GM adds those.
    assert wounded(InjuryKind.BROKEN_ARM).roll_banes(Attribute.STRENGTH) == ()
    assert wounded(InjuryKind.BROKEN_ARM).injury_banes == ((BaneScope.ARM, 5),)


def test_hit_points_are_kept_within_the_wounded_maximum() -> None:
    values = wounded(WoundKind.MAX_HP_MINUS_4)  # max 8
    hp = values.hit_points(11, temporary=2, nonlethal=3)
    assert (hp.current, hp.maximum, hp.threshold, hp.temporary) == (8, 8, -6, 2)
    assert hp.nonlethal_taken == 0
    hp = values.hit_points(5, nonlethal=9)
    assert hp.current == 5 and hp.nonlethal_taken == 3


def test_death_from_wounds() -> None:
    assert not wounded(WoundKind.SPEED_MINUS_10, WoundKind.SPEED_MINUS_10).dead
    assert wounded(*[WoundKind.SPEED_MINUS_10] * 3).dead  # as many as strength 3
    assert wounded(WoundKind.MAX_HP_MINUS_4, WoundKind.MAX_HP_MINUS_4, strength=4).dead is False
    assert wounded(*[WoundKind.MAX_HP_MINUS_4] * 2, strength=1).max_hp == 0


def test_unwounded_view_of_a_wounded_character() -> None:
    values = wounded(WoundKind.STRENGTH_MINUS_1, WoundKind.SPEED_MINUS_10)
    base = values.unwounded
    assert (base.max_hp, base.strength, base.speed, base.wounds) == (12, 3, 30, ())


@given(
    strength=st.integers(1, 5),
    agility=st.integers(1, 5),
    kinds=st.lists(st.sampled_from(ALL_KINDS), max_size=6),
)
def test_combat_sees_the_same_values(
    strength: int, agility: int, kinds: list[WoundKind | InjuryKind]
) -> None:
    """Combat's ``Combatant`` (engineer A's) agrees with the one source of truth."""
    base = sheet(strength=strength, agility=agility)
    wounds = tuple(Wound(k, 5) for k in kinds)
    values = effective_values(base, wounds, speed=30)
    combatant = Combatant(sheet=base, vitals=Vitals(hp=0, wounds=wounds), speed=30)
    assert values.max_hp == combatant.max_hp
    assert values.threshold == combatant.threshold
    assert values.sheet == combatant.effective_sheet
    assert values.speed == combatant.wounded.speed
    for attribute in Attribute:
        assert values.roll_banes(attribute, NO_CONDITIONS) == combatant.roll_banes(attribute)


@given(
    strength=st.integers(1, 5),
    kinds=st.lists(st.sampled_from(ALL_KINDS), max_size=6),
)
def test_wounds_never_raise_a_value(strength: int, kinds: list[WoundKind | InjuryKind]) -> None:
    values = effective_values(sheet(strength=strength), [Wound(k, 5) for k in kinds], speed=30)
    base = values.unwounded
    assert 0 <= values.max_hp <= base.max_hp
    assert base.threshold <= values.threshold <= -3
    assert 0 <= values.recovery_max <= base.recovery_max
    assert 1 <= values.sheet.strength <= base.sheet.strength
    assert 0 <= values.speed <= base.speed
