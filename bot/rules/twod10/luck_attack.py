"""Luck of a logged /attack: the look, the hard cover d4, the to-hit (or the defender's
roll), the rending rolls and the damage, each scored as a roll of its own.

Every part is scored under what was actually rolled, read from the row: the attack's,
the look's and the defender's edges (``edge``, ``look_edge``, ``defense_edge``; the
dropped die on older rows), the hard cover's
quarters (``hard_cover``), and for the damage the dice the moved category threw, the
axe's second throws, the flat part (weapon bonus, strength, a bluff's extra), the block
and the reduction left after armor piercing (``damage_roll``). The damage's distribution
is ``odds_attack.damage_totals`` itself, fed a result carrying those same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.generic.luck import Ladder
from bot.rules.twod10.categories import Category, DamageDice, Shifted
from bot.rules.twod10.damage import DamageResult, DamageSpec, Defenses, DieFace
from bot.rules.twod10.luck_base import Scored, d10_task, ladder, placed, ref, whole
from bot.rules.twod10.odds_attack import COVER_DIE, damage_totals
from bot.rules.twod10.ranged import MAX_COVER, check_hard_cover

ATTACKER = "attacker"
DEFENDER = "defender"
MAX_DAMAGE_DICE = 40  # far above any attack's dice: a guard against a corrupted row
MAX_SIDES = 12


@dataclass(frozen=True)
class AttackLuck:
    """The parts of one attack row: scored, and those whose odds the row can't rebuild."""

    scored: tuple[Scored, ...]
    unscored: tuple[str, ...]

    @property
    def headline(self) -> Scored | None:
        """The attack's own roll: the to-hit or the defender's, else the cover d4 or look."""
        for part in ("to-hit", "defense", "cover", "look"):
            for s in self.scored:
                if s.part == part:
                    return s
        return None


def attack_luck(row: Mapping[str, Any]) -> AttackLuck:
    """Score every roll of a ``2d10-attack`` row (ruling ``luck-parts`` in ``luck``)."""
    attacker = ref(row, "attacker_id")
    scored: list[Scored] = []
    unscored: list[str] = []

    def add(part: str, result: Scored | None) -> None:
        if result is None:
            unscored.append(part)
        else:
            scored.append(result)

    look = row.get("look")
    if look is not None and isinstance(look, dict | Mapping):
        look = _with_edge(look, row.get("look_edge"))
        add("look", d10_task(look, part="look", owner=ATTACKER, owner_ref=attacker))
    if row.get("cover_face") is not None:
        add("cover", _cover(row, attacker))
    defended = row.get("defended")
    if defended is not None and isinstance(defended, dict | Mapping):
        defended = _with_edge(defended, row.get("defense_edge"))
        # Ruling luck-defended: the defender's 2d10 is the defender's luck, by its own total.
        add("defense", d10_task(defended, part="defense", owner=DEFENDER,
                                owner_ref=ref(row, "target_id")))  # fmt: skip
    elif row.get("faces"):
        add("to-hit", d10_task(row, part="to-hit", owner=ATTACKER, owner_ref=attacker))
    rending = row.get("rending")
    for rend in rending if isinstance(rending, list) else ():
        if isinstance(rend, dict | Mapping):
            add("rending", d10_task(rend, part="rending", owner=ATTACKER, owner_ref=attacker))
    if "damage_roll" in row:
        if row["damage_roll"] is not None:  # None: no damage die was thrown
            add("damage", _damage(row, attacker))
    elif row.get("damage_faces"):
        unscored.append("damage")  # logged before the damage dice's sides were (luck-old-rows)
    return AttackLuck(scored=tuple(scored), unscored=tuple(unscored))


def _with_edge(roll: Mapping[str, Any], edge: Any) -> Mapping[str, Any]:
    """A nested roll with the edge the row keeps beside it (none on older rows)."""
    return {**roll, "edge": edge} if isinstance(edge, str) else roll


def _cover(row: Mapping[str, Any], attacker: int | None) -> Scored | None:
    quarters, face = whole(row.get("hard_cover")), whole(row.get("cover_face"))
    if quarters is None or face is None or not 1 <= face <= COVER_DIE:
        return None
    if not 1 <= quarters < MAX_COVER:
        return None  # total cover rolls no d4
    through = _through(quarters, face)
    return placed(_cover_ladder(quarters).score(through), through, "cover", ATTACKER, attacker)


@lru_cache(maxsize=32)
def _through(quarters: int, face: int) -> int:
    """1 when the d4 lets the attack through, 0 when the real check says it is stopped."""
    return int(not check_hard_cover(quarters, ScriptedDice([face])).blocked)


@lru_cache(maxsize=8)
def _cover_ladder(quarters: int) -> Ladder:
    """The d4 ranked by what it decides (ruling luck-ranked): through (1) or stopped (0)."""
    faces = range(1, COVER_DIE + 1)
    return Ladder.from_weights(((_through(quarters, f), 1) for f in faces), COVER_DIE)


def _damage(row: Mapping[str, Any], attacker: int | None) -> Scored | None:
    config = _damage_config(row.get("damage_roll"))
    dealt = whole(row.get("damage"))
    if config is None or dealt is None:
        return None
    ranks = _damage_ladder(*config)
    if ranks is None:
        return None
    # None too when the row's damage can't come from its own dice.
    return placed(ranks.score(dealt), dealt, "damage", ATTACKER, attacker)


def _damage_config(
    logged: Any,
) -> tuple[tuple[int, ...], tuple[bool, ...], int, bool, int] | None:
    if not isinstance(logged, dict | Mapping):
        return None
    sides, twice = logged.get("sides"), logged.get("twice")
    flat, reduction = whole(logged.get("flat")), whole(logged.get("reduction"))
    block = logged.get("block")
    if not isinstance(sides, list) or not isinstance(twice, list) or len(sides) != len(twice):
        return None
    if not 1 <= len(sides) <= MAX_DAMAGE_DICE or flat is None or reduction is None:
        return None
    clean = tuple(whole(s) for s in sides)
    if any(s is None or not 1 <= s <= MAX_SIDES for s in clean):
        return None
    if not isinstance(block, bool) or not all(isinstance(t, bool) for t in twice):
        return None
    return clean, tuple(twice), flat, block, reduction  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def _damage_ladder(
    sides: tuple[int, ...], twice: tuple[bool, ...], flat: int, block: bool, reduction: int
) -> Ladder | None:
    """The damage taken, ranked among what these dice could deal (rulings luck-ranked,
    luck-parts); a single amount (a flat point, the floor of 1) is certain (luck-certain)."""
    try:
        return ladder(damage_totals(_probe(sides, twice, flat, block, reduction)))
    except RulesError:
        return None


def _probe(
    sides: tuple[int, ...], twice: tuple[bool, ...], flat: int, block: bool, reduction: int
) -> DamageResult:
    """A damage result whose ``total`` does the real arithmetic on the logged numbers.

    ``damage_totals`` reads only the faces' sides (and an axe's second throw), and each
    sum's ``total``: dice + the weapon's bonus + strength + a bluff's extra, halved by a
    block, less the reduction left after piercing, at least 1. So the logged flat part
    goes in the bonus and the logged reduction (already net of piercing) in the defenses.
    """
    category = Category.D4  # any rung: only a dealing category matters here
    return DamageResult(
        spec=DamageSpec(dice=DamageDice(count=1, category=category, bonus=flat)),
        defenses=Defenses(reduction=reduction, block=block),
        shifted=Shifted(start=category, steps=0, category=category, capped=False),
        faces=tuple(
            DieFace(sides=s, face=1, other=1 if t else None)
            for s, t in zip(sides, twice, strict=True)
        ),
        natural_twenty_dice=0,
        weapon_extra_dice=0,
    )
