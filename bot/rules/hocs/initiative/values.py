"""The tracker's small values: limits, sides, action kinds, names, an initiative pool
and roll, a timed effect and the actions spent this round."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import MAX_ATTRIBUTE
from bot.rules.hocs.character import MAX_TRAINING
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.threshold import RecoveryKind

MAX_PARTICIPANTS = 40
MAX_NAME = 40
MAX_SUCCESSES = 50
MAX_ROUNDS = 100
MAX_COUNT = 20
MAX_BONUS_DICE = 10


class Side(StrEnum):
    PC = "pc"
    ALLY = "ally"
    ANTAGONIST = "antagonist"

    @property
    def rank(self) -> int:
        """Tie order: player characters, then allies, then antagonists."""
        return {"pc": 0, "ally": 1, "antagonist": 2}[self.value]

    @property
    def title(self) -> str:
        return {"pc": "Player character", "ally": "Ally", "antagonist": "Antagonist"}[self.value]


class ActionKind(StrEnum):
    ACTION = "action"
    QUICK = "quick"
    REACTION = "reaction"

    @property
    def title(self) -> str:
        return {"action": "action", "quick": "quick action", "reaction": "reaction"}[self.value]


def check_name(name: str) -> str:
    """A participant or group name: 1–40 characters after trimming."""
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise RulesError("A participant needs a name.")
    if len(cleaned) > MAX_NAME:
        raise RulesError(f"Names are at most {MAX_NAME} characters: shorten “{cleaned[:20]}…”.")
    return cleaned


def bounded(value: int, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{what} must be a whole number from {low} to {high}.")
    return value


@dataclass(frozen=True, kw_only=True)
class InitiativeStats:
    """What an initiative roll is made of: attribute + training + expertise + ``bonus``
    dice ("any other bonuses", set by the GM) and ``boons``, and the banes a sheet
    character's injuries give the agility roll (``injury_banes``) and the presence roll
    of a social encounter (``social_injury_banes``)."""

    agility: int
    presence: int
    training: int = 0
    expertise: bool = False
    injury_banes: int = 0
    social_injury_banes: int = 0
    bonus: int = 0
    boons: int = 0

    def __post_init__(self) -> None:
        bounded(self.agility, 0, MAX_ATTRIBUTE, "Agility")
        bounded(self.presence, 0, MAX_ATTRIBUTE, "Presence")
        bounded(self.training, 0, MAX_TRAINING, "Training in initiative")
        bounded(self.injury_banes, 0, MAX_MODIFIER, "Injury banes")
        bounded(self.social_injury_banes, 0, MAX_MODIFIER, "Injury banes")
        bounded(self.bonus, 0, MAX_BONUS_DICE, "Bonus dice")
        bounded(self.boons, 0, MAX_MODIFIER, "Boons")

    def base(self, *, social: bool) -> int:
        attribute = self.presence if social else self.agility
        return attribute + self.training + (1 if self.expertise else 0) + self.bonus

    def banes(self, *, social: bool) -> int:
        """Banes the roll suffers from injuries (conditions are the participant's)."""
        return self.social_injury_banes if social else self.injury_banes

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "agility": self.agility,
            "presence": self.presence,
            "training": self.training,
            "expertise": self.expertise,
        }
        if self.injury_banes:
            data["injury_banes"] = self.injury_banes
        if self.social_injury_banes:
            data["social_injury_banes"] = self.social_injury_banes
        if self.bonus:
            data["bonus"] = self.bonus
        if self.boons:
            data["boons"] = self.boons
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InitiativeStats:
        return cls(
            agility=int(data["agility"]),
            presence=int(data["presence"]),
            training=int(data.get("training", 0)),
            expertise=bool(data.get("expertise", False)),
            injury_banes=int(data.get("injury_banes", 0)),
            social_injury_banes=int(data.get("social_injury_banes", 0)),
            bonus=int(data.get("bonus", 0)),
            boons=int(data.get("boons", 0)),
        )


@dataclass(frozen=True, kw_only=True)
class InitiativeRoll:
    """This round's result; ``faces`` are the dice rolled (empty when set by hand)."""

    successes: int
    faces: tuple[int, ...] = ()
    banes: int = 0
    manual: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "successes": self.successes,
            "faces": list(self.faces),
            "banes": self.banes,
            "manual": self.manual,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InitiativeRoll:
        return cls(
            successes=int(data["successes"]),
            faces=tuple(int(f) for f in data.get("faces", ())),
            banes=int(data.get("banes", 0)),
            manual=bool(data.get("manual", False)),
        )


@dataclass(frozen=True, kw_only=True)
class Effect:
    """A condition added through the tracker; ``expires_round`` None lasts until cleared."""

    id: int
    condition: Condition
    value: int = 1
    added_round: int
    expires_round: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "condition": self.condition.value,
            "value": self.value,
            "added_round": self.added_round,
            "expires_round": self.expires_round,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        expires = data.get("expires_round")
        return cls(
            id=int(data["id"]),
            condition=Condition(data["condition"]),
            value=int(data.get("value", 1)),
            added_round=int(data["added_round"]),
            expires_round=None if expires is None else int(expires),
        )


@dataclass(frozen=True)
class Spent:
    """Actions used this round."""

    actions: int = 0
    quick: int = 0
    reactions: int = 0


@dataclass(frozen=True, kw_only=True)
class RecoveryClock:
    """When a dying or unconscious participant's next test is due.

    ``id`` comes from the encounter's effect counter, so a prompt's button names
    exactly one clock: once the test is rolled (or the clock restarts) old buttons
    find no match. ``prompted`` is set when the test fell due and was announced.
    """

    id: int
    kind: RecoveryKind
    due_round: int
    prompted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "due_round": self.due_round,
            "prompted": self.prompted,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecoveryClock:
        return cls(
            id=int(data["id"]),
            kind=RecoveryKind(data["kind"]),
            due_round=int(data["due_round"]),
            prompted=bool(data.get("prompted", False)),
        )
