"""The NPC side's morale in a 2d10 encounter, as stored inside the tracker's document.

The rules' ``MoraleState`` (score, which triggers were rolled, fled) goes through its
codec; beside it the bot keeps who leads the unit and the Social that leader adds.
Kept in the encounter (not on a sheet) because quick NPCs have no sheet and a unit's
morale lasts one fight (ruling ``morale-down``: each trigger once per encounter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.twod10.morale import MoraleState
from bot.rules.twod10.survival_codec import morale_from_dict, morale_to_dict
from bot.rules.twod10.tasks import check_score


@dataclass(frozen=True, kw_only=True)
class NpcMorale:
    state: MoraleState
    leader_id: int | None = None  # the leading combatant, if the GM named one
    leader_social: int = 0  # its Social, read from its sheet or given by the GM

    def __post_init__(self) -> None:
        check_score(self.leader_social, name="The leader's Social")


def morale_to_json(morale: NpcMorale) -> dict[str, Any]:
    return {
        "state": morale_to_dict(morale.state),
        "leader_id": morale.leader_id,
        "leader_social": morale.leader_social,
    }


def morale_from_json(data: dict[str, Any]) -> NpcMorale:
    """Raises RulesError (one sentence) when the stored morale is damaged."""
    leader = data.get("leader_id")
    social = data.get("leader_social", 0)
    if (leader is not None and not isinstance(leader, int)) or not isinstance(social, int):
        raise RulesError("This stored morale is damaged; set it again with /morale set.")
    return NpcMorale(state=morale_from_dict(data["state"]), leader_id=leader, leader_social=social)
