"""Attacks and hits as plain dicts for the roll log: every die, every step.

The roll log keeps "the full result" of each roll; these are that form (JSON-ready,
not meant to be read back into results: the ``damage_choices`` table keeps what a
hit needs to be redone).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.hocs.attack.hit import HitResult
from bot.rules.hocs.attack.roll import AttackMode, AttackResult, AttackRoll
from bot.rules.hocs.attack.stored import HitInputs, _wound_check_to_dict
from bot.rules.hocs.attack.weapons import Advantage
from bot.rules.hocs.check import TestResult
from bot.rules.hocs.clash import ClashResult
from bot.rules.hocs.damage_pool import DamageRoll


def damage_record(inputs: HitInputs, damage: DamageRoll) -> dict[str, Any]:
    """The damage roll: pool, faces, the kept die with its explosions, the total."""
    return {
        "inputs": inputs.to_dict(),
        "kept": damage.result.to_dict() if damage.result else None,
        "bonus": damage.bonus,
        "amount": damage.amount,
    }


def hit_record(hit: HitResult) -> dict[str, Any]:
    """What a hit did to its target, step by step."""
    app = hit.application
    test = hit.threshold_test
    return {
        "target": hit.target,
        "hero_reductions": [list(faces) for faces in hit.rolls.hero_reductions],
        "dealt": hit.dealt,
        "application": {
            "amount": app.amount,
            "types": [t.value for t in app.types],
            "lethal": app.lethal,
            "reduction": app.reduction,
            "after_reductions": app.after_reductions,
            "temporary_absorbed": app.temporary_absorbed,
            "hp_lost": app.hp_lost,
            "immune": app.immune,
            "resisted": app.resisted,
        },
        "threshold": {
            "state": hit.threshold.state.name,
            "difficulty": hit.threshold.difficulty,
        },
        "threshold_test": None
        if test is None
        else {
            "skill": test.skill,
            "roll": test.roll.to_dict(),
            "difficulty": test.outcome.difficulty,
            "result": test.outcome.result.name,
        },
        "wound_check": _wound_check_to_dict(hit.wound_check) if hit.wound_check else None,
        "bleeding_gained": hit.bleeding_gained,
        "before": hit.before.to_dict(),
        "after": hit.after.to_dict(),
        "max_hp_after": hit.max_hp_after,
        "death_causes": list(hit.death_causes),
        "rolls": hit.rolls.to_dict(),
    }


def attack_roll_record(roll: AttackRoll) -> dict[str, Any]:
    return {
        "mode": roll.mode.value,
        "attack_skill": roll.attack_label,
        "defense_skill": roll.defense_label,
        "boons": [list(part) for part in roll.boons],
        "banes": [list(part) for part in roll.banes],
        "focus": [list(part) for part in roll.focus],
        "defense_banes": [list(part) for part in roll.defense_banes],
        "defense_boons": [list(part) for part in roll.defense_boons],
        "defense_focus": [list(part) for part in roll.defense_focus],
        "attack_rerolls": [list(part) for part in roll.attack_rerolls],
        "defense_rerolls": [list(part) for part in roll.defense_rerolls],
        "earned_advantage": roll.earned_advantage,
        "clash": roll.clash.to_dict() if roll.clash else None,
        "test": roll.test.to_dict() if roll.test else None,
        "hit": roll.hit,
        "margin": roll.margin,
        "advantage": roll.advantage.value if roll.advantage else None,
        "counter": roll.counter,
    }


def _parts(data: Any) -> tuple[tuple[str, int], ...]:
    return tuple((str(name), int(n)) for name, n in data or ())


def attack_roll_from_dict(data: Mapping[str, Any]) -> AttackRoll:
    """Read back ``attack_roll_record`` (points spent after the roll change it)."""
    try:
        clash, test, advantage = data.get("clash"), data.get("test"), data.get("advantage")
        return AttackRoll(
            mode=AttackMode(data["mode"]),
            attack_label=str(data["attack_skill"]),
            defense_label=data.get("defense_skill"),
            boons=_parts(data["boons"]),
            banes=_parts(data["banes"]),
            focus=_parts(data["focus"]),
            defense_banes=_parts(data["defense_banes"]),
            defense_boons=_parts(data.get("defense_boons")),
            defense_focus=_parts(data.get("defense_focus")),
            attack_rerolls=_parts(data.get("attack_rerolls")),
            defense_rerolls=_parts(data.get("defense_rerolls")),
            clash=ClashResult.from_dict(clash) if clash else None,
            test=TestResult.from_dict(test) if test else None,
            hit=bool(data["hit"]),
            margin=int(data["margin"]),
            earned_advantage=bool(data.get("earned_advantage", advantage is not None)),
            advantage=Advantage(advantage) if advantage else None,
            counter=bool(data["counter"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        raise RulesError("This stored attack is damaged; roll it again.") from exc


def attack_record(result: AttackResult) -> dict[str, Any]:
    """An attack: the clash (or test), and on a hit the damage roll and what it did."""
    hit = result.hit
    return {
        "attacker": result.attacker,
        "target": result.target,
        "weapon": {
            "name": result.weapon.name,
            "dice": list(result.weapon.dice),
            "types": [t.value for t in result.weapon.types],
            "kind": result.weapon.kind.value,
            "lethal": result.weapon.lethal,
        },
        "attack": attack_roll_record(result.roll),
        "damage": damage_record(result.inputs, hit.damage)
        if hit is not None and result.inputs is not None
        else None,
        "hit": hit_record(hit) if hit is not None else None,
        "notes": list(result.notes),
    }


def roll_record(
    inputs: HitInputs, damage: DamageRoll, hit: HitResult | None, *, target: str | None
) -> dict[str, Any]:
    """A /damage roll: the roll, and what it did when it was applied to a target."""
    return {
        "target": target,
        "damage": damage_record(inputs, damage),
        "hit": hit_record(hit) if hit is not None else None,
    }
