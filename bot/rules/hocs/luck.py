"""HOCS dice luck: the percentile of each logged roll under the configuration rolled.

``parts(kind, result)`` reads a roll-log row (its ``kind`` and ``result`` JSON) and
scores every roll in it whose exact distribution the bot knows, each a ``Part``: what
was rolled, whose roll it was and its ``Scored`` (mid-percentile, null variance,
value; ``bot.rules.generic.luck``). ``percentile(kind, result)`` is the roller's main
one. Distributions come from the bot's exact odds, the same policy that spent the
dice (``luck_ladders``), so talent rerolls, focus, guaranteed successes, boons and
banes, a determination point spent before the roll and the exploding determination
die are all in it; for damage, the kept die the bot picks and the exploding 10s.

What each kind scores ("roller": the row's character, the logged user's; "opponent":
a clash's side b or an attack's target, the row's ``opponent_id``, or for /damage the
target in ``result["target_id"]``):

* ``pool``, ``check``: the successes (``roll``, roller).
* ``clash``: the outcome (``clash``), roller = side A; side B gets the mirror.
* ``attack``: the attack roll (``attack``: the clash from the attacker's view and its
  mirror for the target, or a defenseless ranged test's successes; a defenseless
  melee attack rolls nothing); the damage dealt on a hit (``damage``, roller); the
  target's threshold test (``threshold``, opponent).
* ``damage``: the damage (``damage``, roller) and the target's threshold test
  (``threshold``, opponent).
* ``hero_damage``: the hero point's 2d6 off a hit (``hero_damage``, roller: the
  character whose hit it reduced).

Not scored (counted by the caller): any other kind, a damaged row, a roll changed
after it was thrown when the row keeps no snapshot of its first throw (rows logged
before the ``luck`` field existed), a damage roll whose kept die the player chose.

Rulings:

* ``luck-first-throw``: points spent after a roll (hero or fortune rerolls, a
  determination point after the roll, a hero reroll of damage dice) do not enter its
  luck: the roll is scored as first thrown. The player chooses those spends after
  seeing the dice, so the final result has no distribution the bot knows; the first
  throw's is exact and all chance. The commands keep that first throw in the row's
  ``result["luck"]`` (``first_throw``) because a spend rewrites the rest.
* ``luck-successes``: for a pool, a check and a threshold test more successes is
  better, whatever the difficulty: that refines passing (every pass has more
  successes than every failure) and still tells a bare pass from a triumph.
  Successes at the odds' cap (the pool's dice + 2, at least 13) or more tie.
* ``luck-clash-outcome``: a clash scores its outcome from side A's view, worst
  first: B wins by 2 or more (advantage), B wins, stand-off, A wins (a tie in an
  attack is A's win), A wins by 2 or more; side B's percentile is 1 minus A's. The
  odds are those of the whole clash, repeated rounds included.
* ``luck-damage-policy``: a damage roll scores its amount (kept die, explosions, +1
  per other die at its maximum, bonus) when the kept die is the one the bot picks
  (the best expected total); a die kept by the player's choice is not scored, the
  choice not being chance. A hero point's 2d6 reduction is scored on its own: more
  is better for the character hit.
* ``luck-certain``: a roll whose result was certain (no dice left after banes, a
  clash between two empty pools) is scored at ½ with variance 0; the summary leaves
  such rolls out of its count (``LuckSummary.certain``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.generic.luck import Scored
from bot.rules.hocs.attack.hero import HERO_REDUCTION_DICE, HERO_REDUCTION_SIDES
from bot.rules.hocs.luck_ladders import (
    CLASH_RANK,
    clash_ladder,
    damage_ladder,
    hero_reduction_ladder,
    pool_ladder,
    spec_tuple,
)
from bot.rules.hocs.many_dice import RolledPool, best_choice
from bot.rules.hocs.pool import SERIAL_VERSION

__all__ = [
    "KINDS",
    "OPPONENT",
    "ROLLER",
    "SNAPSHOT_KEY",
    "Part",
    "first_throw",
    "parts",
    "percentile",
]

ROLLER = "roller"
OPPONENT = "opponent"
SNAPSHOT_KEY = "luck"
KINDS = ("pool", "check", "clash", "attack", "damage", "hero_damage")

Observed = dict[str, Any]  # one roll's configuration and result, JSON-ready
_DAMAGED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RulesError)


@dataclass(frozen=True, slots=True)
class Part:
    """One scored roll of a row: ``what`` (roll, clash, attack, damage, threshold,
    hero_damage), ``whose`` (ROLLER or OPPONENT) and its luck."""

    what: str
    whose: str
    scored: Scored


def percentile(kind: str, result: Mapping[str, Any]) -> Scored | None:
    """The roller's main roll in the row (the first of its parts), or None."""
    for part in parts(kind, result):
        if part.whose == ROLLER:
            return part.scored
    return None


def parts(kind: str, result: Mapping[str, Any]) -> tuple[Part, ...]:
    """Every roll in the row that can be scored (see the module docstring), in order."""
    if kind == "hero_damage":
        scored = _hero_damage(result)
        return (Part("hero_damage", ROLLER, scored),) if scored is not None else ()
    wanted = _PARTS.get(kind)
    if not wanted:
        return ()
    stored = result.get(SNAPSHOT_KEY)
    if not isinstance(stored, dict | Mapping):
        stored = {}
    out: list[Part] = []
    for what in wanted:
        # The first throw as logged wins over the row as it stands (luck-first-throw);
        # the row is read only for a roll the snapshot lacks (an old row, or a hit that a
        # spend brought about after the first throw).
        observed = stored.get(what)
        try:
            if not isinstance(observed, dict | Mapping):
                observed = _READERS[what](result)
            scored = _score(observed) if observed is not None else None
        except _DAMAGED:
            continue
        if scored is None:
            continue
        out.append(Part(what, OPPONENT if what == "threshold" else ROLLER, scored))
        if "outcome" in observed:  # a clash: side B's view is the mirror
            out.append(Part(what, OPPONENT, scored.mirrored()))
    return tuple(out)


def first_throw(kind: str, result: Mapping[str, Any]) -> dict[str, Observed]:
    """What ``parts`` needs from the rolls in ``result`` that no point or choice has
    changed, by part. The commands store it under ``result[SNAPSHOT_KEY]`` when they
    first log a roll (a spend later rewrites the rest of the row)."""
    out: dict[str, Observed] = {}
    for what in _PARTS.get(kind, ()):
        try:
            observed = _READERS[what](result)
        except _DAMAGED:
            observed = None
        if observed is not None:
            out[what] = observed
    return out


# --- reading a row ---------------------------------------------------------------------


def _touched(roll: Mapping[str, Any]) -> bool:
    """A skill roll changed after it was thrown: a hero or fortune reroll, or a
    determination point (and its die) added afterwards."""
    if roll.get("determination_after"):
        return True
    for die in roll["dice"]:
        if die.get("added_after_roll"):
            return True
        for reroll in die.get("rerolls", ()):
            if reroll["source"] != "talent":
                return True
    return False


def _skill(roll: Mapping[str, Any] | None) -> Observed | None:
    if roll is None or roll.get("version") != SERIAL_VERSION or _touched(roll):
        return None
    return {"spec": list(spec_tuple(roll["spec"])), "successes": int(roll["successes"])}


def _clash(clash: Mapping[str, Any] | None) -> Observed | None:
    if not clash:
        return None
    rounds = clash["rounds"]
    if not rounds or any(_touched(r["a"]) or _touched(r["b"]) for r in rounds):
        return None
    final, winner = rounds[-1], clash["winner"]
    margin = abs(int(final["a"]["successes"]) - int(final["b"]["successes"]))
    if winner is None:
        outcome = "standoff"
    elif winner in ("a", "b"):
        outcome = f"{winner}_{'advantage' if margin >= 2 else 'wins'}"
    else:
        return None
    return {
        "a": list(spec_tuple(clash["a"])),
        "b": list(spec_tuple(clash["b"])),
        "attack": bool(clash["attack"]),
        "outcome": outcome,
    }


def _roll_part(result: Mapping[str, Any]) -> Observed | None:
    return _skill(result["roll"])


def _attack_part(result: Mapping[str, Any]) -> Observed | None:
    attack = result["attack"]
    if attack["mode"] == "clash":
        return _clash(attack.get("clash"))
    if attack["mode"] == "defenseless ranged" and attack.get("test"):
        return _skill(attack["test"]["roll"])
    return None  # defenseless melee: no roll


def _damage_part(result: Mapping[str, Any]) -> Observed | None:
    record = result.get("damage")
    kept = record.get("kept") if record else None
    if not kept:
        return None  # a miss, or immunity emptied the pool
    if any("hero_reroll" in change for change in result.get("changes", ())):
        return None  # luck-first-throw: these are not the first faces
    pool = RolledPool.from_dict(kept["pool"])
    if best_choice(pool) != int(kept["chosen_index"]):
        return None  # luck-damage-policy
    return {
        "sizes": list(pool.sizes),
        "bonus": int(record.get("bonus", 0)),
        "exploding": pool.exploding,
        "amount": int(record["amount"]),
    }


def _threshold_part(result: Mapping[str, Any]) -> Observed | None:
    hit = result.get("hit")
    test = hit.get("threshold_test") if hit else None
    return _skill(test["roll"]) if test else None


_READERS: dict[str, Callable[[Mapping[str, Any]], Observed | None]] = {
    "roll": _roll_part,
    "clash": lambda result: _clash(result["clash"]),
    "attack": _attack_part,
    "damage": _damage_part,
    "threshold": _threshold_part,
}
_PARTS: dict[str, tuple[str, ...]] = {
    "pool": ("roll",),
    "check": ("roll",),
    "clash": ("clash",),
    "attack": ("attack", "damage", "threshold"),
    "damage": ("damage", "threshold"),
}


# --- scoring ---------------------------------------------------------------------------


def _score(observed: Mapping[str, Any]) -> Scored | None:
    if "successes" in observed:
        ladder, cap = pool_ladder(_spec_key(observed["spec"]))
        successes = int(observed["successes"])
        return ladder.score(min(successes, cap), successes)
    if "outcome" in observed:
        outcome = str(observed["outcome"])
        a, b = _spec_key(observed["a"]), _spec_key(observed["b"])
        ladder = clash_ladder(a, b, bool(observed["attack"]))
        return ladder.score(CLASH_RANK[outcome], outcome)
    sizes = tuple(int(s) for s in observed["sizes"])
    ladder = damage_ladder(sizes, int(observed["bonus"]), bool(observed["exploding"]))
    return ladder.score(int(observed["amount"]))


def _spec_key(values: Any) -> tuple[int, int, int, int, int, int, int]:
    # (PoolSpec refuses anything but seven whole numbers in range when the ladder is built.)
    key = tuple(values)
    if len(key) != 7:
        raise ValueError("a pool spec has seven counts")
    return key  # type: ignore[return-value]


def _hero_damage(result: Mapping[str, Any]) -> Scored | None:
    faces = result.get("faces")
    if not isinstance(faces, list) or len(faces) != HERO_REDUCTION_DICE:
        return None
    if not all(type(f) is int and 1 <= f <= HERO_REDUCTION_SIDES for f in faces):
        return None
    return hero_reduction_ladder().score(sum(faces))
