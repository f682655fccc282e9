"""Which spend buttons a roll offers: the character has the point and spending it could
change the roll (``available_spends``), checked against that rule spend by spend."""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace
from typing import Any

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import roll_pool
from bot.storage.hocs.characters import CharacterKind
from cogs.hocs.points.spending import Spend, available_spends, would_change


def rolled(spec: PoolSpec, *faces: int) -> PoolResult:
    return roll_pool(spec, ScriptedDice(faces))


ROLLS = {
    "a failure": rolled(PoolSpec(base=2), 5, 2),
    "no failure": rolled(PoolSpec(base=2), 5, 4),
    "a bane": rolled(PoolSpec(base=2, banes=1), 2),
    "a boon that rolled a 3": rolled(PoolSpec(base=1, boons=1), 5, 3),
    "determination already on it": rolled(PoolSpec(base=1, determination=True), 2, 3),
}


def character(det: int, hero: int, kind: CharacterKind, fortune: tuple[str, ...]) -> Any:
    state = SimpleNamespace(determination=det, hero_points=hero)
    return SimpleNamespace(state=state, kind=kind, fortune_sources=fortune)


def stored(roll: PoolResult, automatic: bool = False) -> Any:
    return SimpleNamespace(roll=roll, automatic_success=automatic)


def test_each_spend_is_offered_for_what_it_could_change() -> None:
    pc = character(1, 1, CharacterKind.PC, ("lucky coin",))
    assert available_spends(stored(ROLLS["a bane"]), pc) == (
        Spend.DETERMINATION,
        Spend.HERO,
        Spend.FORTUNE,
    )
    # No failure: nothing to reroll; net 0, so one more boon would still help.
    assert available_spends(stored(ROLLS["no failure"]), pc) == (Spend.DETERMINATION,)
    assert available_spends(stored(ROLLS["a boon that rolled a 3"]), pc) == (
        Spend.HERO,
        Spend.FORTUNE,
    )
    # Hero points are a player character's only.
    npc = character(0, 3, CharacterKind.ANTAGONIST, ())
    assert available_spends(stored(ROLLS["a failure"]), npc) == ()
    assert available_spends(stored(ROLLS["a failure"], automatic=True), pc) == ()
    assert available_spends(stored(ROLLS["a failure"]), None) == ()


def test_the_offer_is_the_rule_for_every_combination() -> None:
    """The character has the point and ``would_change`` says yes, spend by spend."""
    combos = product(
        (0, 1), (0, 2), CharacterKind, ((), ("lucky coin",)), ROLLS.values(), (False, True)
    )
    for det, hero, kind, fortune, roll, automatic in combos:
        who, what = character(det, hero, kind, fortune), stored(roll, automatic)
        has = {
            Spend.DETERMINATION: det > 0,
            Spend.HERO: kind is CharacterKind.PC and hero > 0,
            Spend.FORTUNE: bool(fortune),
        }
        expected = tuple(s for s in Spend if has[s] and would_change(what, s))
        assert available_spends(what, who) == expected, (det, hero, kind, fortune, automatic)
