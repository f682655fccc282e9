"""Exact damage-pool odds against brute force through the real many-dice functions."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from bot.rules.dice_source import RandomDice, ScriptedDice, ScriptedDiceExhausted
from bot.rules.hocs.damage import HitPoints, apply_damage
from bot.rules.hocs.damage_pool import DamageType
from bot.rules.hocs.many_dice import (
    MAX_EXPLOSIONS,
    RolledDie,
    RolledPool,
    best_choice,
    resolve_choice,
    roll_one_result,
)
from bot.rules.hocs.odds_damage import damage_odds, hit_odds
from bot.rules.hocs.threshold import ThresholdState


def brute(sizes: tuple[int, ...], bonus: int, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """Every face of every die, the bot's own choice, then every explosion face up to
    ``depth`` extra dice (deeper branches counted as open)."""
    dist: dict[int, Fraction] = Counter()
    open_mass = Fraction(0)
    base = Fraction(1, 1)
    for s in sizes:
        base /= s
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        rolled = RolledPool(tuple(RolledDie(s, f) for s, f in zip(sizes, faces, strict=True)))
        index = best_choice(rolled)
        sides = sizes[index]
        stack: list[tuple[int, ...]] = [()]
        while stack:
            prefix = stack.pop()
            p = base / sides ** len(prefix)
            try:
                result = resolve_choice(rolled, index, ScriptedDice(prefix))
            except ScriptedDiceExhausted:
                if len(prefix) >= depth:
                    open_mass += p
                else:
                    stack.extend((*prefix, f) for f in range(1, sides + 1))
                continue
            dist[max(0, result.total + bonus)] += p
    return dist, open_mass


@pytest.mark.parametrize(
    ("sizes", "bonus"),
    [((8, 6, 4), 0), ((6, 6), 1), ((10, 8), 0), ((12, 6, 6), 2), ((20, 4), -3), ((10, 10), 0)],
)
def test_damage_odds_match_brute_force(sizes: tuple[int, ...], bonus: int) -> None:
    dist, open_mass = brute(sizes, bonus, depth=3)
    odds = damage_odds(sizes, bonus=bonus).dist
    assert sum(odds.values()) == 1
    for amount in set(dist) | set(odds):
        assert dist.get(amount, 0) <= odds.get(amount, 0) <= dist.get(amount, 0) + open_mass
    if 10 not in sizes and 12 not in sizes and 20 not in sizes:
        assert open_mass == 0 and dict(dist) == odds


def test_rules_text_example_pool() -> None:
    # The text's pool "1d10, 1d8 and 2d6" (faces 4, 7, 6, 6 deal 7 + 2 = 9): every face
    # set, the bot's choice and the d10's explosions, against brute force.
    dist, open_mass = brute((10, 8, 6, 6), 0, depth=2)
    odds = damage_odds((10, 8, 6, 6))
    assert dist[9] == odds.chance(9)  # 9 never needs an explosion
    for amount in set(dist) | set(odds.dist):
        assert dist.get(amount, 0) <= odds.dist.get(amount, 0) <= dist.get(amount, 0) + open_mass


def test_single_d10_explodes_to_the_cap() -> None:
    odds = damage_odds((10,))
    assert odds.chance(10) == 0  # a 10 always rolls on
    assert odds.chance(3) == Fraction(1, 10)
    assert odds.chance(13) == Fraction(1, 100)  # 10 then 3
    assert odds.chance(10 * (MAX_EXPLOSIONS + 1)) == Fraction(1, 10 ** (MAX_EXPLOSIONS + 1))
    # E = 5.5 / 0.9 less what the cap cuts off (10^-50 scale).
    assert abs(odds.expected - Fraction(55, 9)) < Fraction(1, 10**45)


def test_a_lone_d6_with_maximum_bonus() -> None:
    # 2d6: keep the higher; +1 when the other (discarded) die shows 6 too.
    odds = damage_odds((6, 6))
    assert odds.chance(7) == Fraction(1, 36)  # 6 and 6: keep one, +1 for the other
    assert odds.chance(6) == Fraction(10, 36)
    assert odds.chance(1) == Fraction(1, 36)


def test_observed_frequencies_agree() -> None:
    sizes = (12, 10, 8)
    odds = damage_odds(sizes)
    rng = RandomDice(random.Random(1416))
    n = 6000
    seen = Counter(min(roll_one_result(sizes, rng).total, 13) for _ in range(n))
    chi = 0.0
    for amount in range(1, 14):
        p = float(odds.at_least(13)) if amount == 13 else float(odds.chance(amount))
        if p:
            chi += (seen[amount] - n * p) ** 2 / (n * p)
    assert chi < 32.9  # 11 degrees of freedom (12 nonzero cells), p = 0.001


def test_hit_odds_follow_apply_damage() -> None:
    odds = damage_odds((8, 6))
    target = HitPoints(current=3, maximum=12, threshold=-6)
    hit = hit_odds(odds, target, toughness=2)
    # Received = max(1, amount - 2); dead when 3 - received < -6, i.e. received >= 10: never.
    assert hit.dead == 0
    # A test when 3 - received <= 0: received >= 3, amount >= 5.
    assert hit.states[ThresholdState.TEST_REQUIRED] == odds.at_least(5)
    assert hit.states[ThresholdState.FINE] == 1 - odds.at_least(5)


def test_hit_odds_equal_applying_every_amount() -> None:
    """The shortcut for the explosions' long tail changes nothing: every amount applied."""
    from bot.rules.hocs.threshold import check_threshold
    from bot.rules.hocs.wounds import needs_wound_check

    odds = damage_odds((12, 10))
    for target, kw in [
        (HitPoints(current=4, maximum=12, threshold=-6, temporary=3), {"toughness": 2}),
        (HitPoints(current=0, maximum=8, threshold=-4), {"lethal": False}),
        (
            HitPoints(current=9, maximum=9, threshold=-5),
            {"mettle": 1, "types": (DamageType.MENTAL,)},
        ),
    ]:
        hit = hit_odds(odds, target, **kw)
        states: Counter = Counter()
        wound = Fraction(0)
        for amount, p in odds.dist.items():
            applied = apply_damage(target, amount, **kw)
            check = check_threshold(applied)
            states[check.state] += p
            alive = check.state is not ThresholdState.DEAD
            wound += p if needs_wound_check(applied.after_reductions, survived=alive) else 0
        assert hit.states == {k: v for k, v in states.items() if v}
        assert hit.wound_check == wound


def test_hit_odds_death_and_wound_check() -> None:
    odds = damage_odds((12,))
    target = HitPoints(current=2, maximum=12, threshold=-5)
    hit = hit_odds(odds, target)
    # Dead when received > 7: faces 8, 9, 11, 12 and every exploded 10 (10 + x >= 11).
    assert hit.dead == Fraction(5, 12)
    # A wound check needs 10+ and survival: nobody who takes 10+ here survives.
    assert hit.wound_check == 0
    nonlethal = hit_odds(odds, target, lethal=False)
    assert nonlethal.dead == 0
    assert nonlethal.states[ThresholdState.KNOCKED_OUT] == Fraction(11, 12)


def test_immunity_and_types_pass_through() -> None:
    odds = damage_odds((6,))
    target = HitPoints(current=5, maximum=5, threshold=-4)
    immune = hit_odds(odds, target, types=(DamageType.FIRE,), immunities=(DamageType.FIRE,))
    assert immune.states == {ThresholdState.FINE: 1} and immune.wound_check == 0
