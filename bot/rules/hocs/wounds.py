"""Wound checks, wounds, injuries and their effects.

Damage of 10 or more after reductions, to a character who survives it, calls
for a wound check (d10): 1–5 nothing, 6–7 a piece of equipment is damaged,
8–10 a wound (d10 on Table – Wounds; a 10 there is an injury, d12 on Table –
Injuries). Effects are stored as data so effective values can be recomputed
from the base values whenever a wound is gained or heals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError

WOUND_DAMAGE = 10


class BaneScope(Enum):
    """Which skill rolls an injury's banes apply to."""

    ARM = "rolls that depend on the injured arm"
    LEG = "rolls that depend on the injured leg"
    STRENGTH_AND_AGILITY = "strength and agility rolls"
    MOST = "most rolls"


@dataclass(frozen=True)
class WoundEffect:
    """Mechanical effect of one wound or injury; zero/None means unaffected."""

    max_hp: int = 0
    speed: int = 0  # flat change, e.g. −10
    speed_halved: bool = False
    speed_set: int | None = None  # "your speed becomes 10"
    threshold_difficulty: int = 0
    strength: int = 0
    agility: int = 0
    resting_value: int = 0
    banes: int = 0
    bane_scope: BaneScope | None = None
    strength_damage: int = 0  # on strength-based damage rolls with the injured arm
    bleeding: int = 0
    out_of_game: bool = False


class WoundKind(Enum):
    """Table – Wounds (d10 1–9); the value is the face."""

    SPEED_MINUS_10 = 1
    MAX_HP_MINUS_2 = 2
    THRESHOLD_DIFFICULTY = 3
    MAX_HP_MINUS_4 = 4
    AGILITY_MINUS_1 = 5
    SPEED_HALVED = 6
    STRENGTH_MINUS_1 = 7
    RESTING_MINUS_5 = 8
    STRENGTH_AND_AGILITY_MINUS_1 = 9


class InjuryKind(Enum):
    TORN_MUSCLE_ARM = "torn muscle (arm)"
    TORN_MUSCLE_LEG = "torn muscle (leg)"
    INTERNAL_BLEEDING = "internal bleeding"
    BROKEN_ARM = "broken bone (arm)"
    BROKEN_LEG = "broken bone (leg)"
    BROKEN_TORSO = "broken bone (torso)"
    FRACTURED_SKULL = "fractured skull"


@dataclass(frozen=True)
class _Entry:
    description: str
    effect: WoundEffect
    recovery: tuple[int, int, int]  # (count, sides, days added)


_WOUND_RECOVERY = (2, 4, 4)
_INJURY_SHORT = (2, 6, 10)
_INJURY_LONG = (3, 10, 30)

_TABLE: dict[WoundKind | InjuryKind, _Entry] = {
    WoundKind.SPEED_MINUS_10: _Entry(
        "Speed reduced by 10.", WoundEffect(speed=-10), _WOUND_RECOVERY
    ),
    WoundKind.MAX_HP_MINUS_2: _Entry(
        "Maximum hit points reduced by 2.", WoundEffect(max_hp=-2), _WOUND_RECOVERY
    ),
    WoundKind.THRESHOLD_DIFFICULTY: _Entry(
        "Threshold tests are 1 harder.", WoundEffect(threshold_difficulty=1), _WOUND_RECOVERY
    ),
    WoundKind.MAX_HP_MINUS_4: _Entry(
        "Maximum hit points reduced by 4.", WoundEffect(max_hp=-4), _WOUND_RECOVERY
    ),
    WoundKind.AGILITY_MINUS_1: _Entry("−1 agility.", WoundEffect(agility=-1), _WOUND_RECOVERY),
    WoundKind.SPEED_HALVED: _Entry(
        "Speed reduced by half.", WoundEffect(speed_halved=True), _WOUND_RECOVERY
    ),
    WoundKind.STRENGTH_MINUS_1: _Entry("−1 strength.", WoundEffect(strength=-1), _WOUND_RECOVERY),
    WoundKind.RESTING_MINUS_5: _Entry(
        "−5 to the resting conditions value.", WoundEffect(resting_value=-5), _WOUND_RECOVERY
    ),
    WoundKind.STRENGTH_AND_AGILITY_MINUS_1: _Entry(
        "−1 strength and agility.", WoundEffect(strength=-1, agility=-1), _WOUND_RECOVERY
    ),
    InjuryKind.TORN_MUSCLE_ARM: _Entry(
        "2 banes on rolls with that arm; −2 on strength-based damage with it.",
        WoundEffect(banes=2, bane_scope=BaneScope.ARM, strength_damage=-2),
        _INJURY_SHORT,
    ),
    InjuryKind.TORN_MUSCLE_LEG: _Entry(
        "2 banes on rolls with that leg; −10 speed.",
        WoundEffect(banes=2, bane_scope=BaneScope.LEG, speed=-10),
        _INJURY_SHORT,
    ),
    InjuryKind.INTERNAL_BLEEDING: _Entry(
        "Bleeding (2) until treated, and again on losing hit points to physical damage.",
        WoundEffect(bleeding=2),
        _INJURY_SHORT,
    ),
    InjuryKind.BROKEN_ARM: _Entry(
        "5 banes on rolls with that arm; −5 on strength-based damage with it.",
        WoundEffect(banes=5, bane_scope=BaneScope.ARM, strength_damage=-5),
        _INJURY_LONG,
    ),
    InjuryKind.BROKEN_LEG: _Entry(
        "5 banes on rolls with that leg; speed becomes 10.",
        WoundEffect(banes=5, bane_scope=BaneScope.LEG, speed_set=10),
        _INJURY_LONG,
    ),
    InjuryKind.BROKEN_TORSO: _Entry(
        "5 banes on all strength and agility rolls.",
        WoundEffect(banes=5, bane_scope=BaneScope.STRENGTH_AND_AGILITY),
        _INJURY_LONG,
    ),
    InjuryKind.FRACTURED_SKULL: _Entry(
        "5 banes on most rolls; out of the game until recovered.",
        WoundEffect(banes=5, bane_scope=BaneScope.MOST, out_of_game=True),
        (4, 10, 30),
    ),
}

_INJURY_FACES: dict[int, InjuryKind] = {
    1: InjuryKind.TORN_MUSCLE_ARM,
    2: InjuryKind.TORN_MUSCLE_ARM,
    3: InjuryKind.TORN_MUSCLE_ARM,
    4: InjuryKind.TORN_MUSCLE_LEG,
    5: InjuryKind.TORN_MUSCLE_LEG,
    6: InjuryKind.TORN_MUSCLE_LEG,
    7: InjuryKind.INTERNAL_BLEEDING,
    8: InjuryKind.INTERNAL_BLEEDING,
    9: InjuryKind.BROKEN_ARM,
    10: InjuryKind.BROKEN_LEG,
    11: InjuryKind.BROKEN_TORSO,
    12: InjuryKind.FRACTURED_SKULL,
}


def _kind_from_str(name: str) -> WoundKind | InjuryKind:
    if name in WoundKind.__members__:
        return WoundKind[name]
    if name in InjuryKind.__members__:
        return InjuryKind[name]
    raise RulesError(f"there is no wound or injury called {name!r}")


@dataclass(frozen=True)
class Wound:
    """A wound or injury and the days it takes to recover (once treated)."""

    kind: WoundKind | InjuryKind
    recovery_days: int
    recovery_roll: tuple[int, ...] = ()

    @property
    def is_injury(self) -> bool:
        return isinstance(self.kind, InjuryKind)

    @property
    def effect(self) -> WoundEffect:
        return _TABLE[self.kind].effect

    @property
    def description(self) -> str:
        return _TABLE[self.kind].description

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.name,
            "recovery_days": self.recovery_days,
            "recovery_roll": list(self.recovery_roll),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Wound:
        return cls(
            _kind_from_str(str(data["kind"])),
            int(data["recovery_days"]),
            tuple(int(x) for x in data.get("recovery_roll", ())),
        )


def roll_recovery(kind: WoundKind | InjuryKind, dice: Dice) -> Wound:
    """Roll the recovery time (a plain sum, e.g. 2d4 + 4 days)."""
    count, sides, days = _TABLE[kind].recovery
    faces = tuple(dice.roll(sides) for _ in range(count))
    return Wound(kind, sum(faces) + days, faces)


class WoundCheckResult(Enum):
    NOTHING = "nothing happens"
    ITEM_DAMAGED = "a piece of equipment is damaged"
    WOUNDED = "wounded"


@dataclass(frozen=True)
class WoundCheck:
    """Every face rolled: the check, the wound table and the injury table."""

    check_face: int
    result: WoundCheckResult
    wound_face: int | None = None
    injury_face: int | None = None
    wound: Wound | None = None


def needs_wound_check(damage_after_reductions: int, *, survived: bool) -> bool:
    return survived and damage_after_reductions >= WOUND_DAMAGE


def roll_wound_check(dice: Dice) -> WoundCheck:
    """Roll Table – Wound Check and, on 8–10, the wound (and injury) tables."""
    face = dice.roll(10)
    if face <= 5:
        return WoundCheck(face, WoundCheckResult.NOTHING)
    if face <= 7:
        return WoundCheck(face, WoundCheckResult.ITEM_DAMAGED)
    wound_face = dice.roll(10)
    if wound_face < 10:
        wound = roll_recovery(WoundKind(wound_face), dice)
        return WoundCheck(face, WoundCheckResult.WOUNDED, wound_face, None, wound)
    injury_face = dice.roll(12)
    wound = roll_recovery(_INJURY_FACES[injury_face], dice)
    return WoundCheck(face, WoundCheckResult.WOUNDED, wound_face, injury_face, wound)


@dataclass(frozen=True)
class WoundedValues:
    """Effective values once every wound and injury is applied."""

    strength: int
    agility: int
    max_hp: int
    speed: int
    threshold_difficulty: int
    resting_value: int
    banes: tuple[tuple[BaneScope, int], ...]
    strength_damage: int
    bleeding: int
    out_of_game: bool
    dead: bool


def apply_wound_effects(
    *, strength: int, agility: int, max_hp: int, speed: int, wounds: Iterable[Wound]
) -> WoundedValues:
    """Recompute effective values from *base* values and the current wounds.

    Rulings: attributes, maximum HP and speed do not go below 0; speed takes
    flat reductions first, then each "halved" wound halves it (rounding down),
    and "speed becomes 10" overrides both. Banes are summed per scope; bleeding
    keeps the highest value. Death: wounds and injuries ≥ base strength, or
    maximum hit points at 0.
    """
    if min(strength, agility, max_hp, speed) < 0:
        raise RulesError("base values cannot be negative")
    wounds = tuple(wounds)
    effects = [w.effect for w in wounds]
    effective_max = max(0, max_hp + sum(e.max_hp for e in effects))
    effective_speed = max(0, speed + sum(e.speed for e in effects))
    for e in effects:
        if e.speed_halved:
            effective_speed //= 2
    overrides = [e.speed_set for e in effects if e.speed_set is not None]
    if overrides:
        effective_speed = min(overrides)
    banes: dict[BaneScope, int] = {}
    for e in effects:
        if e.bane_scope is not None:
            banes[e.bane_scope] = banes.get(e.bane_scope, 0) + e.banes
    return WoundedValues(
        strength=max(0, strength + sum(e.strength for e in effects)),
        agility=max(0, agility + sum(e.agility for e in effects)),
        max_hp=effective_max,
        speed=effective_speed,
        threshold_difficulty=sum(e.threshold_difficulty for e in effects),
        resting_value=sum(e.resting_value for e in effects),
        banes=tuple(sorted(banes.items(), key=lambda kv: kv[0].name)),
        strength_damage=sum(e.strength_damage for e in effects),
        bleeding=max((e.bleeding for e in effects), default=0),
        out_of_game=any(e.out_of_game for e in effects),
        dead=wounds_are_fatal(base_strength=strength, wounds=wounds, max_hp=effective_max),
    )


def wounds_are_fatal(*, base_strength: int, wounds: Iterable[Wound], max_hp: int) -> bool:
    """Ways to die: as many wounds and injuries as the (unwounded) maximum
    strength, or maximum hit points reduced to 0."""
    count = len(tuple(wounds))
    return (count > 0 and count >= base_strength) or max_hp <= 0
