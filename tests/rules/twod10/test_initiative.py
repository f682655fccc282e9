"""Side initiative: surprise, the GM's d6, momentum, turns, reactions and interrupts."""

from __future__ import annotations

import json

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.events import (
    InitiativeRolled,
    ReactionWindowOpened,
    RoundEnded,
    RoundStarted,
    SideTurnStarted,
    SurpriseRoundStarted,
)
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    Phase,
    Sacrifice,
    Side,
    add_combatant,
    remove_combatant,
)
from bot.rules.twod10.initiative.reactions import (
    declare_reaction,
    opportunity_attack,
    trigger_declared_reaction,
    use_undeclared_reaction,
)
from bot.rules.twod10.initiative.rounds import advance, initiative_ranges, start_encounter
from bot.rules.twod10.initiative.turns import (
    ExtraAttack,
    declare_spell,
    grant_extra_attack,
    mark_action,
    mark_down,
    move,
    revive,
    sacrifice_attack,
    spend_parry,
    stand_up,
)

P, N = Side.PLAYERS, Side.NPCS


def party(*, unaware_npc: bool = False) -> Encounter:
    enc = Encounter()
    for c in (
        Combatant(id=1, name="Mira", side=P, finesse=2),
        Combatant(id=2, name="Bren", side=P, finesse=0, reach=True),
        Combatant(id=11, name="Goblin A", side=N, finesse=1),
        Combatant(id=12, name="Goblin B", side=N, finesse=1, aware=not unaware_npc),
        Combatant(id=13, name="Goblin C", side=N, finesse=1),
    ):
        enc = add_combatant(enc, c)
    return enc


def started(first_face: int) -> Encounter:
    enc, _ = start_encounter(party(), dice=ScriptedDice([]))
    enc, _events = advance(enc, ScriptedDice([first_face]))
    return enc


@pytest.mark.parametrize(
    ("lost", "npc", "players"),
    [
        (frozenset(), (4, 6), (1, 3)),
        (frozenset({N}), (5, 6), (1, 4)),
        (frozenset({P}), (3, 6), (1, 2)),
        (frozenset({P, N}), (4, 6), (1, 3)),  # ruling momentum: both cancel
    ],
)
def test_initiative_ranges(lost: frozenset[Side], npc: tuple[int, int], players: tuple[int, int]):
    assert initiative_ranges(lost) == (npc, players)


@pytest.mark.parametrize(("face", "winner"), [(1, P), (3, P), (4, N), (6, N)])
def test_gm_d6_decides_the_first_side(face: int, winner: Side) -> None:
    enc, events = start_encounter(party(), dice=ScriptedDice([]))
    assert events == [RoundStarted(round=1)] and enc.phase is Phase.DECLARE
    enc, events = advance(enc, ScriptedDice([face]))
    rolled = events[0]
    assert isinstance(rolled, InitiativeRolled) and rolled.winner is winner
    assert enc.phase is Phase.TURN and enc.acting is winner


def test_full_round_order() -> None:
    enc = started(2)  # players first
    enc, events = advance(enc, ScriptedDice([]))
    assert events == [ReactionWindowOpened(after=P, eligible=(11, 12, 13))]
    enc, events = advance(enc, ScriptedDice([]))
    assert events == [SideTurnStarted(round=1, side=N, combatant_ids=(11, 12, 13), spells_cast=())]
    enc, events = advance(enc, ScriptedDice([]))
    assert events == [ReactionWindowOpened(after=N, eligible=(1, 2))]
    enc, events = advance(enc, ScriptedDice([]))
    assert events == [RoundEnded(round=1, momentum_lost=()), RoundStarted(round=2)]
    # Re-rolled every round.
    enc, events = advance(enc, ScriptedDice([5]))
    assert isinstance(events[0], InitiativeRolled) and events[0].winner is N


def test_momentum_after_losing_over_half() -> None:
    enc = started(5)  # NPCs first
    enc, down = mark_down(enc, 11)
    assert (down.downed_this_round, down.side_size) == (1, 3)
    enc, _ = mark_down(enc, 12)  # 2 of 3: over half
    for _ in range(4):
        enc, events = advance(enc, ScriptedDice([]))
    assert events[0] == RoundEnded(round=1, momentum_lost=(N,))
    # Round 2: the NPCs' range is 5-6, so a 4 now gives the players the first turn.
    enc, events = advance(enc, ScriptedDice([4]))
    rolled = events[0]
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.npc_range == (5, 6) and rolled.lost_momentum == (N,) and rolled.winner is P
    # Momentum lasts for that round's roll only.
    for _ in range(4):
        enc, events = advance(enc, ScriptedDice([]))
    assert events[0] == RoundEnded(round=2, momentum_lost=())
    enc, events = advance(enc, ScriptedDice([4]))
    assert isinstance(events[0], InitiativeRolled) and events[0].winner is N


def test_exactly_half_is_not_momentum() -> None:
    enc = started(1)
    enc, _ = mark_down(enc, 1)  # 1 of 2 players: half, not over half
    for _ in range(4):
        enc, events = advance(enc, ScriptedDice([]))
    assert events[0] == RoundEnded(round=1, momentum_lost=())
    with pytest.raises(RulesError, match="already down"):
        mark_down(enc, 1)
    enc = revive(enc, 1)
    assert not enc.combatant(1).down


def test_players_lose_momentum() -> None:
    enc = started(1)
    enc, _ = mark_down(enc, 1)
    enc, _ = mark_down(enc, 2)
    for _ in range(4):
        enc, _events = advance(enc, ScriptedDice([]))
    enc, events = advance(enc, ScriptedDice([3]))
    assert isinstance(events[0], InitiativeRolled)
    assert events[0].player_range == (1, 2) and events[0].winner is N
    assert events[1] == SideTurnStarted(round=2, side=N, combatant_ids=(11, 12, 13), spells_cast=())


def test_surprise_round() -> None:
    enc, events = start_encounter(party(unaware_npc=True), surprised=N, dice=ScriptedDice([]))
    assert events[0] == SurpriseRoundStarted(attackers=P, unaware=(12,))
    assert enc.phase is Phase.SURPRISE and enc.acting is P and enc.round == 0
    enc, _ = mark_action(enc, 1, Action.ATTACK)
    with pytest.raises(RulesError, match="unaware"):
        opportunity_attack(enc, 12, 1)
    enc, events = advance(enc, ScriptedDice([]))
    # Goblin B was unaware: no reaction at the end of the surprise round.
    assert events == [ReactionWindowOpened(after=P, eligible=(11, 13))]
    with pytest.raises(RulesError, match="unaware"):
        use_undeclared_reaction(enc, 12)
    enc = use_undeclared_reaction(enc, 11)
    enc, events = advance(enc, ScriptedDice([]))
    assert events[-1] == RoundStarted(round=1)
    assert enc.combatant(12).aware and enc.phase is Phase.DECLARE


def test_turn_actions_once_each() -> None:
    enc = started(1)
    enc, _ = mark_action(enc, 1, Action.ATTACK)
    with pytest.raises(RulesError, match="already used their attack"):
        mark_action(enc, 1, Action.ATTACK)
    with pytest.raises(RulesError, match="isn't Goblin A's side's turn"):
        mark_action(enc, 11, Action.ATTACK)
    enc, _ = mark_action(enc, 1, Action.INTERACT)
    enc, _ = mark_action(enc, 1, Action.BONUS)
    enc, left = move(enc, 1, 10)
    assert left == 20
    enc, left = stand_up(enc, 1)
    assert left == 5
    with pytest.raises(RulesError, match="5 feet of movement left"):
        move(enc, 1, 10)
    enc, left = move(enc, 1, 5)
    assert left == 0 and Action.MOVEMENT in enc.state(1).actions
    with pytest.raises(RulesError, match="already used their attack"):
        sacrifice_attack(enc, 1, Sacrifice.DASH)


def test_extra_attacks_from_cleave_or_25() -> None:
    enc = started(1)
    enc, _ = mark_action(enc, 1, Action.ATTACK)
    enc = grant_extra_attack(enc, 1, reason=ExtraAttack.ENDLESS_CLEAVE)
    enc = grant_extra_attack(enc, 1, reason=ExtraAttack.EXTRA_ACTION)
    enc, _ = mark_action(enc, 1, Action.ATTACK)
    enc, _ = mark_action(enc, 1, Action.ATTACK)
    with pytest.raises(RulesError, match="already used their attack"):
        mark_action(enc, 1, Action.ATTACK)
    with pytest.raises(RulesError, match="isn't Goblin A's side's turn"):
        grant_extra_attack(enc, 11, reason=ExtraAttack.ENDLESS_CLEAVE)


def test_dash_doubles_movement_and_down_cannot_act() -> None:
    enc = started(1)
    enc, _ = sacrifice_attack(enc, 2, Sacrifice.DASH)
    enc, left = move(enc, 2, 45)
    assert left == 15
    enc, _ = mark_down(enc, 1)
    with pytest.raises(RulesError, match="down"):
        move(enc, 1, 5)


def test_disengage_gives_advantage_on_initiative() -> None:
    enc = started(1)
    enc, _ = sacrifice_attack(enc, 1, Sacrifice.DISENGAGE)
    assert enc.disengaged == frozenset({P})
    for _ in range(4):
        enc, _events = advance(enc, ScriptedDice([]))
    # The players keep the lower of two d6: 5 and 2 → 2, players first.
    enc, events = advance(enc, ScriptedDice([5, 2]))
    rolled = events[0]
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.faces == (5, 2) and rolled.kept == 2 and rolled.winner is P
    assert rolled.advantage is P
    # Only for the roll after the round they disengaged in.
    for _ in range(4):
        enc, _events = advance(enc, ScriptedDice([]))
    enc, events = advance(enc, ScriptedDice([5]))
    assert isinstance(events[0], InitiativeRolled) and events[0].faces == (5,)


def test_parry_waits_for_the_next_attack() -> None:
    enc = started(1)
    enc, _ = sacrifice_attack(enc, 1, Sacrifice.PARRY, parry=4)
    enc, value = spend_parry(enc, 1)
    assert value == 4
    enc, value = spend_parry(enc, 1)
    assert value == 0
    with pytest.raises(RulesError, match="parry"):
        sacrifice_attack(enc, 2, Sacrifice.PARRY)


def test_declared_spell_replaces_attack() -> None:
    enc, _ = start_encounter(party(), dice=ScriptedDice([]))
    enc = declare_spell(enc, 2)
    enc, events = advance(enc, ScriptedDice([3]))
    assert events[1] == SideTurnStarted(round=1, side=P, combatant_ids=(1, 2), spells_cast=(2,))
    assert enc.state(2).sacrificed is Sacrifice.SPELL
    with pytest.raises(RulesError, match="already used their attack"):
        mark_action(enc, 2, Action.ATTACK)
    with pytest.raises(RulesError, match="start of the round"):
        declare_spell(enc, 1)


def test_declared_reaction_interrupt_roll() -> None:
    enc, _ = start_encounter(party(), dice=ScriptedDice([]))
    enc = declare_reaction(enc, 1, "  the goblin  attacks Bren ")
    assert enc.state(1).declared_reaction == "the goblin attacks Bren"
    enc, _ = advance(enc, ScriptedDice([6]))  # NPCs first
    # Mira 1d8 (4) + finesse 2 = 6 against Goblin A 1d8 (5) + 1 = 6: a tie acts after.
    enc, roll = trigger_declared_reaction(enc, 1, 11, dice=ScriptedDice([4, 5]))
    assert (roll.reactor_total, roll.opponent_total, roll.reacts_first) == (6, 6, False)
    with pytest.raises(RulesError, match="already used their reaction"):
        trigger_declared_reaction(enc, 1, 11, dice=ScriptedDice([8, 1]))
    # Declared reactions commit: no undeclared one later (ruling undeclared-after-declared).
    enc, _ = advance(enc, ScriptedDice([]))
    with pytest.raises(RulesError):
        use_undeclared_reaction(enc, 1)


def test_reach_weapon_interrupt_advantage() -> None:
    enc, _ = start_encounter(party(), dice=ScriptedDice([]))
    enc = declare_reaction(enc, 2, "a goblin closes in")
    enc = declare_reaction(enc, 1, "a goblin closes in")
    enc, _ = advance(enc, ScriptedDice([4]))
    enc, roll = trigger_declared_reaction(
        enc, 2, 12, reach_entry=True, dice=ScriptedDice([2, 7, 5])
    )
    assert roll.reactor_faces == (2, 7) and roll.reactor_total == 7
    assert roll.opponent_total == 6 and roll.reacts_first
    with pytest.raises(RulesError, match="no reach weapon"):
        trigger_declared_reaction(enc, 1, 12, reach_entry=True, dice=ScriptedDice([1, 1, 1]))


def test_declared_reaction_rules() -> None:
    enc, _ = start_encounter(party(), dice=ScriptedDice([]))
    with pytest.raises(RulesError, match="Say which action"):
        declare_reaction(enc, 1, "   ")
    enc, _ = advance(enc, ScriptedDice([1]))  # players' turn
    with pytest.raises(RulesError, match="start of the round"):
        declare_reaction(enc, 11, "anything")
    with pytest.raises(RulesError, match="declared no reaction"):
        trigger_declared_reaction(enc, 11, 1, dice=ScriptedDice([1, 1]))
    with pytest.raises(RulesError, match="opponent's action on their side's turn"):
        trigger_declared_reaction(enc, 1, 11, dice=ScriptedDice([1, 1]))


def test_undeclared_reactions_only_at_end_of_other_sides_turn() -> None:
    enc = started(1)  # players act
    with pytest.raises(RulesError, match="end of the other side's turn"):
        use_undeclared_reaction(enc, 11)
    enc, _ = advance(enc, ScriptedDice([]))
    with pytest.raises(RulesError, match="end of the other side's turn"):
        use_undeclared_reaction(enc, 1)  # players just acted
    enc = use_undeclared_reaction(enc, 11)
    with pytest.raises(RulesError, match="already used their reaction"):
        use_undeclared_reaction(enc, 11)


def test_opportunity_attack_and_disengage() -> None:
    enc = started(1)
    enc, _ = sacrifice_attack(enc, 1, Sacrifice.DISENGAGE)
    with pytest.raises(RulesError, match="disengaged"):
        opportunity_attack(enc, 11, 1)
    enc = opportunity_attack(enc, 11, 2)
    with pytest.raises(RulesError, match="already used their reaction"):
        opportunity_attack(enc, 11, 2)
    # A new round refreshes every reaction.
    for _ in range(4):
        enc, _events = advance(enc, ScriptedDice([]))
    assert not enc.state(11).reaction_used


def test_encounter_setup_checks() -> None:
    with pytest.raises(RulesError, match="Both sides"):
        start_encounter(Encounter(), dice=ScriptedDice([]))
    enc = party()
    with pytest.raises(RulesError, match="already in"):
        add_combatant(enc, Combatant(id=1, name="Mira", side=P))
    assert len(remove_combatant(enc, 13).combatants) == 4
    with pytest.raises(RulesError, match="Start the encounter"):
        advance(enc, ScriptedDice([]))
    with pytest.raises(RulesError):
        Combatant(id=5, name=" ", side=P)


def test_encounter_round_trips_through_stored_data() -> None:
    enc, _ = start_encounter(party(unaware_npc=True), surprised=N, dice=ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([]))
    enc, _ = advance(enc, ScriptedDice([]))  # round 1 declarations
    enc = declare_reaction(enc, 1, "the goblin attacks")
    enc = declare_spell(enc, 2)
    enc, _ = advance(enc, ScriptedDice([2]))
    enc, _ = sacrifice_attack(enc, 1, Sacrifice.DISENGAGE)
    enc, _ = move(enc, 1, 15)
    enc, _ = mark_down(enc, 2)
    data = encounter_to_dict(enc)
    assert json.loads(json.dumps(data)) == data
    assert encounter_from_dict(data) == enc


def test_damaged_stored_encounter_refused() -> None:
    data = encounter_to_dict(party())
    with pytest.raises(RulesError, match="damaged"):
        encounter_from_dict({**data, "phase": "lunch"})
    with pytest.raises(RulesError, match="damaged"):
        encounter_from_dict({k: v for k, v in data.items() if k != "states"})
    with pytest.raises(RulesError, match="newer bot"):
        encounter_from_dict({**data, "version": 99})
