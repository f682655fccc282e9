"""Each /odds chart as its command sends it: it decodes, its axis is named, and its
colours and legend say what its caller means (HOCS pools, damage, party, clash;
2d10 tasks and attacks)."""

from __future__ import annotations

from fractions import Fraction

from bot.render.chart_style import NEUTRAL
from bot.render.hocs.odds import chart_file
from bot.render.hocs.odds_clash import _A_ADV, _B_ADV, clash_chart
from bot.render.hocs.odds_damage import damage_odds_embed
from bot.render.hocs.odds_party import PartyRow, party_odds_embed
from bot.render.odds_chart import AXIS, FAIL, PASS
from bot.render.twod10.odds import attack_chart, task_chart
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import pool_odds, test_odds
from bot.rules.hocs.odds_clash import clash_odds
from bot.rules.hocs.odds_damage import damage_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rules.twod10.attack_inputs import AttackerStats, TargetStats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.odds import task_odds
from bot.rules.twod10.odds_attack import attack_odds
from bot.rules.twod10.wielding import wield
from tests.render.chart_helpers import (
    bar_runs,
    colours_in,
    legend_box,
    open_png,
    text_pixels,
    x_label_box,
)


def _image(file):
    assert file.filename == "odds.png"
    return open_png(file.fp.getvalue())


def _labelled(img) -> None:
    assert text_pixels(img, x_label_box()) > 50


def test_a_pool_without_a_difficulty_is_one_colour_without_a_legend() -> None:
    img = _image(chart_file(pool_odds(PoolSpec(base=3)), None))
    _labelled(img)
    assert bar_runs(img) == [NEUTRAL]
    assert not {FAIL, PASS} & colours_in(img, legend_box())


def test_a_pool_against_a_difficulty_is_red_below_it_green_from_it_with_a_legend() -> None:
    img = _image(chart_file(test_odds(PoolSpec(base=3), 2).pool, 2))
    _labelled(img)
    assert bar_runs(img) == [FAIL, PASS]  # 0-1 successes fail, 2-3 pass
    assert {FAIL, PASS} <= colours_in(img, legend_box())


def test_difficulty_zero_has_only_passing_bars_and_one_legend_entry() -> None:
    img = _image(chart_file(pool_odds(PoolSpec(base=2)), 0))
    assert bar_runs(img) == [PASS]
    assert PASS in colours_in(img, legend_box())
    assert FAIL not in colours_in(img, legend_box())


def test_a_clash_colours_each_outcome_and_names_the_sides() -> None:
    # One round: a deadlock is then a stand-off often enough for its grey bar to show.
    odds = clash_odds(PoolSpec(base=5), PoolSpec(base=4), attack=False, rounds=1)
    assert odds.standoff > Fraction(5, 100)
    named = _image(clash_chart(odds, sides=("Aria", "Goblin")))
    default = _image(clash_chart(odds))
    _labelled(named)
    assert bar_runs(named) == [_A_ADV, PASS, AXIS, FAIL, _B_ADV]
    assert {PASS, AXIS, FAIL} <= colours_in(named, legend_box())
    # The names are in the legend and under the bars: a different picture from "1st"/"2nd".
    assert named.tobytes() != default.tobytes()


def test_hocs_damage_is_one_colour_and_names_its_axis() -> None:
    damage = damage_odds((12, 10, 8))
    _, file = damage_odds_embed(
        "Odds", damage, plain_top=30, reduction=0, hit=None, target=None, notes=[]
    )
    img = _image(file)
    _labelled(img)
    assert bar_runs(img) == [NEUTRAL]


def test_the_party_chart_has_a_bar_per_character_who_can_roll() -> None:
    rows = [
        PartyRow("Aria", "Athletics", 5, test_odds(PoolSpec(base=5), 3)),
        PartyRow("Bo *the bold*", "Athletics", 3, test_odds(PoolSpec(base=3), 3)),
        PartyRow("Cy", "Athletics", 0, None, why="no such skill"),
    ]
    _, file = party_odds_embed("Athletics", Difficulty(3), rows)
    img = _image(file)
    _labelled(img)
    assert bar_runs(img) == [NEUTRAL]


def test_the_party_chart_with_nobody_is_still_a_chart() -> None:
    _, file = party_odds_embed("Athletics", Difficulty(3), [])
    _labelled(_image(file))


def test_a_2d10_task_is_red_for_the_failing_rows_and_green_for_the_rest() -> None:
    img = _image(task_chart(task_odds(attribute=2, skill=1, difficulty=0)))
    _labelled(img)
    assert bar_runs(img) == [FAIL, PASS]
    assert {FAIL, PASS} <= colours_in(img, legend_box())


def test_a_2d10_attack_is_green_from_what_takes_the_target_to_zero() -> None:
    fighter = AttackerStats(finesse=3, strength=3, melee=3, ranged=3, brawl=3)
    target = TargetStats(attribute=Attribute.FINESSE, defense=4)
    odds = attack_odds(wield(weapon("two-handed sword 2d6")), fighter, target)
    for hp in (20, None):
        img = _image(attack_chart(odds, target_hp=hp))
        _labelled(img)
        assert bar_runs(img) == [FAIL, PASS]
        assert {FAIL, PASS} <= colours_in(img, legend_box())
