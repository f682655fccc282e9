"""A hero point's extra action on the initiative tracker."""

from __future__ import annotations

import pytest

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    MAX_EXTRA_ACTIONS,
    ActionKind,
    Side,
    encounter_from_dict,
    encounter_to_dict,
    grant_extra_action,
    move_to,
    next_turn,
    prev_turn,
    spend,
)
from tests.rules.hocs.test_initiative import NO_DICE, ONE, TWO, build, npc, table


def duel():  # type: ignore[no-untyped-def]
    """Aria (1) acts first, then Goblin (2)."""
    enc, _ = next_turn(build(npc("Aria", Side.PC), npc("Goblin")), table(TWO, ONE))
    return enc


def test_an_extra_action_adds_one_action_this_turn() -> None:
    enc, extra = grant_extra_action(duel(), 1)
    assert MAX_EXTRA_ACTIONS == 1
    assert extra.allowance.actions == 3 and enc.participant(1).allowance.actions == 3
    for _ in range(3):
        enc, _ = spend(enc, 1, ActionKind.ACTION)
    with pytest.raises(RulesError, match="no actions left"):
        spend(enc, 1, ActionKind.ACTION)


def test_unique_bonus_one_per_turn() -> None:
    enc, _ = grant_extra_action(duel(), 1)
    with pytest.raises(RulesError, match="already has an extra action"):
        grant_extra_action(enc, 1)


def test_only_on_your_own_turn_and_not_while_down() -> None:
    with pytest.raises(RulesError, match="isn't Goblin's turn"):
        grant_extra_action(duel(), 2)
    with pytest.raises(RulesError, match="isn't Aria's turn"):
        grant_extra_action(build(npc("Aria", Side.PC)), 1)  # no round yet
    down = build(npc("Aria", Side.PC, conditions=Conditions.of(Condition.UNCONSCIOUS)))
    enc, _ = next_turn(down, table(ONE))
    with pytest.raises(RulesError, match="down"):
        grant_extra_action(enc, 1)


def test_it_ends_with_the_turn_used_or_not() -> None:
    enc, _ = grant_extra_action(duel(), 1)
    enc, _ = next_turn(enc, NO_DICE)  # Goblin's turn
    assert enc.participant(1).extra_actions == 0
    assert enc.participant(1).allowance.actions == 2
    enc, _ = grant_extra_action(enc, 2)
    enc, _ = prev_turn(enc)  # back to Aria: Goblin's turn is over
    assert enc.participant(2).extra_actions == 0
    enc, _ = grant_extra_action(enc, 1)
    enc, _ = move_to(enc, 2, NO_DICE)
    assert enc.participant(1).extra_actions == 0


def test_staggered_gets_the_extra_action_on_top() -> None:
    aria = npc("Aria", Side.PC, agility=4, conditions=Conditions.of(Condition.STAGGERED))
    enc, _ = next_turn(build(aria), table((5, 6, 1)))
    enc, _ = grant_extra_action(enc, 1)
    enc, _ = spend(enc, 1, ActionKind.QUICK)
    enc, _ = spend(enc, 1, ActionKind.ACTION)  # the extra action
    with pytest.raises(RulesError, match="staggered"):
        spend(enc, 1, ActionKind.ACTION)


def test_the_extra_action_is_saved() -> None:
    enc, _ = grant_extra_action(duel(), 1)
    assert encounter_from_dict(encounter_to_dict(enc)) == enc
