"""2d10 odds benchmark: exact task and attack odds beside icepool, plus the chart.

``PYTHONPATH=. python -m bench.odds_twod10`` (also run at the end of ``bench.odds``)
prints, cold cache every time:

* the one-off enumeration of every face sequence per edge (``naturals``);
* ``task_odds`` per query across every modifier sum a /task can reach, per edge,
  beside icepool computing the same to-hit rows;
* ``attack_odds`` across weapons, situations and defenses, beside icepool computing
  the same damage distribution where it can express the attack (no maneuver, cover
  or stray shot: those are decisions on the rolled total that icepool's dice algebra
  would need the whole rule written again to state), each checked equal;
* the slowest query the commands accept, with its embed and chart, end to end.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from fractions import Fraction

import icepool

from bot.render.twod10.odds import attack_chart, attack_odds_embed, task_chart, task_odds_embed
from bot.rules.twod10.attack import plan_attack
from bot.rules.twod10.attack_inputs import AttackerStats, Situation, TargetStats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.damage import DamageSpec
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds import ROWS, _task_odds, naturals, task_odds
from bot.rules.twod10.odds_attack import attack_odds, damage_totals
from bot.rules.twod10.tasks import Edge, net_edge
from bot.rules.twod10.wielding import Wielded, wield

LADDER = (1, 2, 3, 4, 6, 8, 10, 12)  # the dice categories, rung 0 to 7
EDGE_ARGS = {Edge.NONE: (0, 0), Edge.ADVANTAGE: (1, 0), Edge.DISADVANTAGE: (0, 1)}
FIGHTER = AttackerStats(finesse=3, strength=3, melee=3, ranged=3, brawl=3)


def _ms(fn: Callable[[], object], *, best_of: int = 3) -> float:
    """Wall time of ``fn`` in ms, the best of a few runs: on a shared machine the rest is
    other processes' noise, not this code's cost."""
    times = []
    for _ in range(best_of):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def icepool_natural(edge: Edge) -> icepool.Die:
    return {
        Edge.NONE: 2 @ icepool.d10,
        Edge.ADVANTAGE: icepool.d10.highest(3, 2),
        Edge.DISADVANTAGE: icepool.d10.lowest(3, 2),
    }[edge]


def icepool_rows(edge: Edge, modifier: int) -> dict[str, Fraction]:
    """The to-hit rows as icepool computes them, the table written out again."""

    def row(n: int) -> str:
        total = n + modifier
        if n == 2:
            return ROWS[0]
        for low, index in ((25, 6), (20, 5), (15, 4), (10, 3), (6, 2)):
            if total >= low:
                return ROWS[index]
        return ROWS[1]

    die = icepool_natural(edge).map(row)
    return {r: Fraction(die.probability(r)) for r in die.outcomes()}


def icepool_damage(
    edge: Edge, modifier: int, spec: DamageSpec, *, reduction: int, armored: bool, block: bool
) -> icepool.Die:
    """The damage of a plain attack (no maneuver, cover or stray) from the text, in icepool."""
    left = max(0, reduction - spec.armor_piercing)

    def damage(n: int) -> icepool.Die | int:
        total = n + modifier
        if n == 2:
            return 0
        hit = total >= 10
        steps = ((total - 10) // 2 if hit else total - 10) + spec.category_bonus
        rung = min(int(spec.dice.category) + steps, 7)
        if not hit and rung < 3:
            return 0
        sides = LADDER[max(rung, 0)]
        die = icepool.d(sides) if sides > 1 else icepool.Die([1])
        first = die.highest(2, 1) if spec.is_axe and not armored and sides > 1 else die
        extra = 0
        if hit:
            extra += 2 * (n == 20)
            extra += spec.extra_die_from is not None and n >= spec.extra_die_from
        rest = spec.dice.count - 1 + extra
        rolled = first + (rest @ die if rest else 0) + spec.dice.bonus + spec.attribute_bonus
        return rolled.map(lambda v: max(max(v, 0) // (2 if block else 1) - left, 1))

    return icepool_natural(edge).map(damage)


def plain_model(
    wielded: Wielded, target: TargetStats, situation: Situation, block: bool
) -> icepool.Die:
    plan = plan_attack(wielded, FIGHTER, target, situation=situation)
    edge = net_edge(len(plan.advantages), len(plan.disadvantages))
    modifier = sum(m.value for m in plan.modifiers)
    return icepool_damage(
        edge, modifier, plan.spec, reduction=target.reduction, armored=target.armored, block=block
    )


def bench_naturals() -> None:
    for edge in Edge:
        ms = _ms(lambda edge=edge: (naturals.cache_clear(), naturals(edge)))
        print(f"  naturals({edge.value}): every face sequence through roll_d10s: {ms:.2f} ms")
    for edge in Edge:
        naturals(edge)  # warm, as in a running bot after its first query


def bench_tasks() -> None:
    print("2d10 task_odds per query, cold cache, best of 3 (modifier sums -51 to +42), ms")
    print(f"  {'edge':14}{'ours median':>12}{'ours max':>10}{'icepool median':>16}{'max':>8}")
    for edge, (adv, dis) in EDGE_ARGS.items():
        ours, ice = [], []
        for modifier in range(-51, 43):
            extra = modifier - 6  # attribute 6, skill 0, then the rest as difficulty
            ours.append(_ms(lambda e=extra, a=adv, d=dis: (_task_odds.cache_clear(), task_odds(
                attribute=6, difficulty=e, advantage=a, disadvantage=d))))  # fmt: skip
            ice.append(_ms(lambda m=modifier, edge=edge: icepool_rows(edge, m)))
            odds = task_odds(attribute=6, difficulty=extra, advantage=adv, disadvantage=dis)
            model = icepool_rows(edge, modifier)
            assert odds.row_chances() == tuple(model.get(r, Fraction(0)) for r in ROWS)
        print(
            f"  {edge.value:14}{statistics.median(ours):12.3f}{max(ours):10.3f}"
            f"{statistics.median(ice):16.3f}{max(ice):8.3f}"
        )


WEAPONS = ("concealable blunt", "one-handed sword", "two-handed sword 2d6", "two-handed axe",
           "heavy crossbow", "longbow")  # fmt: skip
SITUATIONS: dict[str, tuple[Situation, Maneuver | None, bool]] = {
    "plain": (Situation(), None, False),
    "advantage": (Situation(flanking=True), None, False),
    "block": (Situation(), None, True),
    "hard cover 2": (Situation(hard_cover=2), None, False),
    "into melee, 8 others": (Situation(firing_into_melee=True, melee_others=8), None, False),
    "bluff": (Situation(), Maneuver.BLUFF, False),
}
DEFENSES = (-5, 0, 4, 8, 12, 18)


def _cold_attack(
    wielded: Wielded, target: TargetStats, situation: Situation, maneuver: Maneuver | None,
    block: bool,
) -> float:  # fmt: skip
    def cold() -> None:
        attack_odds.cache_clear()
        damage_totals.cache_clear()
        attack_odds(wielded, FIGHTER, target, situation=situation, maneuver=maneuver, block=block)

    return _ms(cold)


def _icepool_expresses(wielded: Wielded, situation: Situation, maneuver: Maneuver | None) -> bool:
    missile = wielded.kind.value in ("ranged", "thrown")
    return (
        maneuver is None
        and not situation.hard_cover
        and not (situation.firing_into_melee and missile)
    )


def _cell(
    wielded: Wielded, situation: Situation, maneuver: Maneuver | None, block: bool
) -> tuple[list[float], list[float]]:
    """Our cold times and icepool's over every defense and armor, each figure checked."""
    attribute = Attribute.MIND if maneuver is Maneuver.BLUFF else Attribute.FINESSE
    ours, ice = [], []
    for defense in DEFENSES:
        for reduction in (0, 4):
            target = TargetStats(attribute=attribute, defense=defense, reduction=reduction,
                                 armored=bool(reduction))  # fmt: skip
            ours.append(_cold_attack(wielded, target, situation, maneuver, block))
            if not _icepool_expresses(wielded, situation, maneuver):
                continue
            ice.append(_ms(lambda t=target: plain_model(wielded, t, situation, block)
                           .probabilities()))  # fmt: skip
            model = plain_model(wielded, target, situation, block)
            odds = attack_odds(wielded, FIGHTER, target, situation=situation, block=block)
            assert odds.damage == tuple(
                Fraction(model.probability(k)) for k in range(len(odds.damage))
            ), (wielded.name, situation, defense, reduction)
    return ours, ice


def bench_attacks() -> tuple[float, str]:
    print("2d10 attack_odds per query, cold cache, best of 3, max over defenses "
          f"{DEFENSES} with armor 0 and 4, ms (icepool max where it can express it)")  # fmt: skip
    print(f"  {'weapon':22}" + "".join(f"{name:>22}" for name in SITUATIONS))
    worst, worst_name = 0.0, ""
    for name in WEAPONS:
        row = f"  {name:22}"
        wielded = wield(weapon(name))
        for label, (situation, maneuver, block) in SITUATIONS.items():
            if maneuver is not None and wielded.kind.value != "melee":
                row += f"{'-':>22}"
                continue
            ours, ice = _cell(wielded, situation, maneuver, block)
            cell = f"{max(ours):.1f}" + (f" ({max(ice):.1f})" if ice else "")
            if max(ours) > worst:
                worst, worst_name = max(ours), f"{name}, {label}"
            row += f"{cell:>22}"
        print(row)
    return worst, worst_name


def bench_end_to_end() -> None:
    """The heaviest query the commands accept: a two-handed sword (2d6, up to 2d12 and three
    extra dice) behind hard cover, into a melee of 8, with advantage, against the unarmored."""
    wielded = wield(weapon("two-handed sword 2d6"))
    target = TargetStats(attribute=Attribute.FINESSE, defense=4)
    situation = Situation(hard_cover=1, firing_into_melee=True, melee_others=8, flanking=True)

    def everything() -> None:
        attack_odds.cache_clear()
        damage_totals.cache_clear()
        odds = attack_odds(wielded, FIGHTER, target, situation=situation, block=True)
        attack_odds_embed("Odds", "finesse defense 4", odds, target_hp=20)
        attack_chart(odds, target_hp=20)

    runs = [_ms(everything, best_of=1) for _ in range(10)]
    print(f"  heaviest attack query + embed + chart: median {statistics.median(runs):.1f} ms,"
          f" max {max(runs):.1f} ms")  # fmt: skip

    def task() -> None:
        _task_odds.cache_clear()
        odds = task_odds(attribute=6, skill=6, advantage=1)
        task_odds_embed("Odds", "difficulty Normal (+0)", odds)
        task_chart(odds)

    runs = [_ms(task, best_of=1) for _ in range(20)]
    print(f"  task query + embed + chart: median {statistics.median(runs):.2f} ms,"
          f" max {max(runs):.2f} ms")  # fmt: skip


def main() -> None:
    print("2d10 odds (exact; cold caches)")
    bench_naturals()
    bench_tasks()
    worst, name = bench_attacks()
    print(f"  slowest attack_odds cell: {worst:.1f} ms ({name})")
    bench_end_to_end()


if __name__ == "__main__":
    main()
