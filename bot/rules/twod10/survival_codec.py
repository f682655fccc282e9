"""The survival and resource states as plain JSON-ready data, so limits survive restarts.

Each ``*_to_dict`` has a matching ``*_from_dict`` that rebuilds the frozen state
through its own checks, raising RulesError (one sentence) on damaged data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.rules.errors import RulesError
from bot.rules.twod10.ammo import AmmoState
from bot.rules.twod10.disease import Course, Disease, Infection, Severity
from bot.rules.twod10.healing import HealingState
from bot.rules.twod10.light import Light, LightKind, LightStatus
from bot.rules.twod10.magic import Concentration
from bot.rules.twod10.morale import MoraleState
from bot.rules.twod10.rations import RationState

VERSION = 1
T = TypeVar("T")


def _load(what: str, build: Callable[[], T]) -> T:
    try:
        return build()
    except (RulesError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RulesError(f"This stored {what} is damaged; ask the GM to reset it.") from exc


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not a whole number")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not a flag")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not text")
    return value


def _check_version(data: Mapping[str, Any]) -> None:
    if data.get("version") != VERSION:
        raise ValueError("unknown version")


def healing_to_dict(state: HealingState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "hp": state.hp,
        "max_hp": state.max_hp,
        "short_rest_cap": state.short_rest_cap,
        "damaged_since_rest": state.damaged_since_rest,
        "unconscious": state.unconscious,
        "toughness_advantage": state.toughness_advantage,
        "daily_medicine_used": state.daily_medicine_used,
        "attribute_healed_today": state.attribute_healed_today,
    }


def healing_from_dict(data: Mapping[str, Any]) -> HealingState:
    def build() -> HealingState:
        _check_version(data)
        cap = data["short_rest_cap"]
        return HealingState(
            hp=_int(data["hp"]),
            max_hp=_int(data["max_hp"]),
            short_rest_cap=None if cap is None else _int(cap),
            damaged_since_rest=_bool(data["damaged_since_rest"]),
            unconscious=_bool(data["unconscious"]),
            toughness_advantage=_bool(data["toughness_advantage"]),
            daily_medicine_used=_bool(data["daily_medicine_used"]),
            attribute_healed_today=_bool(data["attribute_healed_today"]),
        )

    return _load("hit point record", build)


def light_to_dict(source: Light) -> dict[str, Any]:
    return {
        "version": VERSION,
        "kind": source.kind.value,
        "remaining": source.remaining,
        "status": source.status.value,
        "burn_roll": list(source.burn_roll),
    }


def light_from_dict(data: Mapping[str, Any]) -> Light:
    def build() -> Light:
        _check_version(data)
        return Light(
            kind=LightKind(data["kind"]),
            remaining=_int(data["remaining"]),
            status=LightStatus(data["status"]),
            burn_roll=tuple(_int(f) for f in data["burn_roll"]),
        )

    return _load("light", build)


def ammo_to_dict(state: AmmoState) -> dict[str, Any]:
    return {"version": VERSION, "points": state.points, "quivers": state.quivers,
            "spent": state.spent}  # fmt: skip


def ammo_from_dict(data: Mapping[str, Any]) -> AmmoState:
    def build() -> AmmoState:
        _check_version(data)
        return AmmoState(
            points=_int(data["points"]), quivers=_int(data["quivers"]), spent=_int(data["spent"])
        )

    return _load("ammo record", build)


def rations_to_dict(state: RationState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "quarters": state.quarters,
        "half_days": state.half_days,
        "quarter_days": state.quarter_days,
        "exhausted": state.exhausted,
        "full_days_needed": state.full_days_needed,
    }


def rations_from_dict(data: Mapping[str, Any]) -> RationState:
    def build() -> RationState:
        _check_version(data)
        return RationState(
            quarters=_int(data["quarters"]),
            half_days=_int(data["half_days"]),
            quarter_days=_int(data["quarter_days"]),
            exhausted=_bool(data["exhausted"]),
            full_days_needed=_int(data["full_days_needed"]),
        )

    return _load("ration record", build)


def infection_to_dict(infection: Infection) -> dict[str, Any]:
    d = infection.disease
    return {
        "version": VERSION,
        "name": d.name,
        "difficulty": d.difficulty,
        "course": d.course.value,
        "severity": d.severity.value,
        "treated": infection.treated,
    }


def infection_from_dict(data: Mapping[str, Any]) -> Infection:
    def build() -> Infection:
        _check_version(data)
        disease = Disease(
            name=_str(data["name"]),
            difficulty=_int(data["difficulty"]),
            course=Course(data["course"]),
            severity=Severity(data["severity"]),
        )
        return Infection(disease=disease, treated=_bool(data["treated"]))

    return _load("infection", build)


def morale_to_dict(state: MoraleState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "score": state.score,
        "first_checked": state.first_checked,
        "half_checked": state.half_checked,
        "fled": state.fled,
    }


def morale_from_dict(data: Mapping[str, Any]) -> MoraleState:
    def build() -> MoraleState:
        _check_version(data)
        return MoraleState(
            score=_int(data["score"]),
            first_checked=_bool(data["first_checked"]),
            half_checked=_bool(data["half_checked"]),
            fled=_bool(data["fled"]),
        )

    return _load("morale record", build)


def concentration_to_dict(state: Concentration) -> dict[str, Any]:
    return {"version": VERSION, "effect": state.effect}


def concentration_from_dict(data: Mapping[str, Any]) -> Concentration:
    def build() -> Concentration:
        _check_version(data)
        effect = data["effect"]
        if effect is None:
            return Concentration()
        if not isinstance(effect, str) or not effect.strip() or len(effect) > 100:
            raise ValueError("bad effect")
        return Concentration(effect=" ".join(effect.split()))

    return _load("concentration", build)
