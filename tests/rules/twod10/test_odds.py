"""Exact 2d10 odds against hand counts, brute force over every face the real rolling
functions ask for, icepool, and the observed frequencies of seeded rolls."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import RandomDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import roll_attack
from bot.rules.twod10.attack_inputs import AttackerStats, Situation, TargetStats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds import NATURAL_TWO_ROW, ROWS, task_odds
from bot.rules.twod10.odds_attack import COVER_ROW, attack_odds
from bot.rules.twod10.tasks import Edge, Modifier, roll_task
from bot.rules.twod10.wielding import unarmed, wield
from tests.rules.twod10.odds_support import every_outcome

EDGES = [(0, 0), (1, 0), (0, 1), (3, 1)]


def row_of(result) -> str:  # type: ignore[no-untyped-def]
    return NATURAL_TWO_ROW if result.natural_two else result.band.value


def test_worked_task_by_hand() -> None:
    # 2 + 2 − 5 = −1 on 2d10: the 2d10 counts of naturals 2…20 are 1, 2, …, 10, …, 1.
    odds = task_odds(attribute=2, skill=2, difficulty=-5)
    expected = [1, 14, 30, 40, 15, 0, 0]  # natural 2; totals ≤5; 6–9; 10–14; 15–19; 20+
    assert odds.row_chances() == tuple(Fraction(n, 100) for n in expected)
    assert odds.success == Fraction(55, 100)
    assert odds.natural_twenty == Fraction(1, 100)
    assert odds.expected_total == 10  # 11 − 1


def test_natural_two_is_its_own_row_even_when_the_total_would_succeed() -> None:
    odds = task_odds(attribute=6, skill=6, difficulty=5)  # natural 2 totals 19
    rows = dict(zip(ROWS, odds.row_chances(), strict=True))
    assert rows[NATURAL_TWO_ROW] == Fraction(1, 100)
    assert odds.success == Fraction(99, 100)
    assert sum(odds.row_chances()) == 1


@pytest.mark.parametrize("edge", EDGES, ids=str)
@pytest.mark.parametrize("modifier", [-30, -9, -1, 0, 4, 13])
def test_task_rows_match_brute_force_over_every_face(edge: tuple[int, int], modifier: int) -> None:
    extra = (Modifier(label="bonus", value=modifier),)

    def roll(dice):  # type: ignore[no-untyped-def]
        result = roll_task(attribute=1, skill=2, extra=extra, advantage=edge[0],
                           disadvantage=edge[1], dice=dice)  # fmt: skip
        return row_of(result), result.succeeded

    brute = every_outcome(roll)
    odds = task_odds(attribute=1, skill=2, extra=extra, advantage=edge[0], disadvantage=edge[1])
    rows = dict(zip(ROWS, odds.row_chances(), strict=True))
    for row in ROWS:
        assert rows[row] == sum((p for (r, _), p in brute.items() if r == row), Fraction(0))
    assert odds.success == sum((p for (_, ok), p in brute.items() if ok), Fraction(0))


def _icepool_rows(edge: Edge, modifier: int) -> dict[str, Fraction]:
    """An independent model: icepool's natural, the to-hit table's rows as printed."""
    natural = {
        Edge.NONE: 2 @ icepool.d10,
        Edge.ADVANTAGE: icepool.d10.highest(3, 2),
        Edge.DISADVANTAGE: icepool.d10.lowest(3, 2),
    }[edge]

    def row(n: int) -> str:
        total = n + modifier
        if n == 2:
            return NATURAL_TWO_ROW
        for low, index in ((25, 6), (20, 5), (15, 4), (10, 3), (6, 2)):
            if total >= low:
                return ROWS[index]
        return ROWS[1]

    die = natural.map(row)
    return {r: Fraction(die.probability(r)) for r in die.outcomes()}


@pytest.mark.parametrize("edge", list(Edge))
@pytest.mark.parametrize("modifier", range(-22, 14, 3))
def test_task_rows_match_icepool(edge: Edge, modifier: int) -> None:
    adv, dis = {Edge.NONE: (0, 0), Edge.ADVANTAGE: (1, 0), Edge.DISADVANTAGE: (0, 1)}[edge]
    odds = task_odds(attribute=0, difficulty=modifier, advantage=adv, disadvantage=dis)
    model = _icepool_rows(edge, modifier)
    assert dict(zip(ROWS, odds.row_chances(), strict=True)) == {
        r: model.get(r, Fraction(0)) for r in ROWS
    }


@pytest.mark.parametrize("edge", [(0, 0), (1, 0), (0, 1)], ids=str)
def test_observed_task_frequencies_match_the_figures(edge: tuple[int, int]) -> None:
    dice = RandomDice(random.Random(14_2010))
    samples = 20_000
    seen = Counter(
        row_of(roll_task(attribute=2, skill=1, difficulty=-5, advantage=edge[0],
                         disadvantage=edge[1], dice=dice))
        for _ in range(samples)
    )  # fmt: skip
    odds = task_odds(attribute=2, skill=1, difficulty=-5, advantage=edge[0], disadvantage=edge[1])
    for row, p in zip(ROWS, odds.row_chances(), strict=True):
        # Four standard errors of a proportion at 20,000 rolls is at most 0.0142.
        assert abs(seen[row] / samples - float(p)) < 0.0142, row


def test_task_odds_refuse_what_the_roll_refuses() -> None:
    with pytest.raises(RulesError, match="Attribute must be"):
        task_odds(attribute=7)
    with pytest.raises(RulesError, match="Advantage must be"):
        task_odds(attribute=1, advantage=21)


FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
WEAK = AttackerStats(finesse=0, strength=0)


def test_worked_attack_by_hand() -> None:
    # A concealable blunt (1d4) with no bonus against defense 10 hits only on a natural 20:
    # total 10, no shift, 1d4 + two natural-20 dice = 3d4. Every miss moves the d4 below
    # the ladder's floor and deals nothing.
    target = TargetStats(attribute=Attribute.FINESSE, defense=10)
    odds = attack_odds(wield(weapon("concealable blunt")), WEAK, target)
    three_d4 = {3: 1, 4: 3, 5: 6, 6: 10, 7: 12, 8: 12, 9: 10, 10: 6, 11: 3, 12: 1}
    assert odds.damage == (
        Fraction(99, 100),
        Fraction(0),
        Fraction(0),
        *tuple(Fraction(three_d4[k], 6400) for k in range(3, 13)),
    )
    assert odds.hit == Fraction(1, 100)
    assert odds.expected_damage == Fraction(3, 40)  # 7.5 / 100
    assert odds.at_least(12) == Fraction(1, 6400)


def test_block_and_armor_never_take_a_hit_below_one() -> None:
    # Unarmed (brawl 0: a flat 1 point) against defense 9 hits on naturals 19 and 20
    # (totals 10 and 11: no shift). 19 deals 1, 20 adds two "dice" of 1 point: 3. A shield
    # block halves them (0 and 1) and reduction 5 takes the rest, but a hit deals at least 1.
    target = TargetStats(attribute=Attribute.FINESSE, defense=9, reduction=5, armored=True)
    odds = attack_odds(unarmed(0), WEAK, target, block=True)
    assert odds.hit == Fraction(3, 100)
    assert odds.damage == (Fraction(97, 100), Fraction(3, 100))


# Defenses high enough to keep the damage dice small: brute force walks every face.
CASES = {
    "light axe vs unarmored, natural 19 and 20 dice": dict(
        wielded=wield(weapon("light axe")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=14, reduction=0),
    ),
    "sword, armor, block, advantage": dict(
        wielded=wield(weapon("light sword")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=11, reduction=3, armored=True),
        block=True,
        situation=Situation(flanking=True),
    ),
    "bow into melee": dict(
        wielded=wield(weapon("shortbow")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=8, reduction=1, armored=True),
        situation=Situation(firing_into_melee=True, melee_others=3),
    ),
    "bow behind hard cover": dict(
        wielded=wield(weapon("shortbow")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=6, reduction=1, armored=True),
        situation=Situation(hard_cover=1),
    ),
    "bluff with disadvantage": dict(
        wielded=wield(weapon("light blunt")),
        target=TargetStats(attribute=Attribute.MIND, defense=3, reduction=4, armored=True),
        maneuver=Maneuver.BLUFF,
    ),
    # The target rolls its declared defense (defending-roll): the edges swap.
    "sword defended, flanking": dict(
        wielded=wield(weapon("light sword")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=5, reduction=1, armored=True),
        situation=Situation(flanking=True, defended=True),
    ),
    "bow defended into melee": dict(
        wielded=wield(weapon("shortbow")),
        target=TargetStats(attribute=Attribute.FINESSE, defense=3),
        situation=Situation(firing_into_melee=True, melee_others=2, defended=True),
    ),
    # A natural-20 hit tries rending (rending-reach): a success adds a die.
    "fists rending": dict(
        wielded=unarmed(3),  # a natural 20 totals 11 here: four d3s, kept cheap to walk
        target=TargetStats(attribute=Attribute.FINESSE, defense=14, reduction=1, armored=True),
        situation=Situation(rend=True),
    ),
    "trip defended": dict(
        wielded=wield(weapon("light blunt")),
        target=TargetStats(attribute=Attribute.STRENGTH, defense=2),
        maneuver=Maneuver.TRIP,
        situation=Situation(defended=True),
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_attack_odds_match_brute_force_over_every_face(case: str) -> None:
    kw = dict(CASES[case])
    wielded, target = kw.pop("wielded"), kw.pop("target")

    def attack(dice):  # type: ignore[no-untyped-def]
        result = roll_attack(wielded, FIGHTER, target, dice=dice, **kw)
        strayed = result.stray is not None and result.stray.new_target is not None
        won = result.effect is not None and result.effect.succeeded
        row = COVER_ROW if result.outcome is None else row_of(result.outcome)
        return row, result.damage_total if not strayed else 0, result.hit, strayed, won

    brute = every_outcome(attack)
    odds = attack_odds(wielded, FIGHTER, target, **kw)

    def chance(pick) -> Fraction:  # type: ignore[no-untyped-def]
        return sum((p for key, p in brute.items() if pick(key)), Fraction(0))

    for k, p in enumerate(odds.damage):
        assert p == chance(lambda key, k=k: key[1] == k), k
    assert sum(odds.damage) == 1
    for row, p in odds.rows:
        assert p == chance(lambda key, row=row: key[0] == row), row
    assert odds.hit == chance(lambda key: key[2])
    assert odds.stray == chance(lambda key: key[3])
    if odds.maneuver_success is not None:
        assert odds.maneuver_success == chance(lambda key: key[4])


def test_icepool_agrees_on_an_axe_against_the_unarmored() -> None:
    # Light axe 1d6 + strength 2 vs defense 6, no armor: the axe rolls its die twice and
    # keeps the higher. Totals are n − 2 (strength 2 + melee 2 − 6): hits from natural 12;
    # an axe adds a die on a natural 19 or 20, a natural 20 two more.
    target = TargetStats(attribute=Attribute.FINESSE, defense=6)
    odds = attack_odds(wield(weapon("light axe")), FIGHTER, target)

    ladder = [1, 2, 3, 4, 6, 8, 10, 12]

    def damage(n: int) -> icepool.Die:
        total = n + 2 + 2 - 6
        if n == 2:
            return icepool.Die([0])
        shift = (total - 10) // 2 if total >= 10 else total - 10
        rung = min(4 + shift, 7)  # the d6 is rung 4
        if total < 10 and rung < 3:
            return icepool.Die([0])
        die = icepool.d(ladder[rung]) if ladder[rung] > 1 else icepool.Die([1])
        axe = die.highest(2, 1) if ladder[rung] > 1 else die  # not armored: best of two
        extra = (2 * (n == 20) + (n >= 19)) if total >= 10 else 0
        dealt = axe + (extra @ die if extra else 0) + 2
        return dealt.map(lambda v: max(v, 1))

    model = (2 @ icepool.d10).map(damage)
    assert odds.damage == tuple(Fraction(model.probability(k)) for k in range(len(odds.damage)))


def test_observed_attack_damage_matches_the_figures() -> None:
    dice = RandomDice(random.Random(2010_14))
    target = TargetStats(attribute=Attribute.FINESSE, defense=3, reduction=2, armored=True)
    wielded = wield(weapon("one-handed sword"))
    samples = 20_000
    seen = Counter(
        roll_attack(wielded, FIGHTER, target, dice=dice).damage_total for _ in range(samples)
    )
    odds = attack_odds(wielded, FIGHTER, target)
    for k, p in enumerate(odds.damage):
        assert abs(seen[k] / samples - float(p)) < 0.0142, k
    assert abs(sum(k * n for k, n in seen.items()) / samples - float(odds.expected_damage)) < 0.2


def test_attack_odds_refuse_what_the_attack_refuses() -> None:
    target = TargetStats(attribute=Attribute.STRENGTH, defense=2)
    with pytest.raises(RulesError, match="normal attack targets finesse"):
        attack_odds(wield(weapon("light sword")), FIGHTER, target)
    finesse = TargetStats(attribute=Attribute.FINESSE, defense=2)
    with pytest.raises(RulesError, match="can't be parried"):
        attack_odds(wield(weapon("shortbow")), FIGHTER, finesse, situation=Situation(parry=3))


def test_total_cover_stops_everything() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=2)
    odds = attack_odds(
        wield(weapon("shortbow")), FIGHTER, target, situation=Situation(hard_cover=4)
    )
    assert dict(odds.rows)[COVER_ROW] == 1
    assert odds.damage == (Fraction(1),)
    assert odds.hit == 0


@settings(max_examples=60, deadline=None)
@given(
    defense=st.integers(-10, 30),
    reduction=st.integers(0, 12),
    armored=st.booleans(),
    block=st.booleans(),
    advantage=st.integers(0, 2),
    disadvantage=st.integers(0, 2),
    cover=st.integers(0, 4),
    name=st.sampled_from(["one-handed axe", "two-handed sword 2d6", "heavy crossbow", "sling"]),
)
def test_attack_odds_are_a_distribution(
    defense: int, reduction: int, armored: bool, block: bool, advantage: int,
    disadvantage: int, cover: int, name: str,
) -> None:  # fmt: skip
    target = TargetStats(attribute=Attribute.FINESSE, defense=defense, reduction=reduction,
                         armored=armored)  # fmt: skip
    situation = Situation(advantage=advantage, disadvantage=disadvantage, hard_cover=cover)
    odds = attack_odds(wield(weapon(name)), FIGHTER, target, situation=situation, block=block)
    assert sum(p for _, p in odds.rows) == 1
    assert sum(odds.damage) == 1
    assert all(p >= 0 for p in odds.damage)
    # Every hit deals at least 1 (ruling reduction-floor): no hit is ever worth 0.
    assert odds.at_least(1) >= odds.hit
    assert odds.hit == sum((p for row, p in odds.rows if row in ROWS[3:]), Fraction(0))


@pytest.mark.parametrize(
    "name",
    ["concealable sword", "one-handed sword", "two-handed blunt 2d6", "two-handed axe",
     "heavy crossbow", "sling"],
)  # fmt: skip
@pytest.mark.parametrize("block", [False, True])
def test_attack_damage_matches_the_bench_icepool_model(name: str, block: bool) -> None:
    # bench/odds_twod10.py writes the damage rules again in icepool's algebra; every defense
    # and armor of this grid must agree to the exact fraction.
    from bench.odds_twod10 import FIGHTER as FIGHTER_BENCH
    from bench.odds_twod10 import plain_model

    wielded = wield(weapon(name))
    for defense in (-4, 3, 9, 15):
        for reduction in (0, 3):
            target = TargetStats(attribute=Attribute.FINESSE, defense=defense,
                                 reduction=reduction, armored=bool(reduction))  # fmt: skip
            situation = Situation(advantage=defense % 2)
            model = plain_model(wielded, target, situation, block)
            odds = attack_odds(wielded, FIGHTER_BENCH, target, situation=situation, block=block)
            assert odds.damage == tuple(
                Fraction(model.probability(k)) for k in range(len(odds.damage))
            ), (defense, reduction)
