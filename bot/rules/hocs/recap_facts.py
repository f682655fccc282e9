"""What one HOCS roll-log row tells the recap: ``facts_of(row, players) -> RollFacts``.

``players`` maps each player character's id to its name; the row's character (a
/clash's side a, an attack's attacker) is the roller when it is one, an attack's or a
/damage roll's target the target when it is one, a /clash's side b the opponent (who
owns its mirrored luck, ``bot.rules.hocs.luck``). Names are as stored: the renderer
escapes them. Rows are read as they stand now (after every spend), except luck, which
``hocs.luck`` scores from the first throw (ruling ``luck-first-throw``).

What each kind yields:

* ``pool``, ``check``: success or failure against the difficulty (None without one;
  difficulty 0 is an automatic success), a critical failure, the 6s, the luck of the
  successes, the points spent.
* ``clash``: side a's win (True), loss (False) or stand-off (None); its critical
  failure and 6s in the deciding round; the clash's luck for side a and its mirror for
  side b.
* ``attack``: hit (True) or miss (False) for the attacker; its critical failure and 6s
  (no roll, nothing, for a defenseless melee target); the damage dealt and, for the
  target, taken, its new wounds, down and dying; luck of the attack roll (both sides),
  the damage (attacker) and the threshold test (target).
* ``damage``: no success notion; damage dealt (by the row's character, if any) and
  taken; wounds, down, dying; luck of the damage and the threshold test.
* ``hero_damage``: the hero point spent and the luck of its 2d6, for the character
  whose hit it reduced (the damage taken is already the reduced one on the hit's row).
* ``roll`` (/roll): only its luck (``bot.rules.generic.luck_roll``); its roller is the
  row's character, which /roll never stores, so nobody's.
* any other kind, or a damaged row: counted, unscored, nothing else.

Rulings:

* ``recap-critical``: a critical failure in the recap is a failed roll (a /pool or
  /check below its difficulty, a lost clash, a missed attack) whose determination die
  first came up 1: the one case of the rules' three the dice alone decide (the bot's
  "possible critical failure"). A failure by a margin the GM sets is the GM's call and
  is not counted; a threshold test failed by 2 or more ("Critical Failure 2+") is the
  target's, and the recap counts what it did: the target dying.
* ``recap-sixes``: the 6s are those the roller's dice show as the roll stands (after
  rerolls and focus; a determination die's explosions included); in a clash the
  deciding round's, in an attack the attacker's roll's. Damage dice and the target's
  rolls are not the roller's d6 pool and are not counted.
* ``recap-damage``: damage dealt is what the target received after toughness and
  mettle (the hit's ``after_reductions``, hero points' 2d6 already off); a /damage roll
  applied to no one counts its amount rolled (the table applies it by hand); a miss 0.
  The same number is the target's damage taken.
* ``recap-wounds``: wounds are entries the hit added to the target's wound list (a
  wound check of 8+ gives a wound or an injury); downed: the hit left the target
  unconscious or dead where it was neither; dying: it left the target dying where it
  was not. Staggered alone is neither.
* ``recap-points``: the points spent are read from the dice as
  ``bot.rules.hocs.recap_facts_points`` says (exact but for repeated hero rerolls on
  an /attack, there a lower bound); only the roller's are the row's ``points_spent``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.generic.luck_roll import roll_percentile
from bot.rules.generic.recap import LoggedRow, Luck, RollFacts
from bot.rules.hocs.luck import OPPONENT, ROLLER, parts
from bot.rules.hocs.recap_facts_points import OPPONENT as OPPONENT_SIDE
from bot.rules.hocs.recap_facts_points import ROLLER as ROLLER_SIDE
from bot.rules.hocs.recap_facts_points import TARGET as TARGET_SIDE
from bot.rules.hocs.recap_facts_points import row_spends

__all__ = ["facts_of"]

_DAMAGED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RulesError)
_DOWN = ("unconscious", "dead")


def facts_of(row: LoggedRow, players: Mapping[int, str]) -> RollFacts:
    """What ``row`` tells the recap (see the module docstring)."""
    roller = players.get(row.character_id) if row.character_id is not None else None
    base: dict[str, Any] = {
        "roll_id": row.id,
        "kind": row.kind,
        "roller": roller,
        "secret": row.secret,
        "message_id": row.message_id,
        "channel_id": row.channel_id,
    }
    result = row.result
    if row.kind == "roll":
        scored = roll_percentile(result)
        expression = result.get("expression")
        luck: tuple[Luck, ...] = ()
        if scored is not None:
            luck = (
                Luck(
                    owner=roller, percentile=scored.percentile, variance=scored.variance,
                    part="roll",
                ),
            )  # fmt: skip
        words = f"roll {expression}" if isinstance(expression, str) else "roll"
        return RollFacts(**base, luck=luck, unscored=not luck, label=_whose(roller, words))
    reader = _KINDS.get(row.kind)
    if reader is None:
        return RollFacts(**base, unscored=True, label=_whose(roller, row.kind))
    try:
        facts = reader(result, roller, players)
        spends = row_spends(row.kind, result)
        spent = spends.get(ROLLER_SIDE, ())
        opponent = _character(result.get(_OPPONENT_KEY.get(row.kind, "")), players)
        # The opponent's own spends (a clash's side b, a target's defense or threshold).
        others = tuple(
            (opponent, kind, n)
            for side in (OPPONENT_SIDE, TARGET_SIDE)
            for kind, n in spends.get(side, ())
            if opponent is not None
        )
    except _DAMAGED:
        return RollFacts(**base, unscored=True, label=_whose(roller, row.kind))
    owners = {ROLLER: roller, OPPONENT: opponent}
    luck = tuple(
        Luck(
            owner=owners[p.whose],
            percentile=p.scored.percentile,
            variance=p.scored.variance,
            part=p.what,
        )
        for p in parts(row.kind, result)
    )
    threw = facts.pop("threw")
    return RollFacts(
        **base, **facts, luck=luck, unscored=threw and not luck, points_spent=spent,
        others_spent=others,
    )  # fmt: skip


# The result key naming the character who owns the OPPONENT parts (hocs.luck).
_OPPONENT_KEY = {"clash": "opponent_character_id", "attack": "target_id", "damage": "target_id"}


def _character(value: object, players: Mapping[int, str]) -> str | None:
    return players.get(value) if isinstance(value, int) else None


def _whose(name: str | None, words: str) -> str:
    return f"{name}'s {words}" if name else words


# --- the kinds ---------------------------------------------------------------------------
# Each returns RollFacts' fields from the row's result (``threw``: dice were thrown).

Facts = dict[str, Any]


def _skill(result: Mapping[str, Any], roller: str | None, players: Mapping[int, str]) -> Facts:
    roll, difficulty = result["roll"], result.get("difficulty")
    heading = result["heading"]
    succeeded = None
    if difficulty is not None:
        succeeded = int(difficulty) == 0 or int(roll["successes"]) >= int(difficulty)
    return {
        "succeeded": succeeded,
        "critical_failure": succeeded is False and _determination_one(roll),
        "sixes": int(roll["sixes"]),
        "label": _whose(roller or str(heading["who"]), _skill_words(heading)),
        "threw": bool(roll["dice"]),
    }


def _skill_words(heading: Mapping[str, Any]) -> str:
    what = str(heading["what"])
    if what.endswith("d6") and what[:-2].isdigit():  # /pool: "4d6"
        return f"pool {what}"
    # "Athletics (STR 3 + 1 training)", "Strength 3": the skill's or attribute's name.
    name = re.sub(r" \d+$", "", what.split(" (")[0])
    return f"{name.lower()} check"


def _clash(result: Mapping[str, Any], roller: str | None, players: Mapping[int, str]) -> Facts:
    clash = result["clash"]
    winner = clash["winner"]
    succeeded = {"a": True, "b": False}.get(winner)
    final = clash["rounds"][-1]["a"]
    a = roller or str(result["a_heading"]["who"])
    b = _character(result.get("opponent_character_id"), players) or result["b_heading"]["who"]
    return {
        "succeeded": succeeded,
        "critical_failure": succeeded is False and _determination_one(final),
        "sixes": int(final["sixes"]),
        "label": f"{a}'s clash with {b}",
        "threw": any(r["a"]["dice"] or r["b"]["dice"] for r in clash["rounds"]),
    }


def _attack(result: Mapping[str, Any], roller: str | None, players: Mapping[int, str]) -> Facts:
    attack = result["attack"]
    mine = _attacker_roll(attack)
    hit = bool(attack["hit"])
    facts = _hurt(result, players, dealt_without_target=False)
    threw = facts.pop("threw") or (mine is not None and bool(mine["dice"]))
    if attack["mode"] == "clash" and attack.get("clash"):
        threw = threw or any(r["b"]["dice"] for r in attack["clash"]["rounds"])
    attacker = roller or str(result["attacker"])
    return {
        **facts,
        "succeeded": hit,
        "critical_failure": not hit and mine is not None and _determination_one(mine),
        "sixes": int(mine["sixes"]) if mine is not None else 0,
        "label": f"{attacker}'s attack on {result['target']}",
        "threw": threw,
    }


def _attacker_roll(attack: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if attack["mode"] == "clash" and attack.get("clash"):
        return attack["clash"]["rounds"][-1]["a"]
    if attack["mode"] == "defenseless ranged" and attack.get("test"):
        return attack["test"]["roll"]
    return None  # defenseless melee: no roll


def _damage(result: Mapping[str, Any], roller: str | None, players: Mapping[int, str]) -> Facts:
    facts = _hurt(result, players, dealt_without_target=True)
    target = result.get("target")
    words = f"damage on {target}" if target else "damage"
    return {**facts, "label": _whose(roller, words)}


def _hurt(
    result: Mapping[str, Any], players: Mapping[int, str], *, dealt_without_target: bool
) -> Facts:
    """The damage dealt and what it did to the target (``recap-damage``, ``recap-wounds``)."""
    damage, hit = result.get("damage"), result.get("hit")
    threw = bool(damage and damage.get("kept"))
    if hit is None:
        dealt = int(damage["amount"]) if damage and dealt_without_target else 0
        return {"damage_dealt": dealt, "threw": threw}
    received = int(hit["application"]["after_reductions"])
    before, after = hit["before"], hit["after"]
    was, now = before.get("conditions", {}), after.get("conditions", {})
    test = hit.get("threshold_test")
    return {
        "target": _character(result.get("target_id"), players),
        "damage_dealt": received,
        "damage_taken": received,
        "wounds": max(0, len(after.get("wounds", ())) - len(before.get("wounds", ()))),
        "downed": any(c in now for c in _DOWN) and not any(c in was for c in _DOWN),
        "dying": "dying" in now and "dying" not in was,
        "threw": threw or bool(test and test["roll"]["dice"]) or bool(hit.get("wound_check")),
    }


def _hero_damage(
    result: Mapping[str, Any], roller: str | None, players: Mapping[int, str]
) -> Facts:
    return {"label": _whose(roller, "hero point off a hit"), "threw": bool(result["faces"])}


def _determination_one(roll: Mapping[str, Any]) -> bool:
    """The determination die first came up 1 (``PoolResult.determination_rolled_one``)."""
    return any(d["origin"] == "determination" and d["first_face"] == 1 for d in roll["dice"])


_KINDS = {
    "pool": _skill,
    "check": _skill,
    "clash": _clash,
    "attack": _attack,
    "damage": _damage,
    "hero_damage": _hero_damage,
}
