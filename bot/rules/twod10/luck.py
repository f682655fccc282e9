"""Dice luck of the 2d10 system's logged rolls: each roll's percentile under its exact odds.

A roll's percentile is P(a worse result) + ½·P(this result) under the configuration
actually rolled (the edge, the modifiers, the dice thrown), with its variance were the
dice fair, (1 − Σ p³)/12; the mean over the exact distribution is exactly ½. The odds
are the bot's own: ``odds.naturals`` for every 2d10, ``odds_attack.damage_totals`` for
damage, the real rules functions fed every face for the single dice.

``row_luck(kind, result)`` scores every roll of one roll-log row (an attack has several);
``percentile(kind, result)`` is the row's headline roll. Rolls whose odds a row can't
rebuild are named in ``RowLuck.unscored``: counted, not scored.

Rulings:

* ``luck-ranked``: a 2d10 roll (task, to-hit, look, defense, rending, dying, medicine,
  morale, casting, rations, disease) is ranked by its total; the modifiers add the same
  to every natural, so only the edge rolled moves its percentile. Damage is ranked by the
  damage the target takes, a light's burn time by the turns it gives; a die that only
  passes or fails (the hard cover d4, the side initiative d6, the interrupt d8s, the
  scavenge d10, the backpack draw, a dropped light's d4 or d12) by that.
* ``luck-parts``: an attack scores each of its rolls apart: the look, the hard cover
  d4, the to-hit, each rending roll and the damage, the last ranked among what its own
  dice could deal once the to-hit had decided them (category, extra dice, block,
  reduction). The stray d8 picks a combatant, neither good nor bad: it is not scored;
  nor is the item-damage d20 over 20 damage, which picks an item (logged in the row).
* ``luck-defended``: a defended attack's 2d10 are the defender's dice, scored as the
  defender's luck (a higher total of theirs is better for them); the attacker rolled no
  to-hit, and the damage dice stay the attacker's.
* ``luck-certain``: a roll that could not have come out otherwise (a flat point of
  damage, damage every sum of which the reduction floors at 1, a draw or scavenge that
  can't fail, an interrupt the finesse gap decides) holds no luck: it is scored with
  variance 0, which ``generic.luck.luck_summary`` counts as certain, never in the mean.
* ``luck-sides``: the GM's side initiative d6 is the players' luck (their side first is
  better), a morale roll the NPCs', an interrupt the reactor's (acting first is better),
  a medicine roll the medic's, a light's rolls (burn time, drop) its bearer's.
* ``luck-old-rows``: a row logged before the bot recorded an edge reads it from the
  dropped die; where it can't tell (three equal faces) or lacks the hard cover's quarters
  or the damage dice's sides, that roll is counted but not scored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.twod10.luck_attack import attack_luck
from bot.rules.twod10.luck_base import Scored as Scored
from bot.rules.twod10.luck_base import d10_task, ref
from bot.rules.twod10.luck_dice import draw, initiative, interrupt, light, scavenge


@dataclass(frozen=True)
class RowLuck:
    """A row's scored rolls (headline first) and the parts it can't score."""

    scored: tuple[Scored, ...]
    unscored: tuple[str, ...] = ()


NO_DICE = RowLuck(scored=())


def _one(part: str, result: Scored | None) -> RowLuck:
    if result is None:
        return RowLuck(scored=(), unscored=(part,))
    return RowLuck(scored=(result,))


def _task(part: str, owner: str, key: str | None) -> Callable[[Mapping[str, Any]], RowLuck]:
    """A row that is one logged 2d10 task; ``key``: the row's field naming its owner."""

    def scored(row: Mapping[str, Any]) -> RowLuck:
        if row.get("faces") == []:
            return NO_DICE  # an interrupted casting rolls nothing
        who = row.get(key) if key else None
        owner_ref = who if isinstance(who, int | str) and who != "" else None
        return _one(part, d10_task(row, part=part, owner=owner, owner_ref=owner_ref))

    return scored


def _disease(row: Mapping[str, Any]) -> RowLuck:
    """A set of infection or overcoming rolls: each one a roll of its own."""
    rolls = row.get("rolls")
    if not isinstance(rolls, list):
        return RowLuck(scored=(), unscored=("disease",))
    owner = ref(row, "character_id")
    parts = [
        d10_task(r, part="disease", owner="character", owner_ref=owner) if isinstance(r, Mapping)
        else None
        for r in rolls
    ]  # fmt: skip
    return RowLuck(
        scored=tuple(p for p in parts if p is not None),
        unscored=tuple("disease" for p in parts if p is None),
    )


def _attack(row: Mapping[str, Any]) -> RowLuck:
    luck = attack_luck(row)
    head = luck.headline
    rest = tuple(s for s in luck.scored if s is not head)
    return RowLuck(scored=((head,) if head else ()) + rest, unscored=luck.unscored)


SCORERS: dict[str, Callable[[Mapping[str, Any]], RowLuck]] = {
    "2d10-task": _task("task", "character", "character_id"),
    "2d10-dying": _task("dying", "character", "character_id"),
    "2d10-medicine": _task("medicine", "medic", "medic"),
    "2d10-morale": _task("morale", "npcs", None),
    "2d10-rations": _task("rations", "character", "character_id"),
    "2d10-cast": _task("cast", "character", "character_id"),
    "2d10-ritual": _task("ritual", "character", "character_id"),
    "2d10-disease": _disease,
    "2d10-attack": _attack,
    "2d10-initiative": lambda row: _one("initiative", initiative(row)),
    "2d10-interrupt": lambda row: _one("interrupt", interrupt(row)),
    "2d10-scavenge": lambda row: _one("scavenge", scavenge(row)),
    "2d10-draw": lambda row: _one("draw", draw(row)),
    "2d10-light": lambda row: _one("light", light(row)),
}


def row_luck(kind: str, result: Mapping[str, Any]) -> RowLuck:
    """Every scored roll of one roll-log row; a kind without exact odds is one unscored."""
    scorer = SCORERS.get(kind)
    if scorer is None or not isinstance(result, dict | Mapping):
        return RowLuck(scored=(), unscored=(kind,))
    return scorer(result)


def percentile(kind: str, result: Mapping[str, Any]) -> Scored | None:
    """The row's headline roll (an attack's to-hit or defense), or None when none is scored."""
    scored = row_luck(kind, result).scored
    return scored[0] if scored else None
