from __future__ import annotations

import pytest

from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import (
    NORMAL_ACTIONS,
    ActionAllowance,
    Condition,
    ConditionKind,
    Conditions,
    actions_per_turn,
    attacks_gain_combat_advantage,
    melee_attack_boons,
    skill_roll_banes,
    speed_after_conditions,
)


def test_every_condition_has_a_description() -> None:
    for condition in Condition:
        assert condition.description.endswith(".")


def test_condition_kinds() -> None:
    assert Condition.FATIGUED.kind is ConditionKind.STACKS
    assert Condition.BLEEDING.kind is ConditionKind.VALUE
    assert Condition.STAGGERED.kind is ConditionKind.FLAG


def test_fatigued_stacks_and_bleeding_keeps_the_higher_value() -> None:
    held = Conditions().add(Condition.FATIGUED).add(Condition.FATIGUED)
    assert held.value(Condition.FATIGUED) == 2
    held = held.add(Condition.BLEEDING, 2).add(Condition.BLEEDING, 1)
    assert held.value(Condition.BLEEDING) == 2
    assert held.add(Condition.STAGGERED).add(Condition.STAGGERED).value(Condition.STAGGERED) == 1


def test_conditions_compare_equal_regardless_of_order() -> None:
    a = Conditions.of(Condition.SLOW, Condition.FLANKED, fatigued=2)
    b = Conditions().add(Condition.FATIGUED, 2).add(Condition.FLANKED).add(Condition.SLOW)
    assert a == b
    assert Conditions.from_dict(a.to_dict()) == a
    assert a.remove(Condition.SLOW) == Conditions.of(Condition.FLANKED, fatigued=2)


def test_invalid_conditions_are_refused() -> None:
    with pytest.raises(RulesError):
        Conditions.of(staggered=2)
    with pytest.raises(RulesError):
        Conditions.of(bleeding=0)
    with pytest.raises(RulesError, match="no condition"):
        Conditions.of(sleepy=1)


def test_skill_roll_banes() -> None:
    assert skill_roll_banes(Conditions()) == 0
    assert skill_roll_banes([Condition.STAGGERED]) == 2
    assert skill_roll_banes(Conditions.of(Condition.STAGGERED, fatigued=3)) == 5


def test_melee_attack_boons_counts_each_source() -> None:
    assert melee_attack_boons([]) == 0
    assert melee_attack_boons([Condition.OUTNUMBERED]) == 1
    assert melee_attack_boons([Condition.OUTNUMBERED, Condition.FLANKED]) == 2


def test_defenseless_targets_grant_combat_advantage() -> None:
    assert attacks_gain_combat_advantage([Condition.DEFENSELESS])
    assert not attacks_gain_combat_advantage([Condition.FLANKED])


def test_speed_after_fatigue_and_hindered() -> None:
    assert speed_after_conditions(30, Conditions.of(fatigued=2)) == 20
    assert speed_after_conditions(30, Conditions.of(Condition.HINDERED, fatigued=1)) == 12


@pytest.mark.parametrize(
    ("conditions", "allowance"),
    [
        ([], NORMAL_ACTIONS),
        ([Condition.SLOW], ActionAllowance(actions=1, quick_actions=1, reactions=1)),
        (
            [Condition.STAGGERED],
            ActionAllowance(actions=1, quick_actions=1, reactions=1, either_or=True),
        ),
        (
            [Condition.STAGGERED, Condition.SLOW],
            ActionAllowance(actions=1, quick_actions=1, reactions=1, either_or=True),
        ),
        ([Condition.UNCONSCIOUS], ActionAllowance(actions=0, quick_actions=0, reactions=0)),
        ([Condition.DEAD], ActionAllowance(actions=0, quick_actions=0, reactions=0)),
    ],
)
def test_actions_per_turn(conditions: list[Condition], allowance: ActionAllowance) -> None:
    assert actions_per_turn(conditions) == allowance
