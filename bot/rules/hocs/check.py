"""Tests: a skill roll against a difficulty set by the GM.

Win on successes ≥ difficulty; advantage on difficulty + 2 or more; a failure
by 2 or more is flagged (the threshold test's "critical failure 2+"). A
determination die whose first face was 1 on a failed test flags a possible
critical failure the GM may apply.

Ruling: at difficulty 0 (Routinary or Easy) the text says no roll is needed.
The bot still rolls if asked, but the outcome is an automatic success whatever
the dice show. Advantage is computed the same way at every difficulty.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.difficulty import Difficulty, parse_difficulty
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import roll_pool

ADVANTAGE_MARGIN = 2


class TestOutcome(Enum):
    __test__ = False  # not a pytest test class

    AUTOMATIC_SUCCESS = "automatic success"  # difficulty 0: no need to roll
    ADVANTAGE = "success with advantage"
    SUCCESS = "success"
    FAILURE = "failure"
    FAILURE_BY_TWO = "failure by 2 or more"


@dataclass(frozen=True, kw_only=True)
class TestResult:
    __test__ = False  # not a pytest test class

    roll: PoolResult
    difficulty: Difficulty

    @property
    def successes(self) -> int:
        return self.roll.successes

    @property
    def margin(self) -> int:
        """Successes above (or, negative, below) the difficulty."""
        return self.successes - int(self.difficulty)

    @property
    def no_roll_needed(self) -> bool:
        return not self.difficulty.needs_roll

    @property
    def succeeded(self) -> bool:
        return self.no_roll_needed or self.margin >= 0

    @property
    def advantage(self) -> bool:
        return self.margin >= ADVANTAGE_MARGIN

    @property
    def failed_by_two_or_more(self) -> bool:
        return not self.succeeded and self.margin <= -ADVANTAGE_MARGIN

    @property
    def possible_critical_failure(self) -> bool:
        """Failed with a 1 on the determination die: the GM may rule a critical failure."""
        return not self.succeeded and self.roll.determination_rolled_one

    @property
    def zero_dice(self) -> bool:
        """Nothing was rolled (banes emptied the pool): 0 successes."""
        return self.roll.zero_dice

    @property
    def outcome(self) -> TestOutcome:
        if self.no_roll_needed:
            return TestOutcome.AUTOMATIC_SUCCESS
        if self.advantage:
            return TestOutcome.ADVANTAGE
        if self.succeeded:
            return TestOutcome.SUCCESS
        return TestOutcome.FAILURE_BY_TWO if self.failed_by_two_or_more else TestOutcome.FAILURE

    def to_dict(self) -> dict[str, object]:
        return {"difficulty": int(self.difficulty), "roll": self.roll.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> TestResult:
        try:
            return cls(
                roll=PoolResult.from_dict(data["roll"]),  # type: ignore[arg-type]
                difficulty=parse_difficulty(data["difficulty"]),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError) as exc:
            raise RulesError("This stored test is damaged; roll again.") from exc


def resolve_test(roll: PoolResult, *, difficulty: int | str | Difficulty) -> TestResult:
    """Judge an existing roll (also after determination or rerolls) against a difficulty."""
    return TestResult(roll=roll, difficulty=parse_difficulty(difficulty))


def roll_test(spec: PoolSpec, *, difficulty: int | str | Difficulty, dice: Dice) -> TestResult:
    """Roll ``spec`` and judge it; the difficulty is checked before any die is rolled."""
    level = parse_difficulty(difficulty)
    return TestResult(roll=roll_pool(spec, dice), difficulty=level)
