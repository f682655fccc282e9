"""The tracker document's due dying rolls and NPC morale: round trip, old documents."""

from __future__ import annotations

import json

import pytest

from bot.rules.errors import RulesError
from bot.rules.twod10.morale import MoraleState
from bot.storage.twod10.encounters import Tracker, tracker_from_json, tracker_to_json
from bot.storage.twod10.morale import NpcMorale


def test_due_rolls_and_morale_round_trip() -> None:
    morale = NpcMorale(
        state=MoraleState(score=-5, first_checked=True), leader_id=3, leader_social=2
    )
    tracker = Tracker(dying_due=((1, 2), (4, 2)), morale=morale)
    assert tracker_from_json(tracker_to_json(tracker)) == tracker


def test_a_document_saved_before_them_loads_with_none() -> None:
    data = json.loads(tracker_to_json(Tracker()))
    del data["dying_due"], data["morale"]
    loaded = tracker_from_json(json.dumps(data))
    assert loaded.dying_due == () and loaded.morale is None


def test_damaged_morale_is_one_sentence() -> None:
    data = json.loads(tracker_to_json(Tracker(morale=NpcMorale(state=MoraleState(score=0)))))
    data["morale"]["leader_social"] = "lots"
    with pytest.raises(RulesError, match="is damaged"):
        tracker_from_json(json.dumps(data))
    data["morale"]["leader_social"] = 9  # beyond any Social
    with pytest.raises(RulesError):
        tracker_from_json(json.dumps(data))
