"""Clashes: two opposing skill rolls; side A is the attacker in an attack.

More successes wins. A tie goes to the side with more 6s, except in attacks,
where the attacker wins ties. If neither side rolls a success, the clash is
repeated. Winning by 2 or more successes gives advantage.

Rulings:
* A non-attack tie in successes and in 6s is repeated too: nothing in the text
  breaks it, and repeating is what the text does for the other deadlock.
* If both pools have 0 dice no roll can ever succeed: the attacker wins an
  attack (ties go to the attacker), otherwise it is a stand-off. One empty round
  is recorded so the result shows why.
* Repeats are bounded at ``max_rounds`` (20); past that it is a stand-off (in an
  attack, the attack simply does not land).
* Each round rolls the same specs: a determination point or talent modifier
  spent on the clash covers every repeat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import roll_pool

MAX_ROUNDS = 20
ADVANTAGE_MARGIN = 2


class ClashSide(Enum):
    A = "a"  # the attacker in an attack
    B = "b"


class ClashDecision(Enum):
    SUCCESSES = "more successes"
    SIXES = "more 6s"
    ATTACKER_WINS_TIE = "attacker wins ties"
    NO_DICE = "neither side has dice"
    ROUND_LIMIT = "still tied after the round limit"


@dataclass(frozen=True, kw_only=True)
class ClashRound:
    """One exchange of rolls; every round but the last of a result was a deadlock."""

    a: PoolResult
    b: PoolResult


@dataclass(frozen=True, kw_only=True)
class ClashResult:
    a: PoolSpec
    b: PoolSpec
    attack: bool
    rounds: tuple[ClashRound, ...]
    winner: ClashSide | None  # None: a stand-off
    decided_by: ClashDecision

    @property
    def final(self) -> ClashRound:
        return self.rounds[-1]

    @property
    def margin(self) -> int:
        """Successes of the winner minus the loser's in the deciding round (0 if none)."""
        if self.winner is None:
            return 0
        a, b = self.final.a.successes, self.final.b.successes
        return a - b if self.winner is ClashSide.A else b - a

    @property
    def advantage(self) -> bool:
        return self.margin >= ADVANTAGE_MARGIN

    @property
    def standoff(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "attack": self.attack,
            "rounds": [{"a": r.a.to_dict(), "b": r.b.to_dict()} for r in self.rounds],
            "winner": self.winner.value if self.winner else None,
            "decided_by": self.decided_by.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClashResult:
        try:
            winner = data["winner"]
            return cls(
                a=PoolSpec.from_dict(data["a"]),
                b=PoolSpec.from_dict(data["b"]),
                attack=bool(data["attack"]),
                rounds=tuple(
                    ClashRound(a=PoolResult.from_dict(r["a"]), b=PoolResult.from_dict(r["b"]))
                    for r in data["rounds"]
                ),
                winner=ClashSide(winner) if winner is not None else None,
                decided_by=ClashDecision(data["decided_by"]),
            )
        except (KeyError, TypeError) as exc:
            raise RulesError("This stored clash is damaged; roll it again.") from exc


def _decide(rnd: ClashRound, *, attack: bool) -> tuple[ClashSide | None, ClashDecision | None]:
    a, b = rnd.a, rnd.b
    if a.successes == 0 and b.successes == 0:
        return None, None
    if a.successes != b.successes:
        side = ClashSide.A if a.successes > b.successes else ClashSide.B
        return side, ClashDecision.SUCCESSES
    if attack:
        return ClashSide.A, ClashDecision.ATTACKER_WINS_TIE
    if a.sixes != b.sixes:
        return (ClashSide.A if a.sixes > b.sixes else ClashSide.B), ClashDecision.SIXES
    return None, None


def resolve_clash(
    a: PoolSpec,
    b: PoolSpec,
    *,
    dice: Dice,
    attack: bool = False,
    max_rounds: int = MAX_ROUNDS,
) -> ClashResult:
    """Roll a clash between side ``a`` and side ``b``, repeating deadlocks; every round kept."""
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int):
        raise RulesError("The round limit must be a whole number from 1 to 20.")
    if not 1 <= max_rounds <= MAX_ROUNDS:
        raise RulesError(f"The round limit must be from 1 to {MAX_ROUNDS}; you gave {max_rounds}.")
    if a.dice_count == 0 and b.dice_count == 0:
        empty = ClashRound(a=roll_pool(a, dice), b=roll_pool(b, dice))
        return ClashResult(
            a=a,
            b=b,
            attack=attack,
            rounds=(empty,),
            winner=ClashSide.A if attack else None,
            decided_by=ClashDecision.NO_DICE,
        )
    rounds: list[ClashRound] = []
    for _ in range(max_rounds):
        rnd = ClashRound(a=roll_pool(a, dice), b=roll_pool(b, dice))
        rounds.append(rnd)
        winner, decision = _decide(rnd, attack=attack)
        if decision is not None:
            return ClashResult(
                a=a, b=b, attack=attack, rounds=tuple(rounds), winner=winner, decided_by=decision
            )
    return ClashResult(
        a=a,
        b=b,
        attack=attack,
        rounds=tuple(rounds),
        winner=None,
        decided_by=ClashDecision.ROUND_LIMIT,
    )


def _other_roll(final: ClashRound, side: ClashSide, roll: PoolResult) -> ClashRound:
    if side is ClashSide.A:
        return ClashRound(a=roll, b=final.b)
    return ClashRound(a=final.a, b=roll)


def respend_clash(
    result: ClashResult, side: ClashSide, roll: PoolResult, *, dice: Dice
) -> ClashResult:
    """The clash after a point was spent on one side's roll of the deciding round.

    ``roll`` replaces that side's roll; the round is decided again. Ruling: if the
    changed round is now a deadlock (no successes anywhere, or a non-attack tie in
    successes and 6s), the clash is repeated as the text says, with the changed
    pools (a determination point spent after the roll stays on that side for the
    repeats), up to the usual round limit. Earlier rounds stay as they were.
    """
    if roll.spec.dice_count == 0 and not roll.dice:
        raise RulesError("That side rolled no dice: there is nothing to change.")
    changed = _other_roll(result.final, side, roll)
    a, b = changed.a.spec, changed.b.spec
    rounds = [*result.rounds[:-1], changed]
    winner, decision = _decide(changed, attack=result.attack)
    while decision is None and len(rounds) < MAX_ROUNDS:
        rnd = ClashRound(a=roll_pool(a, dice), b=roll_pool(b, dice))
        rounds.append(rnd)
        winner, decision = _decide(rnd, attack=result.attack)
    if decision is None:
        decision = ClashDecision.ROUND_LIMIT
    return ClashResult(
        a=a, b=b, attack=result.attack, rounds=tuple(rounds), winner=winner, decided_by=decision
    )
