"""A rolled pool's stored form, whole and in its key order (the roll log's text is
compared by compare-and-sets, so it must not change between versions)."""

from __future__ import annotations

import json

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import roll_pool


def test_a_pool_with_spent_modifiers_stores_what_is_left_of_each() -> None:
    # Two dice: the 1 is rerolled (talent) to a 3, then focused to a 4; the 6 stands.
    # Left: two rerolls of three, one focus of two, both guaranteed successes.
    spec = PoolSpec(base=2, rerolls=3, focus=2, guaranteed=2)
    dice = ScriptedDice([1, 6, 3])
    result = roll_pool(spec, dice)
    assert dice.remaining == 0
    text = json.dumps(result.to_dict(), separators=(",", ":"))
    assert text == (
        '{"version":1,"spec":{"base":2,"boons":0,"banes":0,"determination":false,'
        '"focus":2,"rerolls":3,"guaranteed":2},"dice":['
        '{"origin":"base","first_face":1,"rerolls":[{"face":3,"source":"talent"}],'
        '"focus":true,"final_faces":[4]},'
        '{"origin":"base","first_face":6,"final_faces":[6]}],'
        '"determination_after":false,"successes":2,"sixes":1,"zero_dice":false,'
        '"unused":{"rerolls":2,"focus":1,"guaranteed":2}}'
    )


def test_an_empty_pool_stores_zero_dice_and_everything_unused() -> None:
    result = roll_pool(PoolSpec(base=1, banes=3, rerolls=1, focus=1), ScriptedDice([]))
    data = result.to_dict()
    assert data["dice"] == [] and data["zero_dice"] is True and data["successes"] == 0
    assert data["unused"] == {"rerolls": 1, "focus": 1, "guaranteed": 0}
