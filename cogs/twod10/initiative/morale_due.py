"""NPC morale in the 2d10 tracker: the roll the bot calls when NPCs fall, and its mark.

Rulings ``morale-score`` and ``morale-down`` (bot.rules.twod10.morale); the bot's own:
morale is rolled only in an encounter whose NPC morale score the GM set (``/morale
set``): a fight the GM didn't give a score to has no morale to break. The unit is the
encounter's NPC side; a down NPC counts as killed. The leader's Social is added while
the leader stands. Triggers already met when the score is set are not rolled after
the fact (the GM can call a roll with ``/morale roll``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.render.twod10.morale import morale_field, morale_line
from bot.rules.dice_source import Dice
from bot.rules.twod10.initiative.model import Encounter, Side
from bot.rules.twod10.morale import MoraleResult, MoraleTrigger, morale_triggers, roll_morale
from bot.storage.twod10.encounters import Tracker
from bot.storage.twod10.morale import NpcMorale

# The bot's ruling, shown by /help and the README.
MORALE_SET_RULING = (
    "Morale is rolled only in an encounter whose NPC morale score the GM set with /morale"
    " set; the unit is the encounter's NPC side and its leader adds Social while standing."
    " Triggers already met when the score is set are not rolled after the fact."
)


@dataclass(frozen=True)
class MoraleRolled:
    result: MoraleResult
    leader: str | None  # the standing leader whose Social was added


def unit_count(enc: Encounter) -> tuple[int, int]:
    """(NPCs in the encounter, NPCs down): ruling morale-down counts the down as killed."""
    npcs = enc.side(Side.NPCS)
    return len(npcs), sum(1 for c in npcs if c.down)


def standing_leader(enc: Encounter, morale: NpcMorale) -> str | None:
    """The leader's name while it stands in the encounter (its Social counts), else None."""
    if morale.leader_id is None:
        return None
    for c in enc.combatants:
        if c.id == morale.leader_id and not c.down:
            return c.name
    return None


def roll_now(
    tracker: Tracker, triggers: tuple[MoraleTrigger, ...], dice: Dice
) -> tuple[Tracker, MoraleRolled]:
    morale = tracker.morale
    assert morale is not None
    leader = standing_leader(tracker.encounter, morale)
    result = roll_morale(
        morale.state, triggers, leader_social=morale.leader_social if leader else None, dice=dice
    )
    tracker = replace(tracker, morale=replace(morale, state=result.after))
    return tracker, MoraleRolled(result=result, leader=leader)


def settle_morale(tracker: Tracker, dice: Dice) -> tuple[Tracker, list[MoraleRolled]]:
    """Call the morale roll if NPCs falling met a trigger not yet rolled (one roll for
    both at once)."""
    morale = tracker.morale
    if morale is None or morale.state.fled:
        return tracker, []
    total, down = unit_count(tracker.encounter)
    triggers = morale_triggers(morale.state, total=total, down=down)
    if not triggers:
        return tracker, []
    tracker, rolled = roll_now(tracker, triggers, dice)
    return tracker, [rolled]


def passed_triggers(morale: NpcMorale, enc: Encounter) -> NpcMorale:
    """A newly set score counts the triggers already met as rolled (no roll after the fact)."""
    total, down = unit_count(enc)
    met = morale_triggers(replace(morale.state, fled=False), total=total, down=down)
    state = replace(
        morale.state,
        first_checked=morale.state.first_checked or MoraleTrigger.FIRST_ALLY in met,
        half_checked=morale.state.half_checked or MoraleTrigger.HALF_DOWN in met,
    )
    return replace(morale, state=state)


def morale_notes(tracker: Tracker) -> list[tuple[str, str]]:
    """The tracker's morale field (none until the GM sets a score)."""
    if tracker.morale is None:
        return []
    return [("Morale", morale_field(tracker.morale, standing_leader(tracker.encounter,
                                                                    tracker.morale)))]  # fmt: skip


def rolled_line(rolled: MoraleRolled) -> str:
    return morale_line(rolled.result, rolled.leader)
