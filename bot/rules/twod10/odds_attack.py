"""Exact odds of a 2d10 attack: each to-hit band, then the damage the aimed target takes.

The real ``roll_attack`` decides everything, driven by scripted dice: the hard
cover d4 (one face that lets the attack through, weighted by the chance the real
``check_hard_cover`` blocks), one real roll per natural (``odds.naturals``), each
face of the stray d8 when a missed shot into melee asks for one, and 1s for the
damage dice. The ``DamageResult`` that comes back names every damage die it
threw (its sides, an axe's second throw, the extra dice of a natural 20 or the
weapon's high roll); their sum is convolved exactly, and each possible sum is
put back into that same result so its own ``total`` applies the weapon bonus,
strength, a bluff's extra, the block, armor less piercing and the floor of 1.

Into soft cover the look is rolled first (``soft_cover``): its exact distribution
comes from the real ``roll_look`` fed one roll per natural, and the attack's odds are
mixed over each distinct outcome (the cover it leaves, and the disadvantage of a look
below 10), weighted by that outcome's chance.

Ruling ``odds-stray``: the damage figures are what the aimed target takes; a
shot that strays into another combatant deals it nothing, and its chance is
shown on its own line.

A target defending the attacked attribute (``Situation.defended``) rolls the 2d10 with
the edges swapped; the naturals enumerated are its roll's, flipped by the real
``roll_defending``. A natural-20 hit that tries rending (``Situation.rend``) is followed
by every natural of the rending roll, a success adding its damage die.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.attack import AttackPlan, AttackResult, plan_attack, roll_attack
from bot.rules.twod10.attack_inputs import PLAIN, AttackerStats, Situation, TargetStats
from bot.rules.twod10.damage import DamageResult, DieFace
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds import NATURAL_TWO_ROW, ROWS, naturals
from bot.rules.twod10.ranged import MAX_COVER, STRAY_DIE, Light, SoftCoverSight, check_hard_cover
from bot.rules.twod10.soft_cover import (
    LookStats,
    after_look,
    look_disadvantages,
    roll_look,
    rolls_look,
)
from bot.rules.twod10.tasks import Edge, Modifier, net_edge
from bot.rules.twod10.wielding import Wielded

COVER_ROW = "stopped by hard cover"
COVER_DIE = 4


class _ThenOnes:
    """Scripted faces, then 1 on every die asked for: the damage dice's shape, not values."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self._script = ScriptedDice(faces)

    def roll(self, sides: int) -> int:
        return self._script.roll(sides) if self._script.remaining else 1


@dataclass(frozen=True)
class LookOdds:
    """The exact outcomes of the look through soft cover, most cover removed first."""

    cover: int
    edge: Edge
    modifiers: tuple[Modifier, ...]
    # One judged look per distinct outcome (cover left, disadvantage), with its chance.
    outcomes: tuple[tuple[Fraction, SoftCoverSight], ...]

    @property
    def seen(self) -> Fraction:
        """The chance the look reaches 10 (no disadvantage, a point or more removed)."""
        return sum((p for p, s in self.outcomes if not s.disadvantage), Fraction(0))


@dataclass(frozen=True)
class AttackOdds:
    """Exact chances of one attack against one target.

    With a look (``look``) ``plan`` and ``edge`` are the attack's before the look is
    judged: no soft cover and none of its disadvantage; ``look`` says what it leaves."""

    plan: AttackPlan
    edge: Edge
    rows: tuple[tuple[str, Fraction], ...]  # to-hit rows (natural 2 apart), cover first
    hit: Fraction
    stray: Fraction  # a missed shot into melee hits another combatant instead
    maneuver_success: Fraction | None  # None without a maneuver
    damage: tuple[Fraction, ...]  # damage[k]: the chance the aimed target takes k
    look: LookOdds | None = None  # the look through soft cover, when one is rolled

    @property
    def expected_damage(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.damage)), Fraction(0))

    def at_least(self, amount: int) -> Fraction:
        """The chance the aimed target takes ``amount`` damage or more."""
        return sum(self.damage[max(amount, 0) :], Fraction(0))


def _die(face: DieFace) -> tuple[dict[int, int], int]:
    """One damage die as whole counts of each face over their total (exact, fast to add)."""
    s = face.sides
    if s == 1:
        return {1: 1}, 1  # a flat point: nothing is rolled
    if face.other is not None:  # the axe's two throws, the higher kept: (2k − 1) of s²
        return {k: 2 * k - 1 for k in range(1, s + 1)}, s * s
    return dict.fromkeys(range(1, s + 1), 1), s


@lru_cache(maxsize=1024)
def damage_totals(damage: DamageResult) -> tuple[tuple[int, Fraction], ...]:
    """The exact damage ``damage``'s dice can deal, by its own ``total``."""
    if not damage.deals_damage:
        return ((0, Fraction(1)),)
    sums, whole = {0: 1}, 1
    for face in damage.faces:
        counts, size = _die(face)
        step: dict[int, int] = defaultdict(int)
        for a, m in sums.items():
            for b, n in counts.items():
                step[a + b] += m * n
        sums, whole = step, whole * size
    dealt: dict[int, int] = defaultdict(int)
    for value, n in sums.items():
        # One face carrying the whole sum: the result's own arithmetic does the rest.
        probe = replace(damage, faces=(DieFace(sides=value, face=value),))
        dealt[probe.total] += n
    return tuple((amount, Fraction(n, whole)) for amount, n in sorted(dealt.items()))


def _cover(quarters: int) -> tuple[Fraction, tuple[int, ...], tuple[int, ...]]:
    """The chance hard cover stops the attack, a d4 face that stops it, one that doesn't.

    No cover and total cover roll no d4 (empty prefixes).
    """
    if quarters == 0:
        return Fraction(0), (), ()
    if quarters >= MAX_COVER:
        return Fraction(1), (), ()
    faces = range(1, COVER_DIE + 1)
    blocked = [f for f in faces if check_hard_cover(quarters, ScriptedDice([f])).blocked]
    through = next(f for f in faces if f not in blocked)
    return Fraction(len(blocked), COVER_DIE), (blocked[0],), (through,)


@lru_cache(maxsize=256)
def look_odds(cover: int, look: LookStats, light: Light) -> LookOdds:
    """Every outcome of ``roll_look``: one real look per natural, grouped by what it leaves."""
    edge = net_edge(0, len(look_disadvantages(light)))
    chances: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    judged: dict[tuple[int, bool], SoftCoverSight] = {}
    for natural in naturals(edge):
        sight = roll_look(cover, look, light=light, dice=ScriptedDice(natural.roll.faces))
        key = (sight.remaining, sight.disadvantage)
        chances[key] += natural.chance
        judged.setdefault(key, sight)
    order = sorted(chances, key=lambda k: (k[1], k[0]))  # seen first, least cover left first
    return LookOdds(
        cover=cover,
        edge=edge,
        modifiers=look.modifiers,
        outcomes=tuple((chances[k], judged[k]) for k in order),
    )


@lru_cache(maxsize=1024)
def attack_odds(
    wielded: Wielded,
    attacker: AttackerStats,
    target: TargetStats,
    *,
    use_finesse: bool = False,
    maneuver: Maneuver | None = None,
    situation: Situation = PLAIN,
    look: LookStats | None = None,
    block: bool = False,
) -> AttackOdds:
    """The odds of ``roll_attack`` with the same arguments; RulesError as it would raise."""
    if look is None or not rolls_look(situation, look):
        return _attack_odds(
            wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
            situation=situation, block=block,
        )  # fmt: skip
    # As roll_attack, refuse what can't be before the look; the plan shown is the
    # attack's before the look is judged (no soft cover, none of its disadvantage).
    plan = plan_attack(
        wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
        situation=replace(situation, soft_cover=0),
    )  # fmt: skip
    seen = look_odds(situation.soft_cover, look, situation.light)
    parts = [
        (p, _attack_odds(
            wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
            situation=after_look(situation, sight), block=block,
        ))
        for p, sight in seen.outcomes
    ]  # fmt: skip
    edge = plan.edge  # a defender's roll swaps the edges
    return _mix(plan, edge, parts, seen)


def _mix(
    plan: AttackPlan, edge: Edge, parts: list[tuple[Fraction, AttackOdds]], seen: LookOdds
) -> AttackOdds:
    """The attack's odds over the look's outcomes, each weighted by its chance."""
    first = parts[0][1]
    rows = dict.fromkeys((row for row, _ in first.rows), Fraction(0))
    length = max(len(odds.damage) for _, odds in parts)
    damage = [Fraction(0)] * length
    hit = stray = won = Fraction(0)
    for p, odds in parts:
        for row, q in odds.rows:
            rows[row] += p * q
        for k, q in enumerate(odds.damage):
            damage[k] += p * q
        hit += p * odds.hit
        stray += p * odds.stray
        won += p * (odds.maneuver_success or 0)
    return AttackOdds(
        plan=plan,
        edge=edge,
        rows=tuple(rows.items()),
        hit=hit,
        stray=stray,
        maneuver_success=won if first.maneuver_success is not None else None,
        damage=tuple(damage),
        look=seen,
    )


@lru_cache(maxsize=1024)
def _attack_odds(
    wielded: Wielded,
    attacker: AttackerStats,
    target: TargetStats,
    *,
    use_finesse: bool,
    maneuver: Maneuver | None,
    situation: Situation,
    block: bool,
) -> AttackOdds:
    """The odds of an attack whose soft cover is already judged (no look rolled)."""
    plan = plan_attack(
        wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
        situation=situation,
    )  # fmt: skip
    edge = plan.edge  # a defender's roll swaps the edges

    def attack(faces: tuple[int, ...]) -> AttackResult:
        return roll_attack(
            wielded, attacker, target, use_finesse=use_finesse, maneuver=maneuver,
            situation=situation, block=block, dice=_ThenOnes(faces),
        )  # fmt: skip

    blocked, stopped, through = _cover(situation.hard_cover)
    weighted: list[tuple[Fraction, AttackResult]] = []
    if blocked:
        weighted.append((blocked, attack(stopped)))
    if blocked < 1:
        for natural in naturals(edge):
            p = (1 - blocked) * natural.chance
            faces = through + natural.roll.faces
            result = attack(faces)
            if result.rending is not None:  # a natural-20 hit tries rending: its every natural
                for rend in naturals(Edge.NONE):
                    weighted.append((p * rend.chance, attack((*faces, *rend.roll.faces))))
                continue
            if result.stray is None:
                weighted.append((p, result))
                continue
            for face in range(1, STRAY_DIE + 1):  # the real d8, every face
                weighted.append((p / STRAY_DIE, attack((*faces, face))))
    return _summarise(plan, edge, weighted, covered=situation.hard_cover > 0, maneuver=maneuver)


def _summarise(
    plan: AttackPlan,
    edge: Edge,
    weighted: list[tuple[Fraction, AttackResult]],
    *,
    covered: bool,
    maneuver: Maneuver | None,
) -> AttackOdds:
    rows = dict.fromkeys(((COVER_ROW,) if covered else ()) + ROWS, Fraction(0))
    damage: dict[int, Fraction] = defaultdict(Fraction)
    hit = stray = won = Fraction(0)
    for p, result in weighted:
        roll = result.outcome  # the defender's flipped roll when the target defended
        if roll is None:
            rows[COVER_ROW] += p
        else:
            rows[NATURAL_TWO_ROW if roll.natural_two else roll.band.value] += p
        hit += p if result.hit else 0
        if result.stray is not None and result.stray.new_target is not None:
            stray += p
        if result.effect is not None and result.effect.succeeded:
            won += p
        if result.damage is None:
            damage[0] += p
            continue
        for amount, q in damage_totals(result.damage):
            damage[amount] += p * q
    top = max(damage)
    return AttackOdds(
        plan=plan,
        edge=edge,
        rows=tuple(rows.items()),
        hit=hit,
        stray=stray,
        maneuver_success=won if maneuver is not None else None,
        damage=tuple(damage.get(k, Fraction(0)) for k in range(top + 1)),
    )
