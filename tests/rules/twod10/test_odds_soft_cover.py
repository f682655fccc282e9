"""Exact odds of an attack into soft cover, the look included: the look's odds against
brute force over its faces, an attack's against brute force over every face of every die
``roll_attack`` asks for (the look's d10s first), and richer attacks mixed over every face
of the look."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import roll_attack
from bot.rules.twod10.attack_inputs import AttackerStats, Situation, TargetStats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds import NATURAL_TWO_ROW
from bot.rules.twod10.odds_attack import COVER_ROW, attack_odds, look_odds
from bot.rules.twod10.ranged import Light
from bot.rules.twod10.soft_cover import LookStats, after_look, roll_look
from bot.rules.twod10.tasks import Edge
from bot.rules.twod10.wielding import unarmed, wield
from tests.rules.twod10.odds_support import every_outcome

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
KEEN = LookStats(sight=12, hiding=0)  # fails only on a natural 2; removes 2 to 4 points
EVEN = LookStats(sight=2, hiding=3, burden=1)  # the natural alone: 10 or more sees


@pytest.mark.parametrize("light", list(Light), ids=str)
@pytest.mark.parametrize(
    ("cover", "look"), [(4, KEEN), (2, EVEN), (1, LookStats(sight=0, hiding=6))]
)
def test_the_looks_odds_match_brute_force(cover: int, look: LookStats, light: Light) -> None:
    def judged(dice):  # type: ignore[no-untyped-def]
        sight = roll_look(cover, look, light=light, dice=dice)
        return sight.remaining, sight.disadvantage

    brute = every_outcome(judged)
    odds = look_odds(cover, look, light)
    assert {(s.remaining, s.disadvantage): p for p, s in odds.outcomes} == brute
    assert odds.edge is (Edge.NONE if light is Light.NORMAL else Edge.DISADVANTAGE)
    assert odds.seen == sum((p for (_, missed), p in brute.items() if not missed), Fraction(0))


def test_the_looks_odds_by_hand() -> None:
    # 2d10 + 2 − 3 + 1 (the target's EP): the natural alone. 10 or more (64 of 100) sees;
    # 15 or more (21 of 100) removes the second point of soft cover 2.
    odds = look_odds(2, EVEN, Light.NORMAL)
    assert [(p, s.remaining, s.disadvantage) for p, s in odds.outcomes] == [
        (Fraction(21, 100), 0, False), (Fraction(43, 100), 1, False), (Fraction(36, 100), 2, True)
    ]  # fmt: skip
    assert odds.seen == Fraction(64, 100)


def _row(result) -> str:  # type: ignore[no-untyped-def]
    if result.roll is None:
        return COVER_ROW
    return NATURAL_TWO_ROW if result.roll.natural_two else result.roll.band.value


def test_attack_odds_into_soft_cover_match_brute_force_over_every_face() -> None:
    # Every face of every die roll_attack asks for, the look's 2d10 first (12,111 runs,
    # so the attack is kept cheap: unarmed at brawl 0 rolls no damage die below 12).
    # Look 2d10 + 10 against soft cover 2: a natural 2 fails (the cover stays, with
    # disadvantage), naturals 3 and 4 remove a point, the rest both.
    look = LookStats(sight=10, hiding=0)
    target = TargetStats(attribute=Attribute.FINESSE, defense=9)
    situation = Situation(soft_cover=2)
    weak = AttackerStats(finesse=0, strength=0)

    def attack(dice):  # type: ignore[no-untyped-def]
        result = roll_attack(unarmed(0), weak, target, situation=situation, look=look,
                             dice=dice)  # fmt: skip
        assert result.look is not None  # rolled first, every time
        return _row(result), result.damage_total, result.hit, result.look.remaining

    brute = every_outcome(attack)
    odds = attack_odds(unarmed(0), weak, target, situation=situation, look=look)

    def chance(pick) -> Fraction:  # type: ignore[no-untyped-def]
        return sum((p for key, p in brute.items() if pick(key)), Fraction(0))

    assert len(odds.damage) == 4  # 0, and a natural 19's 1 or a natural 20's 3
    for k, p in enumerate(odds.damage):
        assert p == chance(lambda key, k=k: key[1] == k), k
    for row, p in odds.rows:
        assert p == chance(lambda key, row=row: key[0] == row), row
    assert odds.hit == chance(lambda key: key[2])
    assert odds.look is not None
    assert [s.remaining for _, s in odds.look.outcomes] == [0, 1, 2]
    for p, sight in odds.look.outcomes:
        assert p == chance(lambda key, left=sight.remaining: key[3] == left)
    # By hand: no cover left (94/100) hits on naturals 19 and 20, one point left (5/100)
    # on 20 alone, and the failed look (1/100) never at 3d10 keep the lowest two − 2.
    assert odds.hit == Fraction(94, 100) * Fraction(3, 100) + Fraction(5, 100) / 100


# Richer attacks: every face of the look, each judged by the real roll_look, mixed
# over the odds of the attack it leaves (those odds are proven exact face by face in
# test_odds.py); low light and darkness give the look 3d10 (1,000 faces).
CASES = {
    "shortbow into soft cover 4 in low light": dict(
        wielded=wield(weapon("shortbow")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=4, reduction=1, armored=True),
        situation=Situation(soft_cover=4, light=Light.LOW),
        look=EVEN,
    ),
    "light sword, soft cover 2, a block and advantage": dict(
        wielded=wield(weapon("light sword")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=5, reduction=2, armored=True),
        situation=Situation(soft_cover=2, flanking=True),
        look=EVEN,
        block=True,
    ),
    "bluff into soft cover 1 behind hard cover 1": dict(
        wielded=wield(weapon("light blunt")),
        target=TargetStats(attribute=Attribute.MIND, defense=3, reduction=4, armored=True),
        maneuver=Maneuver.BLUFF,
        situation=Situation(soft_cover=1, hard_cover=1),
        look=LookStats(sight=0, hiding=4),
    ),
    "bow into melee and soft cover 3 in darkness": dict(
        wielded=wield(weapon("shortbow")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=3),
        situation=Situation(soft_cover=3, firing_into_melee=True, melee_others=2, light=Light.DARK),
        look=KEEN,
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_attack_odds_into_soft_cover_mix_every_face_of_the_look(case: str) -> None:
    kw = dict(CASES[case])
    wielded, target = kw.pop("wielded"), kw.pop("target")
    situation, look = kw.pop("situation"), kw.pop("look")

    def seen(dice):  # type: ignore[no-untyped-def]
        return roll_look(situation.soft_cover, look, light=situation.light, dice=dice)

    parts = [
        (p, attack_odds(wielded, FIGHTER, target, situation=after_look(situation, sight), **kw))
        for sight, p in every_outcome(seen).items()
    ]
    odds = attack_odds(wielded, FIGHTER, target, situation=situation, look=look, **kw)
    assert odds.look is not None and len(odds.look.outcomes) >= 2
    width = max(len(o.damage) for _, o in parts)

    def mixed(figure) -> Fraction:  # type: ignore[no-untyped-def]
        return sum((p * figure(o) for p, o in parts), Fraction(0))

    assert odds.damage == tuple(
        mixed(lambda o, k=k: o.damage[k] if k < len(o.damage) else 0) for k in range(width)
    )
    assert odds.rows == tuple(
        (row, mixed(lambda o, row=row: dict(o.rows)[row])) for row, _ in parts[0][1].rows
    )
    assert odds.hit == mixed(lambda o: o.hit)
    assert odds.stray == mixed(lambda o: o.stray)
    if odds.maneuver_success is not None:
        assert odds.maneuver_success == mixed(lambda o: o.maneuver_success)
    assert sum(odds.damage) == 1 and sum(p for _, p in odds.rows) == 1


def test_the_look_changes_the_odds_and_unseen_skips_it() -> None:
    bow = wield(weapon("shortbow"))
    target = TargetStats(attribute=Attribute.FINESSE, defense=4)
    flat = attack_odds(bow, FIGHTER, target, situation=Situation(soft_cover=3))
    looked = attack_odds(bow, FIGHTER, target, situation=Situation(soft_cover=3), look=KEEN)
    assert flat.look is None and looked.look is not None
    assert looked.hit > flat.hit  # a keen look nearly always strips some cover
    # The plan shown is the attack's before the look: no soft cover, no disadvantage.
    assert "soft cover" not in [m.label for m in looked.plan.modifiers]
    assert looked.plan.disadvantages == () and looked.edge is Edge.NONE
    unseen = Situation(soft_cover=3, soft_cover_disadvantage=True)
    skipped = attack_odds(bow, FIGHTER, target, situation=unseen, look=KEEN)
    assert skipped.look is None
    assert skipped == attack_odds(bow, FIGHTER, target, situation=unseen)


def test_odds_into_soft_cover_refuse_what_the_attack_refuses() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=2)
    with pytest.raises(RulesError, match="can't be parried"):
        attack_odds(wield(weapon("shortbow")), FIGHTER, target, look=KEEN,
                    situation=Situation(soft_cover=2, parry=3))  # fmt: skip


def test_scripted_dice_agree_with_a_single_path() -> None:
    # The look's faces come first: a keen look of 2 + 2 + 12 = 16 strips 2 of 2 points;
    # the attack 5 + 5 + 1 + 2 − 4 = 9 misses (the d6 one category down: d4).
    dice = ScriptedDice([2, 2, 5, 5, 3])
    result = roll_attack(wield(weapon("shortbow")), FIGHTER,
                         TargetStats(attribute=Attribute.FINESSE, defense=4),
                         situation=Situation(soft_cover=2), look=KEEN, dice=dice)  # fmt: skip
    assert dice.requests == [10, 10, 10, 10, 4]
    assert result.roll is not None and result.roll.total == 9 and result.damage_total == 3
