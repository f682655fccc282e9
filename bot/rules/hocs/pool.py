"""Skill-pool values: what was asked for (``PoolSpec``) and what every die did.

A result records each die the way d20's roll tree does, so one value can be
rendered as an embed, stored as JSON and modified after the fact (determination
after the roll, hero and fortune rerolls) without losing history. Rolling lives
in ``rolling.py``; these are plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from bot.rules.errors import RulesError
from bot.rules.hocs.modifiers import (
    MAX_MODIFIER,
    MAX_POOL_DICE,
    MAX_REROLLS,
    check_count,
    dice_change_for_net,
)

_T = TypeVar("_T")


class derived(Generic[_T]):
    """``functools.cached_property`` without its lock (a frozen value's derived fields
    are the same whoever computes them first), so a first read costs one call."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> _T:
        if instance is None:
            return self  # type: ignore[return-value]
        # (Stored in the instance: later reads find it there and never come here.)
        value = instance.__dict__[self.name] = self.func(instance)
        return value


SUCCESS_FACE = 4
SIDES = 6
SERIAL_VERSION = 1


class DieOrigin(Enum):
    BASE = "base"  # attribute, training, expertise (or a raw GM pool)
    BOON = "boon"  # the single +1d6 a net boon grants
    DETERMINATION = "determination"  # that boon die when a determination point paid for it


class RerollSource(Enum):
    TALENT = "talent"  # the "reroll" dice modifier: once per die, applied automatically
    HERO = "hero"  # hero point: any dice, chosen by the player
    FORTUNE = "fortune"  # fortune point: one die


@dataclass(frozen=True, slots=True)
class Reroll:
    face: int
    source: RerollSource


def _check_face(face: object) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
        raise RulesError(f"A d6 cannot show {face!r}; this stored roll is damaged, roll again.")
    return face


@dataclass(frozen=True, kw_only=True)
class DieRoll:
    """One d6 of a skill pool with everything that happened to it.

    What it shows is derived once per die (``derived``: a frozen value never
    changes): the optimiser, the clash and the renderer ask it dozens of times a roll.
    """

    origin: DieOrigin
    first_face: int
    rerolls: tuple[Reroll, ...] = ()
    focus: bool = False
    guaranteed: bool = False
    explosions: tuple[int, ...] = ()  # extra faces of the determination die's chain
    added_after_roll: bool = False  # came in with a determination point spent after rolling

    def __post_init__(self) -> None:
        face = self.first_face
        if type(face) is not int or not 1 <= face <= SIDES:  # (the call only when it fails)
            _check_face(face)
        for reroll in self.rerolls:
            _check_face(reroll.face)
        for face in self.explosions:
            _check_face(face)
        if self.explosions and self.origin is not DieOrigin.DETERMINATION:
            raise RulesError("Only the determination die explodes; this stored roll is damaged.")
        if self.focus and self.guaranteed:
            raise RulesError("A die cannot take both focus and a guaranteed success.")

    @derived
    def rolled_face(self) -> int:
        """The face showing before focus or a guaranteed success: the latest throw."""
        return self.rerolls[-1].face if self.rerolls else self.first_face

    @property
    def reroll_face(self) -> int | None:
        return self.rerolls[-1].face if self.rerolls else None

    @derived
    def talent_rerolled(self) -> bool:
        rerolls = self.rerolls
        return bool(rerolls) and any(r.source is RerollSource.TALENT for r in rerolls)

    # final_face, successes and sixes read the fields directly rather than each other:
    # every die of every pool asks for them once, and a chain of derived reads cost
    # four descriptor calls per die where one will do.
    @derived
    def final_face(self) -> int:
        if self.guaranteed:
            return SUCCESS_FACE
        face = self.rerolls[-1].face if self.rerolls else self.first_face
        return face + 1 if self.focus else face

    @derived
    def final_faces(self) -> tuple[int, ...]:
        return (self.final_face, *self.explosions)

    @derived
    def successes(self) -> int:
        count = 1 if self.final_face >= SUCCESS_FACE else 0
        for face in self.explosions:
            if face >= SUCCESS_FACE:
                count += 1
        return count

    @derived
    def sixes(self) -> int:
        count = 1 if self.final_face == SIDES else 0
        for face in self.explosions:
            if face == SIDES:
                count += 1
        return count

    @derived
    def is_failure(self) -> bool:
        """The die's own face (not its chain) is not a success."""
        return self.final_face < SUCCESS_FACE

    def to_dict(self) -> dict[str, Any]:
        # Keys at their default are left out (from_dict fills them in): most dice are
        # never rerolled, focused or exploded, and the full form made an /attack row
        # 3.4 KB. Rows stored in the full form still load.
        # (``_value_``: the member's value without the ``value`` property's descriptor
        # call; six dice an /attack.)
        data: dict[str, Any] = {"origin": self.origin._value_, "first_face": self.first_face}
        if self.rerolls:
            data["rerolls"] = [{"face": r.face, "source": r.source._value_} for r in self.rerolls]
        if self.focus:
            data["focus"] = True
        if self.guaranteed:
            data["guaranteed"] = True
        if self.explosions:
            data["explosions"] = list(self.explosions)
        if self.added_after_roll:
            data["added_after_roll"] = True
        data["final_faces"] = list(self.final_faces)  # for readers; ignored by from_dict
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DieRoll:
        try:
            return cls(
                origin=DieOrigin(data["origin"]),
                first_face=data["first_face"],
                rerolls=tuple(
                    Reroll(face=r["face"], source=RerollSource(r["source"]))
                    for r in data.get("rerolls", ())
                ),
                focus=bool(data.get("focus", False)),
                guaranteed=bool(data.get("guaranteed", False)),
                explosions=tuple(data.get("explosions", ())),
                added_after_roll=bool(data.get("added_after_roll", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError("This stored roll is damaged; roll again.") from exc


@dataclass(frozen=True, kw_only=True)
class PoolSpec:
    """A skill pool before rolling. ``base`` = attribute + training + expertise."""

    base: int
    boons: int = 0
    banes: int = 0
    determination: bool = False  # spent before the roll: counts as one more boon
    focus: int = 0
    rerolls: int = 0
    guaranteed: int = 0

    def __post_init__(self) -> None:
        base, boons, banes = self.base, self.boons, self.banes
        focus, rerolls, guaranteed = self.focus, self.rerolls, self.guaranteed
        # Plain ints within range (every spec the bot builds) pass in one test; anything
        # else goes through check_count one count at a time, which words the refusal.
        if not (
            type(base) is int
            and type(boons) is int
            and type(banes) is int
            and type(focus) is int
            and type(rerolls) is int
            and type(guaranteed) is int
            and 0 <= base <= MAX_POOL_DICE
            and 0 <= boons <= MAX_MODIFIER
            and 0 <= banes <= MAX_MODIFIER
            and 0 <= focus <= MAX_MODIFIER
            and 0 <= rerolls <= MAX_REROLLS
            and 0 <= guaranteed <= MAX_MODIFIER
        ):
            check_count(base, what="dice in the pool", maximum=MAX_POOL_DICE)
            check_count(boons, what="boons")
            check_count(banes, what="banes")
            check_count(focus, what="focus")
            check_count(rerolls, what="rerolls", maximum=MAX_REROLLS)
            check_count(guaranteed, what="guaranteed successes")
        if not isinstance(self.determination, bool):
            raise RulesError("Determination is either spent or not; answer yes or no.")

    # Derived once per spec (frozen): a clash asks for them on every round and die.
    @derived
    def net(self) -> int:
        """Boons (a determination point is one) minus banes."""
        return self.boons + (1 if self.determination else 0) - self.banes

    @derived
    def dice_change(self) -> int:
        return dice_change_for_net(self.net)

    @derived
    def dice_count(self) -> int:
        return max(0, self.base + self.dice_change)

    @derived
    def extra_die(self) -> DieOrigin | None:
        """The origin of the +1d6 die when the net count ends as a boon."""
        if self.net <= 0:
            return None
        return DieOrigin.DETERMINATION if self.determination else DieOrigin.BOON

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "boons": self.boons,
            "banes": self.banes,
            "determination": self.determination,
            "focus": self.focus,
            "rerolls": self.rerolls,
            "guaranteed": self.guaranteed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoolSpec:
        try:
            return cls(**dict(data))
        except TypeError as exc:
            raise RulesError("This stored roll is damaged; roll again.") from exc
        except RulesError as exc:
            # e.g. a roll stored before talent rerolls were capped at MAX_REROLLS.
            raise RulesError(
                "This stored roll comes from another bot version; roll again."
            ) from exc


@dataclass(frozen=True, kw_only=True)
class PoolResult:
    """A rolled skill pool. Dice are in roll order: base dice, then the boon die."""

    spec: PoolSpec
    dice: tuple[DieRoll, ...] = field(default=())
    determination_after: bool = False  # the point was spent after seeing the roll

    def __post_init__(self) -> None:
        spec = self.spec
        if len(self.dice) != spec.dice_count:
            raise RulesError("This roll's dice do not match its pool; roll again.")
        # One pass over the dice for the three counts (checked in the same order).
        rerolled = focused = sure = 0
        for die in self.dice:
            if die.rerolls and die.talent_rerolled:
                rerolled += 1
            if die.focus:
                focused += 1
            if die.guaranteed:
                sure += 1
        if rerolled > spec.rerolls:
            raise RulesError("This roll uses more rerolls than it had; roll again.")
        if focused > spec.focus:
            raise RulesError("This roll uses more focus than it had; roll again.")
        if sure > spec.guaranteed:
            raise RulesError("This roll uses more guaranteed successes than it had; roll again.")

    @property
    def zero_dice(self) -> bool:
        """Banes (or an empty pool) left nothing to roll: 0 successes, no roll made."""
        return not self.dice

    @derived
    def successes(self) -> int:
        total = 0
        for die in self.dice:
            total += die.successes
        return total

    @derived
    def sixes(self) -> int:
        total = 0
        for die in self.dice:
            total += die.sixes
        return total

    @property
    def explosion_count(self) -> int:
        return sum(len(d.explosions) for d in self.dice)

    @property
    def unused_rerolls(self) -> int:
        return self.spec.rerolls - sum(d.talent_rerolled for d in self.dice)

    @property
    def unused_focus(self) -> int:
        return self.spec.focus - sum(d.focus for d in self.dice)

    @property
    def unused_guaranteed(self) -> int:
        return self.spec.guaranteed - sum(d.guaranteed for d in self.dice)

    @property
    def determination_index(self) -> int | None:
        for index, die in enumerate(self.dice):
            if die.origin is DieOrigin.DETERMINATION:
                return index
        return None

    @property
    def determination_rolled_one(self) -> bool:
        """The determination die first came up 1 (a critical failure if the test fails)."""
        index = self.determination_index
        return index is not None and self.dice[index].first_face == 1

    def to_dict(self) -> dict[str, Any]:
        # One pass over the dice for what the three ``unused_*`` properties count in
        # three (every pool of every /attack is stored).
        spec, dice = self.spec, []
        rerolled = focused = guaranteed = 0
        for die in self.dice:
            dice.append(die.to_dict())
            rerolled += die.talent_rerolled
            focused += die.focus
            guaranteed += die.guaranteed
        return {
            "version": SERIAL_VERSION,
            "spec": spec.to_dict(),
            "dice": dice,
            "determination_after": self.determination_after,
            # Derived, for readers of the stored JSON; from_dict recomputes them.
            "successes": self.successes,
            "sixes": self.sixes,
            "zero_dice": not self.dice,
            "unused": {
                "rerolls": spec.rerolls - rerolled,
                "focus": spec.focus - focused,
                "guaranteed": spec.guaranteed - guaranteed,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoolResult:
        try:
            if data.get("version") != SERIAL_VERSION:
                raise RulesError("This stored roll comes from another bot version; roll again.")
            return cls(
                spec=PoolSpec.from_dict(data["spec"]),
                dice=tuple(DieRoll.from_dict(d) for d in data["dice"]),
                determination_after=bool(data.get("determination_after", False)),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise RulesError("This stored roll is damaged; roll again.") from exc
