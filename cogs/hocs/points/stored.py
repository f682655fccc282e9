"""The rolls points can change, as the roll log holds them: one shape for every kind.

A skill roll (/pool, /check) has one roll; a /clash or an /attack has two sides, each
the skill roll of one character (side ``a``: the roller or attacker; side ``b``: the
opponent or the attack's target). ``StoredRoll`` is one side's roll of the deciding
round (or the skill roll), whose character's points can be spent on it; what
changing it does to the rest (re-deciding the clash, the hit and its damage) is up
to ``spending.apply_change``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import discord

from bot.errors import UserError
from bot.render.hocs.skill_roll import ClashSides, RollHeading, logged_embed
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import AttackMode, AttackResult, AttackRoll, attack_roll_from_dict
from bot.rules.hocs.clash import ClashSide
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.pool import PoolResult
from bot.storage.roll_log import LoggedRoll

SKILL_KINDS = ("pool", "check")
SIDED_KINDS = ("clash", "attack")
SPENDABLE_KINDS = (*SKILL_KINDS, *SIDED_KINDS)
# A /damage roll applied to a target: its one roll points can change is the target's
# threshold test (side ``T``). "Your last roll" (``spending.latest_roll``) skips it.
THRESHOLD_ONLY_KINDS = ("damage",)
THRESHOLD_KINDS = ("attack", *THRESHOLD_ONLY_KINDS)


class Side(StrEnum):
    """Which side of a clash or attack (the value goes in button ids). ``T`` is the
    threshold test an attack's or a /damage roll's hit made its target roll: the
    target's skill roll too."""

    A = "a"
    B = "b"
    T = "t"

    @property
    def clash_side(self) -> ClashSide:
        return ClashSide.A if self is Side.A else ClashSide.B


def _damaged(exc: Exception) -> UserError:
    return UserError("That stored roll is damaged: roll again.")


def opponent_id(logged: LoggedRoll) -> int | None:
    """The character on side b of a clash (the opponent) or an attack (the target)."""
    data = logged.result
    value = data.get("opponent_character_id" if logged.kind == "clash" else "target_id")
    return int(value) if value is not None else None


def side_of(logged: LoggedRoll, character_id: int) -> Side | None:
    """The side ``character_id`` rolled on (None for a skill roll)."""
    if logged.kind not in SIDED_KINDS:
        return None
    return Side.A if logged.character_id == character_id else Side.B


@dataclass(frozen=True, kw_only=True)
class StoredRoll:
    """One roll points can change: a skill roll, or one side of a clash or attack."""

    logged: LoggedRoll
    side: Side | None
    roll: PoolResult
    difficulty: Difficulty | None
    revision: int
    owner_id: int | None  # whose points are spent on it
    name: str  # the side's name (raw user text) for buttons

    @classmethod
    def load(
        cls, logged: LoggedRoll, side: Side | None = None, rolls: SideRolls | None = None
    ) -> StoredRoll:
        """Parse a logged roll; UserError if points can't change it (or that side).
        ``rolls``: the sides' rolls as the command that just logged it has them (None:
        that side rolled nothing), so they need not be parsed back from the log."""
        threshold_only = logged.kind in THRESHOLD_ONLY_KINDS and side is Side.T
        if logged.kind not in SPENDABLE_KINDS and not threshold_only:
            raise UserError(
                "Points can only be spent on /pool, /check, /clash and /attack rolls (and a"
                f" threshold test's buttons), and that roll is another kind ({logged.kind}):"
                " roll again."
            )
        data = logged.result
        try:
            revision = int(data.get("revision", 0))
            if logged.kind in SKILL_KINDS:
                difficulty = data.get("difficulty")
                return cls(
                    logged=logged,
                    side=None,
                    roll=_known(rolls, None) or PoolResult.from_dict(data["roll"]),
                    difficulty=Difficulty(int(difficulty)) if difficulty is not None else None,
                    revision=revision,
                    owner_id=logged.character_id,
                    name=RollHeading.from_dict(data["heading"]).who,
                )
            side = side or Side.A
            owner = logged.character_id if side is Side.A else opponent_id(logged)
            known = _known(rolls, side)
            if side is Side.T:
                roll = known or _threshold_roll(logged)
                name = f"{data['target']} (threshold)"
            elif logged.kind == "clash":
                # Only the deciding round's side is needed: not the whole clash parsed.
                heading = data["a_heading" if side is Side.A else "b_heading"]
                roll = known or PoolResult.from_dict(
                    data["clash"]["rounds"][-1]["a" if side is Side.A else "b"]
                )
                name = str(heading["who"])
            else:
                roll = known or _attack_side_roll(data, side)
                name = str(data["attacker" if side is Side.A else "target"])
        except UserError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, RulesError) as exc:
            raise _damaged(exc) from exc
        return cls(
            logged=logged,
            side=side,
            roll=roll,
            difficulty=None,
            revision=revision,
            owner_id=owner,
            name=name,
        )

    @property
    def automatic_success(self) -> bool:
        return self.difficulty is not None and not self.difficulty.needs_roll

    def changed(self, roll: PoolResult, note: str) -> dict[str, Any]:
        """A skill roll's stored result after a spend: new dice, the note, the next revision."""
        heading = RollHeading.from_dict(self.logged.result["heading"])
        heading = replace(heading, notes=(*heading.notes, note))
        return {
            **self.logged.result,
            "heading": heading.to_dict(),
            "roll": roll.to_dict(),
            "revision": self.revision + 1,
        }

    def embed(self) -> discord.Embed:
        """The reply of a skill roll or a clash (an attack's is built by the combat code)."""
        return stored_embed(self.logged)


# The rolls of a logged roll's sides as its command has them (see ``StoredRoll.load``).
SideRolls = Mapping[Side | None, PoolResult | None]


def _known(rolls: SideRolls | None, side: Side | None) -> PoolResult | None:
    """The side's roll from ``rolls``; None to parse it from the log instead."""
    if rolls is None or side not in rolls:
        return None
    roll = rolls[side]
    if roll is None:
        raise UserError("That side rolled nothing to spend points on.")
    return roll


def attack_side_rolls(result: AttackResult) -> dict[Side | None, PoolResult | None]:
    """An attack's rolls by side, as ``StoredRoll.load`` would read them from its log."""
    rolls: dict[Side | None, PoolResult | None] = {}
    for side in (Side.A, Side.B):
        try:
            rolls[side] = attack_side(result.roll, side)
        except UserError:
            rolls[side] = None
    test = result.hit.threshold_test if result.hit is not None else None
    rolls[Side.T] = test.roll if test is not None else None
    return rolls


def _attack_side_roll(data: dict[str, Any], side: Side) -> PoolResult:
    return attack_side(attack_roll_from_dict(data["attack"]), side)


def attack_side(roll: AttackRoll, side: Side) -> PoolResult:
    """Side a's or b's roll of an attack; UserError when that side rolled nothing."""
    if roll.mode is AttackMode.DEFENSELESS_MELEE:
        raise UserError("That attack needed no roll, so there is no roll to spend points on.")
    if roll.mode is AttackMode.DEFENSELESS_RANGED:
        if side is Side.B or roll.test is None:
            raise UserError("The target was defenseless and rolled nothing to spend points on.")
        return roll.test.roll
    assert roll.clash is not None
    return roll.clash.final.a if side is Side.A else roll.clash.final.b


def _threshold_roll(logged: LoggedRoll) -> PoolResult:
    hit = logged.result.get("hit") if logged.kind in THRESHOLD_KINDS else None
    test = (hit or {}).get("threshold_test")
    if not test:
        raise UserError("That hit called for no threshold test, so there is none to change.")
    return PoolResult.from_dict(test["roll"])


def clash_sides(data: dict[str, Any]) -> ClashSides:
    return ClashSides(
        a=RollHeading.from_dict(data["a_heading"]),
        b=RollHeading.from_dict(data["b_heading"]),
        notes=tuple(str(n) for n in data.get("notes", ())),
    )


def stored_embed(logged: LoggedRoll) -> discord.Embed:
    """Redraw a stored skill roll or clash."""
    return logged_embed(logged.kind, logged.result)
