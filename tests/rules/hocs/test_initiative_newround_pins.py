"""A new round's exact result, pinned: the state ``start_round`` hands back, its events
and the dice it asked for, for a field that exercises every branch of the roll (a
preset, banes from conditions and injuries, bonus dice and a boon die, a pool banes
empty, group initiative led past a dead member, separate rolls in a plain group, ties,
an effect that runs out, a social encounter's presence).

Recorded on 27ec5b1, before a new round was made cheaper, so that work is proven to
change nothing: the pins are the values' reprs (every field of every participant).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    Encounter,
    InitiativeRoll,
    InitiativeStats,
    Participant,
    Side,
    Spent,
    start_round,
)
from bot.rules.hocs.initiative.values import Effect

PINS = dict(
    line.split(" ", 1)
    for line in (Path(__file__).parent / "newround_pins.txt").read_text("utf-8").splitlines()
)
OLD = InitiativeRoll(successes=1, faces=(4, 1))


def field(*, social: bool = False, round: int = 1) -> Encounter:
    """Ten participants in eight slots, mid-encounter (the last slot acting)."""

    def p(pid: int, name: str, side: Side, agility: int = 2, **kw: object) -> Participant:
        stats = kw.pop("stats", None) or InitiativeStats(agility=agility, presence=1)
        return Participant(id=pid, name=name, side=side, stats=stats, roll=OLD, **kw)  # type: ignore[arg-type]

    participants = (
        p(
            1, "Aria", Side.PC, owner_id=11, hp=9, max_hp=12,
            stats=InitiativeStats(agility=3, presence=2, training=1, expertise=True),
            conditions=Conditions.of(Condition.STAGGERED),
            effects=(Effect(id=1, condition=Condition.STAGGERED, added_round=1, expires_round=1),),
            spent=Spent(actions=1, quick=1),
        ),
        p(
            2, "Bram", Side.PC, owner_id=12,
            stats=InitiativeStats(agility=2, presence=3, injury_banes=1, social_injury_banes=2),
            conditions=Conditions.of(fatigued=2),
            spent=Spent(reactions=1),
        ),
        p(3, "Wolf 1", Side.ALLY, agility=1, group="Wolf", group_roll=True,
          conditions=Conditions.of(Condition.DEAD)),
        p(4, "Wolf 2", Side.ALLY, agility=4, group="Wolf", group_roll=True),
        p(5, "Scout", Side.ANTAGONIST,
          stats=InitiativeStats(agility=2, presence=2, bonus=1, boons=1)),
        p(6, "Brute", Side.ANTAGONIST, preset=3),
        p(7, "Weak", Side.ANTAGONIST, agility=1, conditions=Conditions.of(fatigued=3)),
        p(8, "Goblin 1", Side.ANTAGONIST, group="Goblin"),
        p(9, "Goblin 2", Side.ANTAGONIST, group="Goblin", extra_actions=1),
        p(10, "Pip", Side.ALLY, agility=2, hp=0, max_hp=4),
    )  # fmt: skip
    order = ((1,), (2,), (3, 4), (5,), (6,), (7,), (8,), (9,), (10,))
    return Encounter(
        social=social, round=round, order=order, current=len(order) - 1, turn=9,
        participants=participants, next_id=11, next_effect_id=2,
    )  # fmt: skip


# More faces than any of the cases asks for (the pins record how many were left): slots
# ask in join order, a preset and a pool banes emptied ask for none.
FACES = [6, 4, 1, 5, 2, 3, 6, 5, 4, 1, 4, 6, 2, 3, 1, 5, 4, 6, 1, 4, 5, 6, 2, 2, 3, 4]


@pytest.mark.parametrize("social", [False, True])
def test_a_new_round_is_exactly_as_pinned(social: bool) -> None:
    dice = ScriptedDice(FACES)
    enc, events = start_round(field(social=social), dice)
    key = "SOCIAL" if social else "COMBAT"
    assert repr(enc) == PINS[f"{key}_STATE"]
    assert repr(events) == PINS[f"{key}_EVENTS"]
    assert repr((dice.requests, dice.remaining)) == PINS[f"{key}_DICE"]


def test_a_second_round_from_the_first_is_pinned() -> None:
    """A round begun from a round the same code rolled (rolls, no presets, the expiry gone)."""
    enc, _ = start_round(field(), ScriptedDice(FACES))
    dice = ScriptedDice(list(reversed(FACES)))
    enc, events = start_round(enc, dice)
    assert repr(enc) == PINS["SECOND_STATE"]
    assert repr(events) == PINS["SECOND_EVENTS"]
    assert repr((dice.requests, dice.remaining)) == PINS["SECOND_DICE"]


class Faces:
    """A dice source that can give what ScriptedDice refuses (an impossible face)."""

    def __init__(self, *faces: object) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> object:
        return self.faces.pop(0)


@pytest.mark.parametrize("bad", [0, 7, True, 2.0])
def test_an_impossible_face_is_refused_as_before(bad: object) -> None:
    enc = field()
    enc = Encounter(
        round=1, order=((1,),), current=0, participants=(enc.participants[9],), next_id=11
    )
    dice = Faces(4, bad, 6)
    try:
        start_round(enc, dice)  # type: ignore[arg-type]
    except RulesError as exc:
        outcome = f"RulesError({exc})"
    else:
        outcome = "no error"
    assert outcome == PINS[f"BAD_{bad!r}"]
    assert dice.faces == [6]  # the bad face was the last asked for
