"""Moving through an encounter: the surprise round, declarations, the GM's d6, side turns.

A round: declarations (spells, declared reactions) → the GM's d6 → the winning
side's turn → the other side's undeclared reactions → the second side's turn →
the first side's undeclared reactions → the next round, whose d6 is rolled anew.

Rulings:

* ``momentum``: "over half of a side goes unconscious or dead in one round" is
  counted against the side's members standing when the round began; the
  narrowed range applies to the next round's roll (the roll "at the end of the
  round"). If both sides lose momentum in the same round the narrowings cancel
  and the ranges stay 1–3 and 4–6.
* ``disengage-initiative``: disengaging gives "advantage on initiative"; the
  side's roll is the GM's d6, so the GM rolls two and keeps the face better for
  that side (the higher for NPCs, the lower for players). If both sides
  disengaged, the advantages cancel.
* ``surprise``: in the surprise round only the attacking side takes a turn; at
  its end the surprised side's undeclared reactions are open only to those who
  were aware of their enemies; everyone is aware from round 1.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.events import (
    Event,
    InitiativeRolled,
    ReactionWindowOpened,
    RoundEnded,
    RoundStarted,
    SideTurnStarted,
    SurpriseRoundStarted,
)
from bot.rules.twod10.initiative.model import (
    Action,
    Encounter,
    Phase,
    Sacrifice,
    Side,
    TurnState,
    with_state,
)
from bot.rules.twod10.initiative.spells import pending_spells_due

NPC_RANGE_LOW = 4  # 4–6: the NPCs win; 1–3: the players


def initiative_ranges(lost: frozenset[Side]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(NPC range, player range) after momentum narrows the side(s) that lost it."""
    low = NPC_RANGE_LOW + (Side.NPCS in lost) - (Side.PLAYERS in lost)
    return (low, 6), (1, low - 1)


def _check_sides(enc: Encounter) -> None:
    if not enc.side(Side.PLAYERS) or not enc.side(Side.NPCS):
        raise RulesError("Both sides need at least one combatant before the fight starts.")


def start_encounter(
    enc: Encounter, *, surprised: Side | None = None, dice: Dice
) -> tuple[Encounter, list[Event]]:
    """Begin: a surprise round for the attackers if a side is surprised, else round 1."""
    if enc.phase is not Phase.NOT_STARTED:
        raise RulesError("This encounter has already started.")
    _check_sides(enc)
    if surprised is None:
        return _begin_round(replace(enc, round=0), dice)
    attackers = surprised.other
    unaware = tuple(c.id for c in enc.side(surprised) if not c.aware)
    enc = replace(
        enc, round=0, phase=Phase.SURPRISE, surprised=surprised, acting=attackers,
        first=attackers, sides_done=0, states=(),
        standing_at_start=_standing(enc), downed_this_round=(),
    )  # fmt: skip
    return enc, [
        SurpriseRoundStarted(attackers=attackers, unaware=unaware),
        _turn_started(enc, attackers),
    ]


def _standing(enc: Encounter) -> tuple[tuple[Side, int], ...]:
    return tuple((side, enc.standing(side)) for side in Side)


def _turn_started(enc: Encounter, side: Side) -> SideTurnStarted:
    return SideTurnStarted(
        round=enc.round,
        side=side,
        combatant_ids=tuple(c.id for c in enc.side(side) if not c.down),
        spells_cast=tuple(c.id for c in enc.side(side) if _goes_off(enc, c.id, c.down)),
    )


def _goes_off(enc: Encounter, combatant_id: int, down: bool) -> bool:
    """A declared spell goes off as the turn starts, unless damage interrupted it
    (ruling ``spell-interrupted``)."""
    state = enc.state(combatant_id)
    return state.declared_spell and not state.spell_interrupted and not down


def _begin_round(enc: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
    """A new round: reactions refresh, declarations open (the d6 comes on the next step)."""
    del dice  # the d6 waits until the declarations are in
    combatants = tuple(replace(c, aware=True) for c in enc.combatants)
    enc = replace(
        enc, combatants=combatants, round=enc.round + 1, phase=Phase.DECLARE, first=None,
        acting=None, sides_done=0, states=(), standing_at_start=(), downed_this_round=(),
        disengaged=frozenset(),
    )  # fmt: skip
    enc = replace(enc, standing_at_start=_standing(enc))
    return enc, [RoundStarted(round=enc.round)]


def roll_initiative(enc: Encounter, dice: Dice) -> tuple[Encounter, InitiativeRolled]:
    """The GM's d6 with momentum and disengaging applied."""
    npc_range, player_range = initiative_ranges(enc.lost_momentum)
    advantage = None
    if len(enc.advantaged) == 1:
        advantage = next(iter(enc.advantaged))
    faces: tuple[int, ...] = (dice.roll(6),)
    kept = faces[0]
    if advantage is not None:
        faces += (dice.roll(6),)
        kept = max(faces) if advantage is Side.NPCS else min(faces)
    winner = Side.NPCS if npc_range[0] <= kept <= npc_range[1] else Side.PLAYERS
    event = InitiativeRolled(
        round=enc.round, faces=faces, kept=kept, npc_range=npc_range,
        player_range=player_range, lost_momentum=tuple(s for s in Side if s in enc.lost_momentum),
        advantage=advantage, winner=winner,
    )  # fmt: skip
    return replace(enc, first=winner), event


def _start_side_turn(enc: Encounter, side: Side) -> tuple[Encounter, Event]:
    enc = replace(enc, phase=Phase.TURN, acting=side)
    # "Spells declared at the start of a round are cast at the start of the
    # combatant's turn and replace their attack action."
    for c in enc.side(side):
        state = enc.state(c.id)
        if _goes_off(enc, c.id, c.down):
            enc = with_state(
                enc,
                c.id,
                replace(
                    state,
                    actions=state.actions | {Action.ATTACK},
                    sacrificed=Sacrifice.SPELL,
                ),
            )
    return enc, _turn_started(enc, side)


def _end_round(enc: Encounter) -> RoundEnded:
    standing = dict(enc.standing_at_start)
    lost = tuple(
        side for side in Side if standing.get(side, 0) and enc.downed(side) * 2 > standing[side]
    )
    return RoundEnded(round=enc.round, momentum_lost=lost)


def advance(enc: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
    """The GM's "next": one step through the round, as the module docstring lists."""
    if enc.phase is Phase.NOT_STARTED:
        raise RulesError("Start the encounter first.")
    if enc.phase is Phase.DECLARE:
        enc, rolled = roll_initiative(enc, dice)
        enc, started = _start_side_turn(enc, rolled.winner)
        return enc, [rolled, started]
    if enc.phase in (Phase.TURN, Phase.SURPRISE):
        assert enc.acting is not None
        surprise = enc.phase is Phase.SURPRISE
        enc = replace(enc, phase=Phase.END_OF_TURN, sides_done=enc.sides_done + 1)
        # "Said spell is cast at the end of their next turn" (ruling spell-interrupted).
        enc, due = pending_spells_due(enc)
        eligible = tuple(
            c.id
            for c in enc.side(enc.acting.other)
            if not c.down
            and (c.aware or not surprise)
            and not enc.state(c.id).reaction_used
            and enc.state(c.id).declared_reaction is None
        )
        window = ReactionWindowOpened(after=enc.acting, eligible=eligible)
        return enc, [due, window] if due is not None else [window]
    # END_OF_TURN
    assert enc.acting is not None
    if enc.round >= 1 and enc.sides_done == 1:
        enc, started = _start_side_turn(enc, enc.acting.other)
        return enc, [started]
    ended = _end_round(enc)
    enc = replace(enc, lost_momentum=frozenset(ended.momentum_lost), advantaged=enc.disengaged)
    enc, more = _begin_round(enc, dice)
    return enc, [ended, *more]


def reset_turn_state(enc: Encounter, combatant_id: int) -> Encounter:
    """A GM correction: clear what a combatant has marked this round."""
    enc.combatant(combatant_id)
    return with_state(enc, combatant_id, TurnState())
