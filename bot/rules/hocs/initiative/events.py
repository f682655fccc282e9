"""What the tracker's operations report: the cog applies and renders these."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.hocs.conditions import ActionAllowance, Condition
from bot.rules.hocs.initiative.values import ActionKind, Spent
from bot.rules.hocs.threshold import RecoveryKind, RecoveryTest


@dataclass(frozen=True)
class SlotRoll:
    participant_ids: tuple[int, ...]
    names: tuple[str, ...]
    group: str | None
    successes: int
    faces: tuple[int, ...]
    banes: int
    manual: bool


@dataclass(frozen=True)
class RoundStarted:
    round: int
    rolls: tuple[SlotRoll, ...]  # in the new order


@dataclass(frozen=True)
class TurnStarted:
    round: int
    turn: int
    participant_ids: tuple[int, ...]
    successes: int | None


@dataclass(frozen=True)
class TurnSkipped:
    participant_ids: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class TurnReturned:
    """``prev``: the turn went back without its start being repeated."""

    participant_ids: tuple[int, ...]


@dataclass(frozen=True)
class EffectExpired:
    participant_id: int
    name: str
    character_id: int | None
    condition: Condition
    value: int


@dataclass(frozen=True)
class EffectAdded:
    participant_id: int
    name: str
    condition: Condition
    value: int
    expires_round: int | None


@dataclass(frozen=True)
class EffectCleared:
    participant_id: int
    name: str
    condition: Condition


@dataclass(frozen=True)
class BleedingTick:
    """Hit points lost to bleeding; ``hp_after`` None when hit points aren't tracked."""

    participant_id: int
    name: str
    character_id: int | None
    amount: int
    temp_absorbed: int
    hp_after: int | None


@dataclass(frozen=True)
class ThresholdTestDue:
    participant_id: int
    name: str
    difficulty: int


@dataclass(frozen=True)
class Died:
    participant_id: int
    name: str
    character_id: int | None
    reason: str


@dataclass(frozen=True)
class ConditionNote:
    participant_id: int
    name: str
    condition: Condition


@dataclass(frozen=True)
class Joined:
    participant_id: int
    name: str
    successes: int | None  # rolled at once when joining mid-round
    acts_this_round: bool


@dataclass(frozen=True)
class Removed:
    participant_id: int
    name: str


@dataclass(frozen=True)
class ActionMarked:
    participant_id: int
    name: str
    kind: ActionKind
    paid_with_action: bool
    spent: Spent
    allowance: ActionAllowance


@dataclass(frozen=True)
class BonusSet:
    """The GM's other bonuses to participants' initiative, from the next roll on."""

    participant_ids: tuple[int, ...]
    bonus: int
    boons: int


@dataclass(frozen=True)
class ResultSet:
    participant_ids: tuple[int, ...]
    successes: int
    applies_now: bool


@dataclass(frozen=True)
class RecoveryTestDue:
    """A participant's dying or unconscious test fell due: prompt its owner."""

    participant_id: int
    name: str
    owner_id: int | None
    kind: RecoveryKind
    clock_id: int


@dataclass(frozen=True)
class RecoveryTestRolled:
    participant_id: int
    name: str
    character_id: int | None
    test: RecoveryTest


Event = (
    RoundStarted
    | TurnStarted
    | TurnSkipped
    | TurnReturned
    | EffectExpired
    | EffectAdded
    | EffectCleared
    | BleedingTick
    | ThresholdTestDue
    | Died
    | ConditionNote
    | Joined
    | Removed
    | ActionMarked
    | ResultSet
    | BonusSet
    | RecoveryTestDue
    | RecoveryTestRolled
)
