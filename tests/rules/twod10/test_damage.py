"""Damage: categories moved by the table (floor and cap), extra dice, armor, AP, shields."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackerStats, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.categories import Category, DamageDice, shift
from bot.rules.twod10.damage import DamageSpec, Defenses, roll_damage
from bot.rules.twod10.equipment import (
    ARMORS,
    SHIELDS,
    WEAPONS,
    Size,
    shield,
    spend_block,
    thrown_range,
    weapon,
)
from bot.rules.twod10.tasks import roll_task
from bot.rules.twod10.wielding import improvised_weapon, unarmed, unarmed_dice, wield

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=1, brawl=2)
# Defense 4 (finesse 2 + Defense 2): the attack total is natural + 2 + 2 - 4 = natural.
UNARMORED = TargetStats(attribute=Attribute.FINESSE, defense=4)


def armored(reduction: int) -> TargetStats:
    return TargetStats(attribute=Attribute.FINESSE, defense=4, reduction=reduction, armored=True)


def test_weapon_table() -> None:
    table = {w.name: (w.damage.label, w.thrown, w.reach, w.ignores_reduction) for w in WEAPONS}
    assert table == {
        "Concealable sword": ("1d4+1", True, False, 0),
        "Light sword": ("1d6+1", False, False, 0),
        "One-handed sword": ("1d8+2", False, False, 0),
        "Two-handed sword 2d6": ("2d6+2", False, False, 0),
        "Two-handed sword 1d12": ("1d12+2", False, False, 0),
        "Light axe": ("1d6", True, False, 0),
        "One-handed axe": ("1d8", False, False, 0),
        "Two-handed axe": ("1d12", False, False, 0),
        "Concealable blunt": ("1d4", False, False, 0),
        "Light blunt": ("1d6", False, False, 2),
        "One-handed blunt": ("1d8", False, False, 3),
        "Two-handed blunt 2d6": ("2d6", False, False, 4),
        "Two-handed blunt 1d12": ("1d12", False, False, 4),
        "Light polearm": ("1d6", True, False, 0),
        "One-handed polearm": ("1d8", True, True, 0),
        "Two-handed polearm": ("1d10", False, True, 0),
        "Shortbow": ("1d6", False, False, 0),
        "Longbow": ("1d8", False, False, 0),
        "Hand crossbow": ("1d6", False, False, 3),
        "Light crossbow": ("1d8", False, False, 4),
        "Heavy crossbow": ("1d10", False, False, 5),
        "Sling": ("1d4", False, False, 0),
    }
    assert weapon("shortbow").range_feet == 60 and weapon("LONGBOW").range_feet == 80
    assert weapon("sling").range_feet == 60 and weapon("sling").bonus_second_attack
    assert weapon("two-handed axe").extra_die_from == 18
    assert weapon("one handed axe").extra_die_from == 19
    assert weapon("two-handed sword 2d6").extra_die_from == 19
    assert weapon("light sword").extra_die_from is None
    assert weapon("heavy crossbow").weight == 2 and weapon("two-handed polearm").weight == 2
    assert weapon("longbow").endless_cleave and weapon("light axe").endless_cleave
    assert not weapon("hand crossbow").endless_cleave and weapon("hand crossbow").one_hand_fire
    # Ruling weapon-weights: bows are two-handed (2); hand and light crossbows, slings 1.
    assert weapon("longbow").weight == 2 and weapon("shortbow").weight == 2
    assert weapon("hand crossbow").weight == 1 and weapon("light crossbow").weight == 1
    assert weapon("sling").weight == 1 and weapon("concealable sword").weight == 1
    assert thrown_range(2) == 30 and thrown_range(-1) == 15
    with pytest.raises(RulesError, match="not a weapon"):
        weapon("lightsaber")


def test_armor_and_shield_tables() -> None:
    assert [(a.name, a.reduction, a.penalty, a.weight) for a in ARMORS] == [
        ("Gambeson", 1, 0, 1),
        ("Leather", 2, 1, 1),
        ("Brigandine", 3, 2, 2),
        ("Chain shirt", 4, 2, 2),
        ("Hauberk", 5, 3, 3),
        ("Lamellar", 7, 4, 3),
        ("Plate", 8, 4, 3),
    ]
    assert [(s.name, s.reduction, s.penalty, s.blocks, s.weight) for s in SHIELDS] == [
        ("Buckler", 2, 0, 1, 1),
        ("Light round shield", 3, 1, 2, 1),
        ("Heavy round shield", 3, 1, 3, 2),
        ("Light large shield", 4, 2, 2, 2),
        ("Heavy large shield", 4, 2, 4, 3),
    ]


def test_ladder_shift_floor_and_cap() -> None:
    # "A +1 dice category would increase a 1d4 to a 1d6 for example."
    assert shift(Category.D4, 1, miss=False).category is Category.D6
    assert shift(Category.D8, 1, miss=False).category is Category.D10
    capped = shift(Category.D8, 5, miss=False)
    assert capped.category is Category.D12 and capped.capped
    assert shift(Category.D8, -2, miss=True).category is Category.D4
    assert shift(Category.D8, -3, miss=True).category is None  # below a d4: no damage
    assert shift(Category.D4, -1, miss=False).category is Category.D3  # a hit keeps a die
    assert shift(Category.ONE, -3, miss=False).category is Category.ONE


# One-handed sword 1d8+2 and strength 2, against an unarmored defense 4.
@pytest.mark.parametrize(
    ("natural", "faces", "sides", "dice_total"),
    [
        ((1, 4), (), None, None),  # 5: d8 -5 is below d4
        ((2, 4), (), None, None),  # 6: -4
        ((3, 4), (), None, None),  # 7: -3 → d3, below d4
        ((4, 4), (3,), 4, 3),  # 8: -2 → d4
        ((4, 5), (5,), 6, 5),  # 9: -1 → d6
        ((5, 5), (7,), 8, 7),  # 10: normal
        ((6, 6), (9,), 10, 9),  # 12: +1 → d10
        ((7, 7), (11,), 12, 11),  # 14: +2 → d12
        ((9, 9), (12,), 12, 12),  # 18: +4, capped at d12
    ],
)
def test_sword_damage_in_each_band(
    natural: tuple[int, int], faces: tuple[int, ...], sides: int | None, dice_total: int | None
) -> None:
    result = roll_attack(
        wield(weapon("one-handed sword")), FIGHTER, UNARMORED, dice=ScriptedDice([*natural, *faces])
    )
    assert result.roll is not None and result.roll.total == sum(natural)
    assert result.damage is not None
    if sides is None:
        assert not result.damage.deals_damage and result.damage_total == 0
        return
    assert [f.sides for f in result.damage.faces] == [sides]
    assert result.damage_total == dice_total + 2 + 2  # weapon +2, strength 2


def test_natural_twenty_adds_two_dice_of_the_moved_category() -> None:
    # 20: +5 categories from d8 caps at d12; two extra d12s.
    result = roll_attack(
        wield(weapon("one-handed sword")), FIGHTER, UNARMORED,
        dice=ScriptedDice([10, 10, 6, 5, 4]),
    )  # fmt: skip
    assert result.damage is not None
    assert [f.sides for f in result.damage.faces] == [12, 12, 12]
    assert result.damage.natural_twenty_dice == 2
    assert result.damage_total == 6 + 5 + 4 + 2 + 2


def test_two_handed_and_axe_high_roll_dice() -> None:
    # Two-handed sword 2d6+2 on a natural 19: +4 categories (2d12), one extra die.
    result = roll_attack(
        wield(weapon("two-handed sword 2d6")), FIGHTER, UNARMORED,
        dice=ScriptedDice([10, 9, 1, 2, 3]),
    )  # fmt: skip
    assert result.damage is not None and result.damage.weapon_extra_dice == 1
    assert [f.sides for f in result.damage.faces] == [12, 12, 12]
    # Natural 20 with a two-handed weapon: 2 + 1 extra dice (ruling extra-dice).
    result = roll_attack(
        wield(weapon("two-handed sword 1d12")), FIGHTER, UNARMORED,
        dice=ScriptedDice([10, 10, 1, 1, 1, 1]),
    )  # fmt: skip
    assert result.damage is not None and len(result.damage.faces) == 4
    # Two-handed axe on 18 gets its die; a one-handed axe doesn't.
    two_axe = roll_attack(
        wield(weapon("two-handed axe")), FIGHTER, armored(0), dice=ScriptedDice([9, 9, 5, 6])
    )
    assert two_axe.damage is not None and two_axe.damage.weapon_extra_dice == 1
    one_axe = roll_attack(
        wield(weapon("one-handed axe")), FIGHTER, armored(0), dice=ScriptedDice([9, 9, 5])
    )
    assert one_axe.damage is not None and one_axe.damage.weapon_extra_dice == 0
    # A light sword has no high-roll die.
    light = roll_attack(
        wield(weapon("light sword")), FIGHTER, UNARMORED, dice=ScriptedDice([10, 9, 4])
    )
    assert light.damage is not None and light.damage.weapon_extra_dice == 0


def test_extra_dice_need_a_hit() -> None:
    tough = TargetStats(attribute=Attribute.FINESSE, defense=15)
    result = roll_attack(
        wield(weapon("two-handed sword 1d12")), FIGHTER, tough, dice=ScriptedDice([10, 10, 3])
    )
    # 20 + 4 - 15 = 9: a miss, d12 -1 = d10, no extra dice although the roll was natural 20.
    assert result.roll is not None and result.roll.total == 9
    assert result.damage is not None and [f.sides for f in result.damage.faces] == [10]
    assert result.damage.natural_twenty_dice == 0 and result.damage.weapon_extra_dice == 0


def test_natural_two_deals_nothing() -> None:
    big = AttackerStats(finesse=6, strength=6, melee=6)
    result = roll_attack(
        wield(weapon("one-handed sword")), big, UNARMORED, dice=ScriptedDice([1, 1])
    )
    assert result.roll is not None and result.roll.total == 10 and result.roll.natural_two
    assert result.damage is not None and result.damage_total == 0


def test_axe_against_unarmored_rolls_twice() -> None:
    result = roll_attack(
        wield(weapon("one-handed axe")), FIGHTER, UNARMORED, dice=ScriptedDice([5, 5, 2, 7])
    )
    assert result.damage is not None
    face = result.damage.faces[0]
    assert (face.face, face.other) == (7, 2)
    assert result.damage_total == 7 + 2
    # Armored: a single throw.
    worn = roll_attack(
        wield(weapon("one-handed axe")), FIGHTER, armored(1), dice=ScriptedDice([5, 5, 2])
    )
    assert worn.damage is not None and worn.damage.faces[0].other is None
    assert worn.damage_total == 2 + 2 - 1


def test_damage_reduction_armor_piercing_and_floor() -> None:
    # One-handed blunt ignores 3 of chain shirt's 4: 1d8 (6) + 2 - 1 = 7.
    blunt = roll_attack(
        wield(weapon("one-handed blunt")), FIGHTER, armored(4), dice=ScriptedDice([5, 5, 6])
    )
    assert blunt.damage is not None and blunt.damage.reduction == 1 and blunt.damage_total == 7
    # A sword against plate and a large shield (12): 1d8 (1) + 2 + 2 = 5, floored at 1.
    sword = roll_attack(
        wield(weapon("one-handed sword")), FIGHTER, armored(12), dice=ScriptedDice([5, 5, 1])
    )
    assert sword.damage is not None and sword.damage.rolled == 5 and sword.damage_total == 1
    # Armor piercing never makes reduction negative.
    crossbow = roll_attack(
        wield(weapon("heavy crossbow")), FIGHTER, armored(2), dice=ScriptedDice([5, 6, 7])
    )
    assert crossbow.damage is not None and crossbow.damage.reduction == 0
    assert crossbow.damage_total == 7  # ranged adds no attribute


def test_shield_block_halves_before_reduction() -> None:
    spec = DamageSpec(dice=DamageDice(count=1, category=Category.D10), attribute_bonus=2)
    attack = roll_task(attribute=0, dice=ScriptedDice([5, 5]))
    result = roll_damage(
        spec, attack, Defenses(reduction=3, armored=True, block=True), dice=ScriptedDice([9])
    )
    # (9 + 2) // 2 = 5, less 3 = 2.
    assert (result.rolled, result.after_block, result.total) == (11, 5, 2)
    tiny = roll_damage(
        spec, attack, Defenses(reduction=3, armored=True, block=True), dice=ScriptedDice([1])
    )
    assert tiny.total == 1  # ruling reduction-floor


def test_block_uses_break_the_shield() -> None:
    round_heavy = shield("heavy round shield")
    first = spend_block(round_heavy, 0)
    assert (first.used, first.left, first.broken) == (1, 2, False)
    last = spend_block(round_heavy, 2)
    assert last.broken
    with pytest.raises(RulesError, match="broken"):
        spend_block(round_heavy, 3)
    assert spend_block(shield("buckler"), 0).broken


def test_attribute_added_by_attack_kind() -> None:
    faces = [5, 5, 3]
    melee = roll_attack(wield(weapon("light sword")), FIGHTER, UNARMORED, dice=ScriptedDice(faces))
    assert melee.plan.spec.attribute_bonus == 2
    weak = AttackerStats(finesse=3, strength=-1, melee=1)
    fin = roll_attack(wield(weapon("light sword")), weak, UNARMORED, use_finesse=True,
                      dice=ScriptedDice(faces))  # fmt: skip
    assert fin.plan.spec.attribute_bonus == 0  # "either 0 or strength": the better
    brute = roll_attack(wield(weapon("light sword")), weak, UNARMORED, dice=ScriptedDice(faces))
    assert brute.plan.spec.attribute_bonus == -1
    bow = roll_attack(wield(weapon("longbow")), FIGHTER, UNARMORED, dice=ScriptedDice(faces))
    assert bow.plan.spec.attribute_bonus == 0
    assert bow.plan.modifiers[0].label == "finesse"
    thrown = roll_attack(wield(weapon("light axe"), thrown=True), FIGHTER, UNARMORED,
                         dice=ScriptedDice([5, 5, 3, 4]))  # fmt: skip
    assert thrown.plan.spec.attribute_bonus == 2
    assert [m.label for m in thrown.plan.modifiers[:2]] == ["finesse", "ranged"]
    off = roll_attack(wield(weapon("light sword"), offhand=True), FIGHTER, UNARMORED,
                      dice=ScriptedDice(faces))  # fmt: skip
    assert off.plan.spec.attribute_bonus == 0 and off.plan.modifiers[0].label == "finesse"
    with pytest.raises(RulesError, match="strength, not finesse"):
        roll_attack(wield(weapon("two-handed axe")), FIGHTER, UNARMORED, use_finesse=True,
                    dice=ScriptedDice(faces))  # fmt: skip
    with pytest.raises(RulesError, match="can't be thrown"):
        wield(weapon("one-handed sword"), thrown=True)
    with pytest.raises(RulesError, match="offhand"):
        wield(weapon("one-handed sword"), offhand=True)


def test_two_handed_grip_brings_one_handed_to_d10() -> None:
    gripped = wield(weapon("one-handed sword"), two_handed_grip=True)
    assert gripped.dice.label == "1d10+2"
    with pytest.raises(RulesError):
        wield(weapon("light sword"), two_handed_grip=True)


@pytest.mark.parametrize(
    ("brawl", "label"), [(0, "1"), (1, "1"), (2, "1d2"), (3, "1d3"), (4, "1d4"), (5, "1d6"),
                         (6, "1d8")],
)  # fmt: skip
def test_unarmed_damage_by_brawl(brawl: int, label: str) -> None:
    assert unarmed_dice(brawl).label == label


def test_improvised_weapons_grow_at_brawl_two_and_four() -> None:
    assert improvised_weapon(Size.LIGHT, 1).dice.label == "1d3"
    assert improvised_weapon(Size.LIGHT, 2).dice.label == "1d4"
    assert improvised_weapon(Size.ONE_HANDED, 4).dice.label == "1d8"
    assert improvised_weapon(Size.TWO_HANDED, 3).dice.label == "1d8"
    # Concealable: unarmed +1 (brawl 3: 1d3 → one step at brawl 2 → 1d4+1).
    assert improvised_weapon(Size.CONCEALABLE, 3).dice.label == "1d4+1"
    assert improvised_weapon(Size.CONCEALABLE, 0).dice.label == "1+1"
    # An opponent used as a weapon is one category larger.
    assert improvised_weapon(Size.TWO_HANDED, 0, living=True).dice.label == "1d8"


def test_unarmed_flat_damage_needs_no_die() -> None:
    novice = AttackerStats(finesse=0, strength=1, brawl=1)
    dice = ScriptedDice([6, 7])
    result = roll_attack(unarmed(1), novice, TargetStats(attribute=Attribute.FINESSE, defense=4),
                         dice=dice)  # fmt: skip
    # 13 + 1 + 1 - 4 = 11: a hit for 1 + strength 1 = 2; no die was asked for.
    assert dice.requests == [10, 10] and result.damage_total == 2
    # A miss with a flat 1 is below a d4: nothing.
    miss = roll_attack(unarmed(1), novice, TargetStats(attribute=Attribute.FINESSE, defense=4),
                       dice=ScriptedDice([5, 5]))  # fmt: skip
    assert miss.damage_total == 0
