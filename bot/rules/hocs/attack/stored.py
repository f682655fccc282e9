"""The saved form of a hit: the pool and its rolled faces, and the rolls already made.

These round-trip through JSON (the ``damage_choices`` table) so a hit can be redone
later from the same faces: another die kept, or a hero point's damage reduction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.hocs.attack.threshold_spends import ThresholdSpend
from bot.rules.hocs.damage_pool import (
    DamagePool,
    DamageType,
    DieRole,
    PoolDie,
)
from bot.rules.hocs.many_dice import (
    RolledPool,
)
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.wounds import (
    Wound,
    WoundCheck,
    WoundCheckResult,
)


def _pool_to_dict(pool: DamagePool) -> dict[str, Any]:
    return {
        "dice": [
            {"sides": d.sides, "role": d.role.value, "types": [t.value for t in d.types]}
            for d in pool.dice
        ],
        "types": [t.value for t in pool.types],
        "lethal": pool.lethal,
        "immune": pool.immune,
    }


def _pool_from_dict(data: Mapping[str, Any]) -> DamagePool:
    return DamagePool(
        dice=tuple(
            PoolDie(int(d["sides"]), DieRole(d["role"]), tuple(DamageType(t) for t in d["types"]))
            for d in data["dice"]
        ),
        types=tuple(DamageType(t) for t in data["types"]),
        lethal=bool(data["lethal"]),
        immune=bool(data.get("immune", False)),
    )


@dataclass(frozen=True, kw_only=True)
class HitInputs:
    """What a hit needs besides the target: the pool, its rolled faces, the attack's types."""

    pool: DamagePool
    rolled: RolledPool | None
    types: tuple[DamageType, ...]
    bonus: int = 0
    # The target's choice for a threshold test this hit may call for: "Physique" or
    # "Willpower"; None: the one that rolls more dice.
    threshold_skill: str | None = None
    # The target spent a determination point before its threshold test: the test's pool
    # holds the exploding boon from the start. Set only while the point is spent (a hit
    # that called for no test lets it lapse: ``settle_threshold_pledge``).
    threshold_determination: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pool": _pool_to_dict(self.pool),
            "rolled": self.rolled.to_dict() if self.rolled else None,
            "types": [t.value for t in self.types],
            "bonus": self.bonus,
            "threshold_skill": self.threshold_skill,
        }
        if self.threshold_determination:  # (absent otherwise: older rows read the same)
            data["threshold_determination"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HitInputs:
        try:
            return cls(
                pool=_pool_from_dict(data["pool"]),
                rolled=RolledPool.from_dict(data["rolled"]) if data.get("rolled") else None,
                types=tuple(DamageType(t) for t in data["types"]),
                bonus=int(data.get("bonus", 0)),
                threshold_skill=_threshold_name(data.get("threshold_skill")),
                threshold_determination=data.get("threshold_determination") is True,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesError("This stored damage roll is damaged; roll again.") from exc


THRESHOLD_SKILLS = ("Physique", "Willpower")


def _threshold_name(value: object) -> str | None:
    if value is None:
        return None
    for name in THRESHOLD_SKILLS:
        if str(value).lower() == name.lower():
            return name
    raise RulesError(f"A threshold test uses Physique or Willpower, not {str(value)[:30]}.")


def _wound_check_to_dict(check: WoundCheck) -> dict[str, Any]:
    return {
        "check_face": check.check_face,
        "result": check.result.name,
        "wound_face": check.wound_face,
        "injury_face": check.injury_face,
        "wound": check.wound.to_dict() if check.wound else None,
    }


def _wound_check_from_dict(data: Mapping[str, Any]) -> WoundCheck:
    return WoundCheck(
        check_face=int(data["check_face"]),
        result=WoundCheckResult[data["result"]],
        wound_face=data.get("wound_face"),
        injury_face=data.get("injury_face"),
        wound=Wound.from_dict(data["wound"]) if data.get("wound") else None,
    )


@dataclass(frozen=True, kw_only=True)
class PriorRolls:
    """Rolls already made for one hit, reused when the hit is redone (another die
    kept, a hero point's reduction). ``hero_reductions`` holds the 2d6 of each hero
    point spent to reduce this hit: they stay part of the hit whatever die is kept.
    Rows stored before ``threshold_spends`` existed read as no point spent."""

    explosions: tuple[tuple[int, tuple[int, ...]], ...] = ()
    threshold_skill: str | None = None
    threshold_roll: PoolResult | None = None
    wound_check: WoundCheck | None = None
    hero_reductions: tuple[tuple[int, ...], ...] = ()
    hero_rerolls: int = 0  # hero points spent rerolling the damage dice (button revision)
    # Points the target spent on ``threshold_roll`` after it was rolled, in order: given
    # back if the attack is decided again and the test rolled anew.
    threshold_spends: tuple[ThresholdSpend, ...] = ()

    def explosions_for(self, index: int) -> tuple[int, ...] | None:
        return dict(self.explosions).get(index)

    @property
    def hero_reduction(self) -> int:
        """The damage taken off by hero points (the sum of every 2d6 rolled)."""
        if not self.hero_reductions:  # (every first roll)
            return 0
        return sum(sum(faces) for faces in self.hero_reductions)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "explosions": [[i, list(chain)] for i, chain in self.explosions],
            "threshold_skill": self.threshold_skill,
            "threshold_roll": self.threshold_roll.to_dict() if self.threshold_roll else None,
            "wound_check": _wound_check_to_dict(self.wound_check) if self.wound_check else None,
            "hero_reductions": [list(faces) for faces in self.hero_reductions],
            "hero_rerolls": self.hero_rerolls,
        }
        if self.threshold_spends:  # (absent otherwise: most hits see no such spend)
            data["threshold_spends"] = [spend.to_dict() for spend in self.threshold_spends]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PriorRolls:
        try:
            return cls(
                explosions=tuple(
                    (int(i), tuple(int(x) for x in chain)) for i, chain in data["explosions"]
                ),
                threshold_skill=data.get("threshold_skill"),
                threshold_roll=PoolResult.from_dict(data["threshold_roll"])
                if data.get("threshold_roll")
                else None,
                wound_check=_wound_check_from_dict(data["wound_check"])
                if data.get("wound_check")
                else None,
                hero_reductions=tuple(
                    tuple(int(x) for x in faces) for faces in data.get("hero_reductions", ())
                ),
                hero_rerolls=int(data.get("hero_rerolls", 0)),
                threshold_spends=tuple(
                    ThresholdSpend.from_dict(spend) for spend in data.get("threshold_spends", ())
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError("This stored damage roll is damaged; roll again.") from exc


NO_PRIOR_ROLLS = PriorRolls()
