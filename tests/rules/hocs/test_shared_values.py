"""Values the rules share or work out once for speed can never be stale.

Fresh skill dice are one shared instance per (origin, face), damage dice per (size,
face); a reroll, focus, guarantee or explosion must make a new value and leave the
shared one as it was. ``best_choice`` skips Fractions when no explosion is pending;
it must still pick what the exact expected totals pick. ``weapon_pool`` remembers
pools by their inputs, and effective values remember their skill pools: both must
answer what working them out afresh answers.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import Combatant, Vitals
from bot.rules.hocs.attack.weapons import WeaponUse, weapon_pool
from bot.rules.hocs.character import CharacterSheet, SizeCategory, skill_pool
from bot.rules.hocs.damage_pool import AttackKind, DamageType, Impact, build_damage_pool
from bot.rules.hocs.effective import effective_values
from bot.rules.hocs.many_dice import (
    RolledDie,
    RolledPool,
    best_choice,
    expected_total,
    resolve_choice,
    roll_one_result,
)
from bot.rules.hocs.many_dice import roll_pool as mdroll
from bot.rules.hocs.pool import DieOrigin, DieRoll, PoolSpec, RerollSource
from bot.rules.hocs.rolling import reroll_dice, roll_pool, throw_die
from bot.rules.hocs.wounds import Wound, WoundKind


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


def test_a_shared_damage_die_keeps_no_explosion_of_an_earlier_roll() -> None:
    first = roll_one_result((10, 10), ScriptedDice([10, 3, 10, 4]))
    assert (first.chosen_index, first.explosions, first.total) == (0, (10, 4), 24)
    again = mdroll((10, 10), ScriptedDice([10, 3]))
    assert again.dice == (RolledDie(10, 10), RolledDie(10, 3))
    assert [d.explosions for d in again.dice] == [(), ()]
    plain = resolve_choice(RolledPool(again.dice, exploding=False), 0, ScriptedDice([]))
    assert (plain.explosions, plain.total) == ((), 10)
    # An unusual size is built and checked as before, not looked up.
    assert mdroll((7,), ScriptedDice([7])).dice == (RolledDie(7, 7),)


_KINDS = list(AttackKind)
_TYPES = list(DamageType)


@settings(max_examples=150)
@given(
    st.lists(st.sampled_from((4, 6, 8, 10, 12)), min_size=1, max_size=2),
    st.sampled_from(_KINDS),
    st.integers(1, 5),
    st.lists(st.sampled_from(_TYPES), min_size=1, max_size=2),
    st.booleans(),
    st.sampled_from(list(SizeCategory)),
    st.sampled_from(list(SizeCategory)),
    st.lists(st.sampled_from(_TYPES), max_size=2),
    st.lists(st.sampled_from(_TYPES), max_size=2),
    st.sampled_from([None, *Impact]),
)
def test_weapon_pool_is_the_pool_built_afresh(
    source: list[int],
    kind: AttackKind,
    strength: int,
    types: list[DamageType],
    lethal: bool,
    attacker_size: SizeCategory,
    target_size: SizeCategory,
    weaknesses: list[DamageType],
    immunities: list[DamageType],
    impact: Impact | None,
) -> None:
    # Each draw changes one input or another; a remembered pool of other inputs would
    # differ from the one build_damage_pool (not remembered) works out here.
    sheet = CharacterSheet(
        name="Ash", strength=strength, agility=strength, mind=strength, presence=1,
        size=attacker_size,
    )  # fmt: skip
    attacker = Combatant(sheet=sheet, vitals=Vitals(hp=sheet.hit_points))
    target_sheet = CharacterSheet(
        name="Bo", strength=2, agility=2, mind=2, presence=2, size=target_size
    )
    target = Combatant(
        sheet=target_sheet,
        vitals=Vitals(hp=target_sheet.hit_points),
        weaknesses=tuple(weaknesses),
        immunities=tuple(immunities),
    )
    weapon = WeaponUse(name="w", dice=tuple(source), types=tuple(types), kind=kind, lethal=lethal)
    built = functools.partial(
        build_damage_pool,
        source=tuple(source),
        attack_kind=kind,
        attribute=attacker.attack_attribute(kind),
        types=tuple(types),
        lethal=lethal,
        attacker_size=attacker_size,
        impact=impact,
    )
    expected = built(
        target_size=target_size,
        target_weaknesses=tuple(weaknesses),
        target_immunities=tuple(immunities),
    )
    assert weapon_pool(attacker, target, weapon, impact=impact) == expected
    alone = weapon_pool(attacker, None, weapon, impact=impact)
    assert alone == built(target_size=attacker_size)


def test_a_remembered_pool_follows_the_attackers_wounds() -> None:
    sheet = CharacterSheet(name="Ash", strength=4, agility=2, mind=2, presence=1)
    weapon = WeaponUse(name="axe", dice=(8,))
    whole = Combatant(sheet=sheet, vitals=Vitals(hp=14))
    hurt = whole.with_vitals(Vitals(hp=14, wounds=(Wound(WoundKind.STRENGTH_MINUS_1, 7),)))
    assert [d.sides for d in weapon_pool(whole, None, weapon).dice] == [8, 10, 8, 8]
    assert [d.sides for d in weapon_pool(hurt, None, weapon).dice] == [8, 10, 8]
    assert [d.sides for d in weapon_pool(whole, None, weapon).dice] == [8, 10, 8, 8]


def test_effective_values_remember_only_their_own_skill_pools() -> None:
    sheet = CharacterSheet(
        name="Ash", strength=3, agility=2, mind=2, presence=1, training={"Athletics": 1}
    )
    whole = effective_values(sheet, speed=30)
    hurt = effective_values(sheet, [Wound(WoundKind.STRENGTH_MINUS_1, 7)], speed=30)
    assert whole.skill_pool("Athletics").dice == 4
    assert hurt.skill_pool("Athletics").dice == 3
    assert whole.skill_pool("Athletics").dice == 4
    assert whole.skill_pool("athletics") == skill_pool(whole.sheet, "athletics")
    # A refusal is asked again (and refused again), never remembered as something else.
    for _ in range(2):
        with pytest.raises(RulesError):
            whole.skill_pool("Alchemy")
    # However many spellings are asked, each answer is the sheet's own.
    for n in range(40):
        name = "".join(c.upper() if (n >> i) & 1 else c for i, c in enumerate("strength"))
        assert whole.skill_pool(name) == skill_pool(whole.sheet, name)


def test_an_unwounded_character_rolls_with_its_own_sheet_and_a_wounded_one_does_not() -> None:
    sheet = CharacterSheet(name="Ash", strength=3, agility=2, mind=2, presence=1)
    assert effective_values(sheet, speed=30).sheet is sheet
    hurt = effective_values(sheet, [Wound(WoundKind.STRENGTH_AND_AGILITY_MINUS_1, 9)], speed=30)
    assert (hurt.sheet.strength, hurt.sheet.agility) == (2, 1)
    assert (sheet.strength, sheet.agility) == (3, 2)
    assert effective_values(sheet, speed=30).skill_pool("Strength").dice == 3
    assert hurt.skill_pool("Strength").dice == 2
