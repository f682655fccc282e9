"""Attack situations, special maneuvers, parry, cover, firing into melee, darkness."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import (
    AttackerStats,
    Situation,
    TargetStats,
    attacker_stats,
    parry_value,
    plan_attack,
    redirect_attack,
    roll_attack,
    target_stats,
)
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import create_character
from bot.rules.twod10.damage import add_damage_die
from bot.rules.twod10.defending import flip, roll_defending
from bot.rules.twod10.equipment import WeaponKind, armor, weapon
from bot.rules.twod10.maneuvers import Hands, Maneuver, maneuver_effect
from bot.rules.twod10.ranged import Light, check_hard_cover, roll_stray, see_through_soft_cover
from bot.rules.twod10.rending import roll_rending
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.rules.twod10.tasks import roll_task
from bot.rules.twod10.wielding import unarmed, wield

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
TARGET = TargetStats(attribute=Attribute.FINESSE, defense=4)
SWORD = wield(weapon("one-handed sword"))
BOW = wield(weapon("shortbow"))


def test_character_sheet_feeds_the_attack() -> None:
    hero = create_character(
        name="Bren", background="Soldier",
        attributes=Attributes(strength=3, toughness=1),
        background_skills={SkillKey(skill=Skill.MELEE): 2, defense(Attribute.FINESSE): 2,
                           SkillKey(skill=Skill.ATHLETICS): 1},
        extra_skills={SkillKey(skill=Skill.BRAWL): 2, SkillKey(skill=Skill.RANGED): 2,
                      defense(Attribute.STRENGTH): 1},
        feats=("Shield wall", "Bellow"), armor=armor("chain shirt"),
    )  # fmt: skip
    stats = attacker_stats(hero)
    assert (stats.strength, stats.melee, stats.ranged, stats.brawl) == (3, 2, 2, 2)
    target = target_stats(hero)
    # finesse 0 + Defense 2 - max(0, 2 - 3) = 2; chain shirt reduces 4.
    assert (target.defense, target.reduction, target.armored) == (2, 4, True)
    assert target_stats(hero, Attribute.STRENGTH).defense == 4


def test_impossible_attacker_refused_before_any_die() -> None:
    with pytest.raises(RulesError, match="Melee must be"):
        AttackerStats(finesse=1, strength=1, melee=7)
    with pytest.raises(RulesError, match="Hard cover"):
        Situation(hard_cover=5)


def test_flanking_and_prone_give_advantage() -> None:
    plan = plan_attack(
        SWORD, FIGHTER, TARGET, situation=Situation(flanking=True, target_prone=True)
    )
    assert plan.advantages == ("flanking", "target prone")
    result = roll_attack(SWORD, FIGHTER, TARGET, situation=Situation(flanking=True),
                         dice=ScriptedDice([2, 6, 7, 5]))  # fmt: skip
    assert result.roll is not None and result.roll.roll.kept == (6, 7)


def test_pin_prepare_and_buckler_flags() -> None:
    s = Situation(target_pinned_by_attacker=True, prepared=True, attacker_pinned=True,
                  buckler_same_hand=True, advantage=1, disadvantage=2, bonus=3)  # fmt: skip
    plan = plan_attack(SWORD, FIGHTER, TARGET, situation=s)
    assert plan.advantages == ("target pinned", "prepared action", "GM advantage")
    assert plan.disadvantages == (
        "attacker pinned", "buckler in the weapon hand", "GM disadvantage", "GM disadvantage",
    )  # fmt: skip
    assert ("GM modifier", 3) in [(m.label, m.value) for m in plan.modifiers]
    # Three advantages against four disadvantages: one net disadvantage, 3d10 drop highest.
    result = roll_attack(SWORD, FIGHTER, TARGET, situation=s, dice=ScriptedDice([9, 2, 8, 4]))
    assert result.roll is not None and result.roll.roll.kept == (2, 8)
    assert result.roll.total == 10 + 2 + 2 - 4 + 3


def test_ranged_penalties_only_for_ranged() -> None:
    s = Situation(firing_into_melee=True, beyond_range=True, engaged=True, light=Light.LOW)
    assert plan_attack(BOW, FIGHTER, TARGET, situation=s).disadvantages == (
        "firing into melee", "beyond range", "shooting while engaged", "low light",
    )  # fmt: skip
    assert plan_attack(SWORD, FIGHTER, TARGET, situation=s).disadvantages == ()


def test_complete_darkness_for_every_attack() -> None:
    plan = plan_attack(SWORD, FIGHTER, TARGET, situation=Situation(light=Light.DARK))
    assert plan.disadvantages == ("complete darkness",)
    assert ("darkness", -2) in [(m.label, m.value) for m in plan.modifiers]


def test_parry_subtracts_and_ranged_cannot_be_parried() -> None:
    value = parry_value(3, 2)
    assert value == 5
    result = roll_attack(SWORD, FIGHTER, TARGET, situation=Situation(parry=value),
                         dice=ScriptedDice([7, 8, 4]))  # fmt: skip
    # 15 + 1 + 2... strength 2 + melee 2 - defense 4 - parry 5 = 10: still a hit.
    assert result.roll is not None and result.roll.total == 10 and result.hit
    with pytest.raises(RulesError, match="can't be parried"):
        plan_attack(BOW, FIGHTER, TARGET, situation=Situation(parry=3))


def test_soft_cover_and_see_through() -> None:
    plan = plan_attack(BOW, FIGHTER, TARGET, situation=Situation(soft_cover=3))
    assert ("soft cover", -3) in [(m.label, m.value) for m in plan.modifiers]
    # perception + mind 4 - stealth + finesse 3, dice 9 + 5: 15 removes 2 points.
    look = see_through_soft_cover(3, roll_task(attribute=2, skill=2, difficulty=-3,
                                               dice=ScriptedDice([9, 5])))  # fmt: skip
    assert (look.removed, look.remaining, look.disadvantage) == (2, 1, False)
    miss = see_through_soft_cover(2, roll_task(attribute=0, dice=ScriptedDice([3, 3])))
    assert (miss.removed, miss.remaining, miss.disadvantage) == (0, 2, True)
    with pytest.raises(RulesError):
        see_through_soft_cover(5, miss.roll)


@pytest.mark.parametrize(
    ("quarters", "face", "blocked"),
    [(1, 1, True), (1, 2, False), (2, 2, True), (2, 3, False), (3, 3, True), (3, 4, False)],
)
def test_hard_cover(quarters: int, face: int, blocked: bool) -> None:
    assert check_hard_cover(quarters, ScriptedDice([face])).blocked is blocked


def test_total_cover_always_stops_and_rolls_nothing() -> None:
    dice = ScriptedDice([])
    assert check_hard_cover(4, dice).blocked and dice.requests == []
    result = roll_attack(BOW, FIGHTER, TARGET, situation=Situation(hard_cover=2),
                         dice=ScriptedDice([1]))  # fmt: skip
    assert result.roll is None and result.damage_total == 0 and result.cover is not None


def test_firing_into_melee_stray_shot_redirects() -> None:
    s = Situation(firing_into_melee=True, melee_others=3)
    # Disadvantage 3 d10s (4, 3, 9 → keep 4, 3): 7 + 1 + 2 - 4 = 6, a miss; d8 shows 2.
    result = roll_attack(BOW, FIGHTER, TARGET, situation=s, dice=ScriptedDice([4, 3, 9, 2]))
    assert result.stray is not None and result.stray.new_target == 2 and result.damage is None
    ally = TargetStats(attribute=Attribute.FINESSE, defense=-4)
    hit = redirect_attack(result, ally, dice=ScriptedDice([5]))
    assert hit.roll is not None and hit.roll.total == 14 and hit.damage_total == 5
    # A d8 above the number of others: the miss stands with its reduced damage.
    # Keep 5, 5: 10 + 3 - 4 = 9, a miss; d8 7 of 3 others; the bow's d6 drops to a d4.
    stays = roll_attack(BOW, FIGHTER, TARGET, situation=s, dice=ScriptedDice([5, 5, 9, 7, 2]))
    assert stays.stray is not None and stays.stray.new_target is None
    assert stays.damage is not None and [f.sides for f in stays.damage.faces] == [4]
    assert stays.damage_total == 2
    # A natural 2 strays nowhere: no d8 is rolled.
    clean = roll_attack(BOW, FIGHTER, TARGET, situation=s, dice=ScriptedDice([1, 1, 4]))
    assert clean.stray is None and clean.damage_total == 0
    with pytest.raises(RulesError):
        redirect_attack(stays, ally, dice=ScriptedDice([1]))
    assert roll_stray(0, ScriptedDice([1])).new_target is None


def test_maneuver_disadvantage_and_lower_category() -> None:
    result = roll_attack(SWORD, FIGHTER, TARGET, maneuver=Maneuver.TRIP,
                         dice=ScriptedDice([9, 9, 5, 3]))  # fmt: skip
    # Drop the highest of 9, 9, 5: 14 total; +2 categories - 1 = d10.
    assert result.roll is not None and result.roll.total == 14
    assert result.damage is not None and result.damage.faces[0].sides == 10
    assert result.effect is not None and result.effect.prone
    assert result.effect.movement_lost_feet == 5


def test_maneuver_on_a_natural_two_does_nothing() -> None:
    strong = AttackerStats(finesse=6, strength=6, melee=6)
    result = roll_attack(SWORD, strong, TARGET, maneuver=Maneuver.TRIP,
                         dice=ScriptedDice([1, 1, 1]))  # fmt: skip
    assert result.roll is not None and result.roll.total >= 10
    assert result.effect is not None and not result.effect.succeeded
    assert result.damage_total == 0


@pytest.mark.parametrize(
    ("maneuver", "total", "summary"),
    [
        (Maneuver.TRIP, 9, "no effect (below 10)"),
        (Maneuver.TRIP, 10, "knocked prone"),
        (Maneuver.TRIP, 18, "knocked prone, movement −10 ft"),
        (Maneuver.FORCE_BACK, 10, "pushed back 5 ft"),
        (Maneuver.FORCE_BACK, 13, "pushed back 5 ft"),
        (Maneuver.FORCE_BACK, 14, "pushed back 10 ft"),
        (Maneuver.BLUFF, 10, "disadvantage on its defense roll"),
        (Maneuver.BLUFF, 19, "disadvantage on its defense roll, +6 damage"),
        (Maneuver.DISARM, 10, "drops 1 item"),
        (Maneuver.DISARM, 14, "drops 1 item, plus 1 more item dropped or a 5 ft move of it"),
        (Maneuver.DISARM, 18, "drops 1 item, plus 2 more items dropped or 5 ft moves of it"),
        (Maneuver.THROW, 10, "thrown 5 ft and prone"),
        (Maneuver.THROW, 15, "thrown 15 ft and prone"),
        (Maneuver.USE_AS_WEAPON, 10, "wielded as an improvised weapon for 1 round"),
        (Maneuver.USE_AS_WEAPON, 14, "wielded as an improvised weapon for 3 rounds"),
    ],
)
def test_maneuver_effects(maneuver: Maneuver, total: int, summary: str) -> None:
    assert maneuver_effect(maneuver, total, kind=WeaponKind.BRAWL).summary == summary


def test_ranged_disarm_counts_sixes_and_no_force_back() -> None:
    assert maneuver_effect(Maneuver.DISARM, 15, kind=WeaponKind.RANGED).extra_item_steps == 0
    assert maneuver_effect(Maneuver.DISARM, 16, kind=WeaponKind.RANGED).extra_item_steps == 1
    bow_target = TargetStats(attribute=Attribute.STRENGTH, defense=2)
    with pytest.raises(RulesError, match="can't force back"):
        plan_attack(BOW, FIGHTER, bow_target, maneuver=Maneuver.FORCE_BACK)


def test_maneuver_defense_choice_checked() -> None:
    mind = TargetStats(attribute=Attribute.MIND, defense=1)
    plan_attack(SWORD, FIGHTER, mind, maneuver=Maneuver.BLUFF)
    with pytest.raises(RulesError, match="targets finesse or strength"):
        plan_attack(SWORD, FIGHTER, mind, maneuver=Maneuver.TRIP)
    with pytest.raises(RulesError, match="normal attack targets finesse"):
        plan_attack(SWORD, FIGHTER, mind)
    with pytest.raises(RulesError, match="brawl maneuver"):
        plan_attack(SWORD, FIGHTER, TARGET, maneuver=Maneuver.PIN)


def test_bluff_adds_damage() -> None:
    mind = TargetStats(attribute=Attribute.MIND, defense=0)
    result = roll_attack(SWORD, FIGHTER, mind, maneuver=Maneuver.BLUFF,
                         dice=ScriptedDice([8, 9, 10, 4]))  # fmt: skip
    # Keep 8, 9: 17 + 4 = 21: two steps of 4 → +6 damage; +5 - 1 categories from d8 → d12.
    assert result.roll is not None and result.roll.total == 21
    assert result.damage is not None and result.damage.spec.extra_flat == 6
    assert result.damage_total == 4 + 2 + 2 + 6


def test_brawl_maneuver_hands() -> None:
    fist = unarmed(3)
    one = plan_attack(fist, FIGHTER, TARGET, maneuver=Maneuver.THROW,
                      situation=Situation(hands=Hands.ONE_FREE))  # fmt: skip
    assert ("one hand free", -2) in [(m.label, m.value) for m in one.modifiers]
    none = plan_attack(fist, FIGHTER, TARGET, maneuver=Maneuver.PIN,
                       situation=Situation(hands=Hands.NONE_FREE))  # fmt: skip
    assert none.disadvantages == ("pin maneuver", "both hands occupied")
    assert none.spec.category_bonus == -2


def test_defending_roll_flips() -> None:
    # "a 7 becomes a 13, a 16 becomes a 4"
    assert flip(7) == 13 and flip(16) == 4
    # Defender: 2d10 (6 + 5) + toughness 2 + Defense 2 - attacker's bonus 4 = 11 → 9.
    roll = roll_defending(defense=4, attacker_bonus=4, dice=ScriptedDice([6, 5]))
    assert roll.defender.total == 11 and roll.total == 9 and not roll.succeeded
    assert roll.category_shift == -1


def test_rending_slain_and_living() -> None:
    slain = roll_rending(strength=2, brawl=2, dice=ScriptedDice([3, 3]))
    assert slain.roll.total == 10 and slain.needs_interact and not slain.extra_damage_die
    fist = unarmed(3)
    crit = roll_attack(fist, FIGHTER, TARGET, dice=ScriptedDice([10, 10, 1, 2, 3]))
    assert crit.roll is not None and crit.roll.natural_twenty
    living = roll_rending(strength=2, brawl=3, living=True, attack=crit.roll,
                          dice=ScriptedDice([4, 4]))  # fmt: skip
    assert living.extra_damage_die and not living.needs_interact
    assert crit.damage is not None
    more = add_damage_die(crit.damage, ScriptedDice([2]))
    assert len(more.faces) == len(crit.damage.faces) + 1 and more.total == crit.damage.total + 2
    plain = roll_attack(fist, FIGHTER, TARGET, dice=ScriptedDice([5, 5, 1]))
    with pytest.raises(RulesError, match="critical hit"):
        roll_rending(strength=2, brawl=3, living=True, attack=plain.roll,
                     dice=ScriptedDice([4, 4]))  # fmt: skip
