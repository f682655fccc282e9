"""NPC morale: the two triggers, the roll with the leader's social, fleeing."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.morale import MoraleState, MoraleTrigger, morale_triggers, roll_morale

FIRST = MoraleTrigger.FIRST_ALLY
HALF = MoraleTrigger.HALF_DOWN


def test_triggers() -> None:
    state = MoraleState(score=-5)
    assert morale_triggers(state, total=4, down=0) == ()
    assert morale_triggers(state, total=4, down=1) == (FIRST,)
    assert morale_triggers(state, total=4, down=2) == (FIRST, HALF)
    assert morale_triggers(state, total=5, down=2) == (FIRST,)  # 2 of 5 is under half
    checked = MoraleState(score=-5, first_checked=True)
    assert morale_triggers(checked, total=4, down=1) == ()
    assert morale_triggers(checked, total=4, down=2) == (HALF,)
    assert morale_triggers(MoraleState(score=0, fled=True), total=4, down=4) == ()
    with pytest.raises(RulesError, match="More allies"):
        morale_triggers(state, total=2, down=3)


def test_roll_with_leader_holds_at_ten() -> None:
    state = MoraleState(score=-5)
    held = roll_morale(state, (FIRST,), leader_social=2, dice=ScriptedDice([6, 7]))
    assert held.roll.total == 10 and not held.flees
    assert held.after.first_checked and not held.after.half_checked
    assert [(m.label, m.value) for m in held.roll.modifiers] == [
        ("leader's social", 2),
        ("no skill", 0),
        ("morale score", -5),
    ]
    fled = roll_morale(held.after, (HALF,), leader_social=2, dice=ScriptedDice([6, 6]))
    assert fled.roll.total == 9 and fled.flees
    with pytest.raises(RulesError, match="already fled"):
        roll_morale(fled.after, (HALF,), dice=ScriptedDice([5, 5]))


def test_without_a_leader_and_score_by_name() -> None:
    state = MoraleState(score="very easy")  # type: ignore[arg-type]
    assert state.score == 5
    result = roll_morale(state, (FIRST, HALF), dice=ScriptedDice([2, 3]))
    assert result.roll.total == 10 and not result.flees
    assert result.after.first_checked and result.after.half_checked
    with pytest.raises(RulesError, match="No morale roll"):
        roll_morale(state, (), dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="Social"):
        roll_morale(state, (FIRST,), leader_social=9, dice=ScriptedDice([]))


def test_a_roll_the_gm_calls_leaves_both_triggers_to_come() -> None:
    # Ruling morale-gm-call: the GM may call the roll; the text's triggers still come.
    state = MoraleState(score=-5)
    called = roll_morale(state, (MoraleTrigger.GM_CALL,), dice=ScriptedDice([7, 8]))
    assert called.roll.total == 10 and not called.flees
    assert not called.after.first_checked and not called.after.half_checked
    assert morale_triggers(called.after, total=4, down=2) == (FIRST, HALF)
    assert MoraleTrigger.GM_CALL not in morale_triggers(state, total=2, down=2)
