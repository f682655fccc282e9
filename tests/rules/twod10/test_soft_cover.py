"""The look through soft cover: rolled first, by scripted dice, and what it leaves the attack.

"Roll perception+mind and subtract opponents stealth+finesse to see through soft cover.
On a roll of 10, remove a point of soft cover. Remove another point of soft cover for
every 5 points above 10. On a roll below 10, the attack has disadvantage as well."
"""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import roll_attack
from bot.rules.twod10.attack_inputs import AttackerStats, Situation, TargetStats
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.ranged import Light
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.soft_cover import LookStats, after_look, look_stats, roll_look, rolls_look
from bot.rules.twod10.tasks import Edge
from bot.rules.twod10.wielding import wield

# The look adds 2d10 + 3 (mind + perception) − 2 (the target's finesse + stealth): +1.
LOOK = LookStats(sight=3, hiding=2)
SHOOTER = AttackerStats(finesse=2, strength=0, ranged=2)
TARGET = TargetStats(attribute=Attribute.FINESSE, defense=3)
BOW = wield(weapon("shortbow"))


@pytest.mark.parametrize(
    ("faces", "total", "removed", "left", "disadvantage"),
    [
        ((4, 5), 10, 1, 2, False),  # a roll of 10 removes a point
        ((6, 7), 14, 1, 2, False),  # still one below 15
        ((7, 7), 15, 2, 1, False),  # 5 above 10: another point
        ((10, 9), 20, 3, 0, False),  # 10 above: a third, all the cover gone
        ((4, 4), 9, 0, 3, True),  # below 10: nothing removed, and disadvantage
        ((1, 1), 3, 0, 3, True),
    ],
)
def test_the_look_removes_a_point_at_ten_and_one_more_every_five(
    faces: tuple[int, int], total: int, removed: int, left: int, disadvantage: bool
) -> None:
    dice = ScriptedDice(faces)
    sight = roll_look(3, LOOK, dice=dice)
    assert dice.requests == [10, 10]
    assert sight.roll.total == total
    assert (sight.removed, sight.remaining, sight.disadvantage) == (removed, left, disadvantage)


def test_one_point_of_cover_and_a_look_of_twenty_leave_none() -> None:
    sight = roll_look(1, LookStats(sight=4, hiding=0), dice=ScriptedDice([8, 8]))
    assert sight.roll.total == 20
    assert (sight.removed, sight.remaining, sight.disadvantage) == (1, 0, False)


def test_a_natural_two_never_sees_through() -> None:
    # 1 + 1 + 12 = 14 would remove a point; a natural 2 fails any task (natural-two).
    sight = roll_look(2, LookStats(sight=12, hiding=0), dice=ScriptedDice([1, 1]))
    assert sight.roll.total == 14
    assert (sight.removed, sight.remaining, sight.disadvantage) == (0, 2, True)


def test_the_look_is_mind_plus_perception_against_finesse_plus_stealth_and_its_ep() -> None:
    scout = Character(
        name="Scout", background="Hunter", attributes=Attributes(mind=2, finesse=1),
        skills=((SkillKey(skill=Skill.PERCEPTION), 3), (SkillKey(skill=Skill.STEALTH), 1)),
        feats=("Keen", "Quiet"),
    )  # fmt: skip
    sneak = Character(
        name="Sneak", background="Thief", attributes=Attributes(finesse=3, mind=1),
        skills=((SkillKey(skill=Skill.PERCEPTION), 1), (SkillKey(skill=Skill.STEALTH), 2)),
        feats=("Keen", "Quiet"),
    )  # fmt: skip
    look = look_stats(scout, sneak, target_ep=2)
    assert look == LookStats(sight=5, hiding=5, burden=2)
    sight = roll_look(2, look, dice=ScriptedDice([4, 4]))
    assert [(m.label, m.value) for m in sight.roll.modifiers] == [
        ("mind + perception", 5), ("target's finesse + stealth", -5), ("target's encumbrance", 2),
    ]  # fmt: skip
    assert sight.roll.total == 10 and sight.removed == 1


@pytest.mark.parametrize(
    ("light", "edge", "reasons"),
    [
        (Light.NORMAL, Edge.NONE, ()),
        (Light.LOW, Edge.DISADVANTAGE, ("low light",)),
        (Light.DARK, Edge.DISADVANTAGE, ("complete darkness",)),
    ],
)
def test_the_look_is_a_perception_roll_that_the_light_hinders(
    light: Light, edge: Edge, reasons: tuple[str, ...]
) -> None:
    dice = ScriptedDice([9, 9, 2])
    sight = roll_look(2, LOOK, light=light, dice=dice)
    assert sight.roll.roll.edge is edge and sight.disadvantages == reasons
    # 3d10 at disadvantage keeps 9 and 2: 11 + 1 = 12, still a point; 2d10: 18 + 1, two.
    assert sight.removed == (1 if reasons else 2)


def test_impossible_looks_are_refused_before_any_die() -> None:
    with pytest.raises(RulesError, match="Mind \\+ perception"):
        LookStats(sight=13, hiding=0)
    with pytest.raises(RulesError, match="Finesse \\+ stealth"):
        LookStats(sight=0, hiding=13)
    dice = ScriptedDice([])
    with pytest.raises(RulesError, match="Soft cover for a look"):
        roll_look(0, LOOK, dice=dice)
    assert dice.requests == []


def test_the_attack_rolls_the_look_first_and_takes_the_cover_it_leaves() -> None:
    # Look 7 + 8 + 1 = 16: two of soft cover 3 removed. Then the attack's 2d10: 5 + 5 +
    # finesse 2 + ranged 2 − defense 3 − soft cover 1 = 10, and the shortbow's d6.
    dice = ScriptedDice([7, 8, 5, 5, 4])
    result = roll_attack(BOW, SHOOTER, TARGET, situation=Situation(soft_cover=3), look=LOOK,
                         dice=dice)  # fmt: skip
    assert dice.requests == [10, 10, 10, 10, 6]
    assert result.look is not None and result.look.roll.roll.faces == (7, 8)
    assert (result.look.removed, result.look.remaining) == (2, 1)
    assert result.roll is not None and result.roll.roll.faces == (5, 5)
    assert ("soft cover", -1) in [(m.label, m.value) for m in result.roll.modifiers]
    assert result.roll.total == 10 and result.hit and result.plan.disadvantages == ()


def test_a_failed_look_keeps_the_cover_and_gives_the_attack_disadvantage() -> None:
    # Look 3 + 4 + 1 = 8. The attack: 3d10 drops the highest (9): 6 + 7 + 4 − 3 − 2 = 12,
    # the shortbow's d6 one category up: a d8.
    dice = ScriptedDice([3, 4, 6, 9, 7, 2])
    result = roll_attack(BOW, SHOOTER, TARGET, situation=Situation(soft_cover=2), look=LOOK,
                         dice=dice)  # fmt: skip
    assert dice.requests == [10, 10, 10, 10, 10, 8]
    assert result.look is not None and result.look.disadvantage
    assert result.plan.disadvantages == ("unseen behind soft cover",)
    assert result.roll is not None and result.roll.roll.kept == (6, 7)
    assert ("soft cover", -2) in [(m.label, m.value) for m in result.roll.modifiers]
    assert result.roll.total == 12


def test_a_look_that_removes_all_the_cover_leaves_no_penalty() -> None:
    dice = ScriptedDice([10, 10, 5, 5, 1])
    result = roll_attack(BOW, SHOOTER, TARGET, situation=Situation(soft_cover=1), look=LOOK,
                         dice=dice)  # fmt: skip
    assert result.look is not None and result.look.remaining == 0
    assert result.roll is not None
    assert "soft cover" not in [m.label for m in result.roll.modifiers]


def test_the_look_comes_before_the_hard_cover_d4() -> None:
    dice = ScriptedDice([5, 5, 1])  # look 11: a point; the d4 shows 1: stopped
    result = roll_attack(BOW, SHOOTER, TARGET, look=LOOK, dice=dice,
                         situation=Situation(soft_cover=2, hard_cover=2))  # fmt: skip
    assert dice.requests == [10, 10, 4]
    assert result.look is not None and result.cover is not None and result.cover.blocked


def test_unseen_rolls_no_look_and_no_look_without_soft_cover() -> None:
    unseen = Situation(soft_cover=2, soft_cover_disadvantage=True)
    assert not rolls_look(unseen, LOOK) and not rolls_look(Situation(), LOOK)
    assert not rolls_look(Situation(soft_cover=2), None)
    dice = ScriptedDice([6, 9, 7, 2])  # the attack's 3d10 at once, then the d8
    result = roll_attack(BOW, SHOOTER, TARGET, situation=unseen, look=LOOK, dice=dice)
    assert result.look is None and dice.requests == [10, 10, 10, 8]
    assert result.roll is not None and result.roll.total == 12


def test_what_the_attack_refuses_is_refused_before_the_look() -> None:
    dice = ScriptedDice([])
    with pytest.raises(RulesError, match="can't be parried"):
        roll_attack(BOW, SHOOTER, TARGET, situation=Situation(soft_cover=2, parry=3),
                    look=LOOK, dice=dice)  # fmt: skip
    assert dice.requests == []


def test_after_look_sets_the_cover_and_the_disadvantage() -> None:
    seen = roll_look(3, LOOK, dice=ScriptedDice([7, 7]))
    missed = roll_look(3, LOOK, dice=ScriptedDice([2, 2]))
    start = Situation(soft_cover=3, flanking=True)
    assert after_look(start, seen) == Situation(soft_cover=1, flanking=True)
    assert after_look(start, missed) == Situation(
        soft_cover=3, soft_cover_disadvantage=True, flanking=True
    )
