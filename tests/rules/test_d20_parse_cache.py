"""d20 parses are cached by expression text, and a shared tree never leaks between rolls."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.generic import d20_adapter
from bot.rules.generic_roll import roll_expression


def test_the_same_text_is_parsed_once() -> None:
    d20_adapter.parse_cached.cache_clear()
    first = roll_expression("2d6kh1+3 sneak", dice=ScriptedDice([2, 5]))
    second = roll_expression("2d6kh1+3 sneak", dice=ScriptedDice([6, 1]))
    info = d20_adapter.parse_cached.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    # Each roll has its own dice and result although they share one parsed tree.
    assert (first.total, first.label) == (8, "sneak")
    assert (second.total, second.label) == (9, "sneak")
    assert roll_expression("2d6kh1+3 sneak", dice=ScriptedDice([2, 5])).total == 8


def test_a_bad_text_is_refused_every_time_not_cached() -> None:
    d20_adapter.parse_cached.cache_clear()
    for _ in range(2):
        with pytest.raises(RulesError):
            roll_expression("2d6+", dice=ScriptedDice([1]))
    assert d20_adapter.parse_cached.cache_info().currsize == 0
