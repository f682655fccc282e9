"""The dying roll, death at the threshold, and when the tracker asks for it."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.dying import dying_roll_due, roll_dying
from bot.rules.twod10.healing import HealingState
from bot.rules.twod10.initiative.model import Side
from bot.rules.twod10.tasks import Edge

from .survival_support import person

ADA = person(toughness=2, tough_defense=1)  # max 25 HP, dies at -4


def at(hp: int, **extra: bool) -> HealingState:
    return HealingState(hp=hp, max_hp=25, **extra)


def test_roll_adds_toughness_defense_and_current_hp() -> None:
    # 4 + 5 + toughness 2 + defense 1 + HP -2 = 10: gains 1 HP, stays awake.
    result = roll_dying(ADA, at(-2), dice=ScriptedDice([4, 5]))
    assert result.roll.total == 10
    assert [(m.label, m.value) for m in result.roll.modifiers] == [
        ("toughness", 2),
        ("defense (toughness)", 1),
        ("current HP", -2),
    ]
    assert result.succeeded and result.after.hp == -1
    assert not result.after.unconscious and not result.died


def test_below_ten_falls_unconscious_and_loses_one() -> None:
    result = roll_dying(ADA, at(-2), dice=ScriptedDice([4, 4]))
    assert result.roll.total == 9
    assert result.after.hp == -3 and result.after.unconscious
    assert result.fell_unconscious and not result.died


def test_death_at_the_threshold() -> None:
    result = roll_dying(ADA, at(-3, unconscious=True), dice=ScriptedDice([1, 3]))
    assert result.roll.total == 4 - 3 + 3
    assert result.after.hp == -4 and result.died
    with pytest.raises(RulesError, match="dead"):
        roll_dying(ADA, result.after, dice=ScriptedDice([10, 10]))


def test_returning_to_one_hp_wakes() -> None:
    result = roll_dying(ADA, at(0, unconscious=True), dice=ScriptedDice([3, 4]))
    assert result.roll.total == 10
    assert result.after.hp == 1 and not result.after.unconscious and result.woke


def test_success_below_one_stays_unconscious() -> None:
    result = roll_dying(ADA, at(-2, unconscious=True), dice=ScriptedDice([5, 5]))
    assert result.after.hp == -1 and result.after.unconscious and not result.woke


def test_natural_two_fails_whatever_the_total() -> None:
    tough = person(toughness=6, tough_defense=6)
    result = roll_dying(tough, HealingState(hp=0, max_hp=45), dice=ScriptedDice([1, 1]))
    assert result.roll.total == 14 and not result.succeeded
    assert result.after.hp == -1 and result.after.unconscious


def test_stabilisation_advantage_is_spent_by_the_roll() -> None:
    dice = ScriptedDice([1, 5, 4])
    result = roll_dying(ADA, at(-1, toughness_advantage=True), dice=dice)
    assert result.roll.roll.edge is Edge.ADVANTAGE and result.roll.natural == 9
    assert result.roll.total == 11 and result.after.hp == 0
    assert not result.after.toughness_advantage
    assert dice.remaining == 0


def test_not_dying_is_refused() -> None:
    with pytest.raises(RulesError, match="not dying"):
        roll_dying(ADA, at(1), dice=ScriptedDice([]))


def test_due_on_own_sides_turn_only() -> None:
    state = at(-1)
    due = {
        side: dying_roll_due(state, toughness=2, character_side=Side.PLAYERS, acting_side=side)
        for side in (Side.PLAYERS, Side.NPCS, None)
    }
    assert due == {Side.PLAYERS: True, Side.NPCS: False, None: False}
    assert not dying_roll_due(at(1), toughness=2, character_side=Side.PLAYERS,
                              acting_side=Side.PLAYERS)  # fmt: skip
    assert not dying_roll_due(at(-4), toughness=2, character_side=Side.PLAYERS,
                              acting_side=Side.PLAYERS)  # fmt: skip
