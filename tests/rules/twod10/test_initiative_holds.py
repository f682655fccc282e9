"""An opponent held as a weapon on the tracker (ruling opponent-weapon-rounds)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.holds import held_by, start_hold, wielders_of
from bot.rules.twod10.initiative.model import (
    Combatant,
    Encounter,
    Phase,
    Side,
    remove_combatant,
    with_combatant,
)


def _fight(round_: int = 1) -> Encounter:
    return Encounter(
        combatants=(
            Combatant(id=1, name="Aria", side=Side.PLAYERS),
            Combatant(id=2, name="Gob", side=Side.NPCS),
        ),
        round=round_,
        phase=Phase.TURN,
    )


def test_a_hold_lasts_through_its_rounds() -> None:
    enc = start_hold(_fight(), 1, 2, 3)
    assert enc.combatant(1).hold_until == 4
    for round_ in (1, 2, 3, 4):
        held = held_by(replace(enc, round=round_), 1)
        assert held is not None and held.name == "Gob"
    assert held_by(replace(enc, round=5), 1) is None
    assert [c.name for c in wielders_of(enc, 2)] == ["Aria"]
    assert wielders_of(replace(enc, round=5), 2) == ()


def test_a_hold_ends_when_either_leaves_or_the_wielder_falls() -> None:
    enc = start_hold(_fight(), 1, 2, 1)
    assert held_by(remove_combatant(enc, 2), 1) is None
    down = with_combatant(enc, replace(enc.combatant(1), down=True))
    assert held_by(down, 1) is None


def test_no_self_hold_and_no_stranger() -> None:
    with pytest.raises(RulesError, match="itself"):
        start_hold(_fight(), 1, 1, 1)
    with pytest.raises(RulesError):
        start_hold(_fight(), 1, 9, 1)


def test_a_hold_survives_the_codec_and_old_rows_have_none() -> None:
    enc = start_hold(_fight(), 1, 2, 2)
    again = encounter_from_dict(encounter_to_dict(enc))
    assert again.combatant(1).holding == 2 and again.combatant(1).hold_until == 3
    stored = encounter_to_dict(enc)
    for c in stored["combatants"]:
        del c["holding"], c["hold_until"]  # saved before opponents were wielded
    assert held_by(encounter_from_dict(stored), 1) is None
