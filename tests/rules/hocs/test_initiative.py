"""The initiative tracker's rules, with scripted dice."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.hocs.conditions import Condition, Conditions
from bot.rules.hocs.initiative import (
    ActionKind,
    ActionMarked,
    BleedingTick,
    ConditionNote,
    Died,
    EffectExpired,
    Encounter,
    InitiativeStats,
    NewParticipant,
    ResultSet,
    RoundStarted,
    Side,
    ThresholdTestDue,
    TurnReturned,
    TurnSkipped,
    TurnStarted,
    add_effect,
    add_participants,
    clear_effect,
    find,
    find_one,
    move_to,
    next_turn,
    prev_turn,
    refresh_participant,
    remove_participants,
    set_result,
    spend,
    start_round,
    status_word,
)

NO_DICE = ScriptedDice([])
ONE = (4, 1)  # two dice, one success
TWO = (5, 6)
NONE = (1, 2)


def npc(name: str, side: Side = Side.ANTAGONIST, agility: int = 2, **kw: object) -> NewParticipant:
    return NewParticipant(
        name=name,
        side=side,
        stats=InitiativeStats(agility=agility, presence=1),
        **kw,  # type: ignore[arg-type]
    )


def names(enc: Encounter) -> list[str]:
    return [" + ".join(m.name for m in enc.slot_members(slot)) for slot in enc.order]


def current(enc: Encounter) -> str:
    return " + ".join(p.name for p in enc.current_participants)


def table(*faces: tuple[int, ...]) -> ScriptedDice:
    return ScriptedDice([f for group in faces for f in group])


def build(*people: NewParticipant, **options: object) -> Encounter:
    enc, _ = add_participants(Encounter(**options), people, NO_DICE)  # type: ignore[arg-type]
    return enc


def skirmish() -> Encounter:
    """Joined in the reverse of the tie order, to show that sides beat joining."""
    return build(
        npc("Goblin"),
        npc("Sergeant", Side.ALLY),
        npc("Bram", Side.PC, owner_id=2),
        npc("Aria", Side.PC, owner_id=1),
    )


# --- order ------------------------------------------------------------------------------


def test_ties_go_to_player_characters_then_allies_then_antagonists_then_join_order() -> None:
    enc, events = next_turn(skirmish(), table(ONE, ONE, ONE, ONE))
    assert names(enc) == ["Bram", "Aria", "Sergeant", "Goblin"]
    assert current(enc) == "Bram" and enc.round == 1 and enc.turn == 1
    rolled = events[0]
    assert isinstance(rolled, RoundStarted) and rolled.round == 1
    assert [r.successes for r in rolled.rolls] == [1, 1, 1, 1]
    assert isinstance(events[1], TurnStarted) and events[1].successes == 1


def test_most_successes_first() -> None:
    enc, _ = next_turn(skirmish(), table(TWO, NONE, ONE, ONE))
    assert names(enc) == ["Goblin", "Bram", "Aria", "Sergeant"]
    assert [enc.participant(s[0]).roll.successes for s in enc.order] == [2, 1, 1, 0]


def test_every_round_rerolls_and_resets_actions() -> None:
    dice = table(ONE, ONE, ONE, ONE)
    enc, _ = next_turn(skirmish(), dice)
    enc, _ = spend(enc, enc.current_slot[0], ActionKind.ACTION)
    for _ in range(3):
        enc, _ = next_turn(enc, NO_DICE)
    assert current(enc) == "Goblin" and enc.round == 1
    enc, events = next_turn(enc, table(TWO, NONE, NONE, ONE))  # Goblin, Sergeant, Bram, Aria
    assert enc.round == 2 and names(enc) == ["Goblin", "Aria", "Bram", "Sergeant"]
    assert isinstance(events[0], RoundStarted) and events[0].round == 2
    assert all(p.spent.actions == 0 for p in enc.participants)
    assert enc.turn == 5


def test_social_encounters_roll_presence() -> None:
    enc = build(
        NewParticipant(
            name="Envoy",
            side=Side.ALLY,
            stats=InitiativeStats(agility=1, presence=4, training=1, expertise=True),
        ),
        social=True,
    )
    dice = ScriptedDice([4] * 6)
    next_turn(enc, dice)
    assert dice.requests == [6] * 6  # presence 4 + training 1 + expertise


def test_staggered_and_fatigued_banes_shrink_the_pool() -> None:
    enc = build(npc("Orc", agility=3, conditions=Conditions.of(Condition.STAGGERED, fatigued=2)))
    dice = ScriptedDice([6, 6])  # 3 dice − ⌈4 banes / 2⌉ = 1 die
    enc, events = next_turn(enc, dice)
    assert dice.remaining == 1
    assert events[0].rolls[0].banes == 4 and enc.participants[0].roll.successes == 1


def test_injury_banes_shrink_the_pool_of_the_attribute_they_hit() -> None:
    stats = InitiativeStats(agility=5, presence=4, injury_banes=5)  # a broken torso
    orc = NewParticipant(name="Orc", side=Side.ANTAGONIST, stats=stats)
    dice = ScriptedDice([6, 6])  # 5 dice − ⌈5 banes / 2⌉ = 2 dice
    enc, events = next_turn(build(orc), dice)
    assert dice.remaining == 0 and dice.requests == [6, 6]
    assert events[0].rolls[0].banes == 5 and enc.participants[0].roll.successes == 2
    staggered = replace(orc, conditions=Conditions.of(Condition.STAGGERED))
    dice = ScriptedDice([6])  # 5 − ⌈7 / 2⌉ = 1 die
    _, events = next_turn(build(staggered), dice)
    assert events[0].rolls[0].banes == 7 and dice.requests == [6]
    dice = ScriptedDice([4] * 4)  # social: presence, which the torso doesn't hinder
    _, events = next_turn(build(orc, social=True), dice)
    assert events[0].rolls[0].banes == 0 and dice.requests == [6] * 4


def test_injury_banes_survive_the_stored_form() -> None:
    stats = InitiativeStats(agility=2, presence=1, injury_banes=5, social_injury_banes=5)
    assert InitiativeStats.from_dict(stats.to_dict()) == stats
    plain = InitiativeStats(agility=2, presence=1)
    assert "injury_banes" not in plain.to_dict()
    with pytest.raises(RulesError):
        InitiativeStats(agility=2, presence=1, injury_banes=-1)


def test_a_group_rolls_once_and_acts_on_one_turn() -> None:
    goblins = [npc(f"Goblin {n}", group="Goblins", group_roll=True) for n in (1, 2, 3)]
    enc = build(*goblins, npc("Aria", Side.PC))
    dice = table(ONE, TWO)
    enc, _ = next_turn(enc, dice)
    assert dice.remaining == 0  # two rolls: the group and Aria
    assert names(enc) == ["Aria", "Goblin 1 + Goblin 2 + Goblin 3"]
    enc, events = next_turn(enc, NO_DICE)
    assert current(enc) == "Goblin 1 + Goblin 2 + Goblin 3"
    assert events[0].participant_ids == (1, 2, 3)
    assert {p.roll.successes for p in enc.participants if p.group} == {1}
    assert [p.name for p in find(enc, "goblins")] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    with pytest.raises(RulesError, match="is a group"):
        find_one(enc, "Goblins")


def test_a_group_rolls_with_its_first_living_member() -> None:
    goblins = [
        npc("Goblin 1", group="Goblins", group_roll=True, conditions=Conditions.of(Condition.DEAD)),
        npc("Goblin 2", group="Goblins", group_roll=True, agility=3),
    ]
    dice = ScriptedDice([4, 4, 4])
    next_turn(build(*goblins), dice)
    assert dice.remaining == 0


# --- turns ------------------------------------------------------------------------------


def test_bleeding_ticks_at_the_start_of_the_turn() -> None:
    enc = build(
        npc("Goblin", hp=7, max_hp=7, conditions=Conditions.of(bleeding=2)), npc("Aria", Side.PC)
    )
    enc, events = next_turn(enc, table(ONE, TWO))
    assert current(enc) == "Aria"
    assert not any(isinstance(e, BleedingTick) for e in events)
    enc, events = next_turn(enc, NO_DICE)
    [tick] = [e for e in events if isinstance(e, BleedingTick)]
    assert (tick.amount, tick.hp_after) == (2, 5)
    assert enc.participant(1).hp == 5


def test_bleeding_takes_temporary_hit_points_first_and_can_kill() -> None:
    pc = npc(
        "Aria", Side.PC, hp=1, max_hp=12, temp_hp=1, threshold=-6, character_id=9,
        conditions=Conditions.of(bleeding=4),
    )  # fmt: skip
    enc, events = next_turn(build(pc), table(ONE))
    tick = next(e for e in events if isinstance(e, BleedingTick))
    assert (tick.temp_absorbed, tick.hp_after, tick.character_id) == (1, -2, 9)
    assert ThresholdTestDue(1, "Aria", 3) in events
    enc, events = next_turn(enc, table(ONE))  # round 2: −2 − 4 = −6, still inside
    assert enc.participant(1).hp == -6 and not enc.participant(1).is_dead
    enc, events = next_turn(enc, table(ONE))  # −10: beyond the threshold
    assert any(isinstance(e, Died) for e in events)
    assert Condition.DEAD in enc.participant(1).conditions


def test_quick_npcs_are_down_at_zero() -> None:
    enc = build(
        npc("Rat", hp=1, max_hp=3, conditions=Conditions.of(bleeding=1)), npc("Aria", Side.PC)
    )
    enc, events = next_turn(enc, table(TWO, ONE))
    assert any(isinstance(e, Died) for e in events)
    assert status_word(enc.participant(1)) == "dead"


def test_a_two_round_condition_expires_at_the_start_of_the_turn_two_rounds_later() -> None:
    enc = build(npc("Aria", Side.PC), npc("Goblin"))
    enc, _ = next_turn(enc, table(ONE, ONE))  # round 1: Aria, Goblin
    enc, _ = add_effect(enc, [2], Condition.STAGGERED, rounds=2)
    assert enc.participant(2).effects[0].expires_round == 3
    enc, events = next_turn(enc, NO_DICE)  # Goblin's round-1 turn: staggered noted
    assert ConditionNote(2, "Goblin", Condition.STAGGERED) in events
    # Round 2: the goblin's pool is 2 dice − 1 for staggered's 2 banes.
    enc, events = next_turn(enc, table(ONE, (4,)))
    enc, events = next_turn(enc, NO_DICE)
    assert current(enc) == "Goblin" and enc.round == 2
    assert Condition.STAGGERED in enc.participant(2).conditions
    assert not any(isinstance(e, EffectExpired) for e in events)
    # Round 3 is rolled while the goblin is still staggered: it ends on the goblin's turn.
    dice = table(ONE, (4,))
    enc, events = next_turn(enc, dice)
    assert dice.remaining == 0
    assert Condition.STAGGERED in enc.participant(2).conditions
    enc, events = next_turn(enc, NO_DICE)
    assert current(enc) == "Goblin" and enc.round == 3
    assert EffectExpired(2, "Goblin", None, Condition.STAGGERED, 1) in events
    assert Condition.STAGGERED not in enc.participant(2).conditions
    assert not any(isinstance(e, ConditionNote) for e in events)


def test_an_expiry_whose_turn_never_came_ends_when_the_next_round_starts() -> None:
    enc = build(npc("Aria", Side.PC), npc("Goblin"), npc("Bram", Side.PC))
    enc, _ = next_turn(enc, table(ONE, ONE, ONE))
    enc, _ = add_effect(enc, [2], Condition.SLOW, rounds=1)  # ends on its round-2 turn
    enc, _ = move_to(enc, 2, NO_DICE)
    enc, _ = next_turn(enc, table(TWO, ONE, NONE))  # round 2: Aria, Goblin, Bram
    assert names(enc) == ["Aria", "Goblin", "Bram"]
    enc, _ = move_to(enc, 3, NO_DICE)  # the GM jumps over the goblin's turn
    assert Condition.SLOW in enc.participant(2).conditions
    enc, events = next_turn(enc, table(ONE, ONE, ONE))
    assert enc.round == 3
    assert EffectExpired(2, "Goblin", None, Condition.SLOW, 1) in events
    assert Condition.SLOW not in enc.participant(2).conditions


def test_fatigue_from_a_timed_effect_loses_only_its_own_instances() -> None:
    enc = build(npc("Aria", Side.PC, conditions=Conditions.of(fatigued=1)))
    enc, _ = next_turn(enc, table((4,)))  # 2 dice, 1 bane: 1 die
    enc, _ = add_effect(enc, [1], Condition.FATIGUED, value=2, rounds=1)
    assert enc.participant(1).conditions.value(Condition.FATIGUED) == 3
    enc, _ = next_turn(enc, table(()))  # 3 banes: 2 − 2 = 0 dice
    assert enc.participant(1).conditions.value(Condition.FATIGUED) == 1


def test_clearing_an_effect() -> None:
    enc = build(npc("Aria", Side.PC))
    enc, _ = add_effect(enc, [1], Condition.BLEEDING, value=3, rounds=5)
    enc, _ = clear_effect(enc, [1], Condition.BLEEDING)
    assert not enc.participant(1).conditions and not enc.participant(1).effects
    with pytest.raises(RulesError):
        clear_effect(enc, [1], Condition.BLEEDING)


def test_skipping_down_participants() -> None:
    enc = build(
        npc("Aria", Side.PC),
        npc("Bram", Side.PC, conditions=Conditions.of(Condition.UNCONSCIOUS)),
        npc("Goblin"),
        skip_down=True,
    )
    enc, _ = next_turn(enc, table(ONE, ONE, ONE))
    enc, events = next_turn(enc, NO_DICE)
    assert current(enc) == "Goblin" and enc.turn == 2
    assert TurnSkipped((2,), ("Bram",)) in events
    without_skip = replace(enc, skip_down=False, current=0)
    enc2, events = next_turn(without_skip, NO_DICE)
    assert current(enc2) == "Bram"
    assert ConditionNote(2, "Bram", Condition.UNCONSCIOUS) in events


def test_nobody_is_skipped_when_everyone_is_down() -> None:
    down = Conditions.of(Condition.UNCONSCIOUS)
    enc = build(npc("A", conditions=down), npc("B", conditions=down), skip_down=True)
    enc, _ = next_turn(enc, table(ONE, ONE))
    assert current(enc) == "A"
    enc, _ = next_turn(enc, NO_DICE)
    assert current(enc) == "B"


def test_prev_goes_back_without_repeating_the_turn_start() -> None:
    enc = build(
        npc("Aria", Side.PC), npc("Goblin", hp=9, max_hp=9, conditions=Conditions.of(bleeding=1))
    )
    enc, _ = next_turn(enc, table(ONE, ONE))
    with pytest.raises(RulesError, match="first turn of the round"):
        prev_turn(enc)
    enc, _ = next_turn(enc, NO_DICE)
    assert enc.participant(2).hp == 8
    enc, _ = next_turn(enc, table(ONE, ONE))  # round 2, Aria
    enc, _ = next_turn(enc, NO_DICE)  # Goblin bleeds: 7
    enc, events = prev_turn(enc)
    assert current(enc) == "Aria" and events == [TurnReturned((1,))]
    enc, events = next_turn(enc, NO_DICE)  # the goblin's turn starts again: it bleeds again
    assert enc.participant(2).hp == 6 and enc.turn == 6
    with pytest.raises(RulesError, match="No turn has started"):
        prev_turn(build(npc("X")))


def test_move_starts_the_named_turn() -> None:
    enc, _ = next_turn(skirmish(), table(ONE, ONE, ONE, ONE))
    enc, events = move_to(enc, 1, NO_DICE)  # the goblin, last in order
    assert current(enc) == "Goblin" and isinstance(events[0], TurnStarted)
    assert enc.turn == 2
    with pytest.raises(RulesError, match="already Goblin's turn"):
        move_to(enc, 1, NO_DICE)
    enc, _ = next_turn(enc, table(ONE, ONE, ONE, ONE))
    assert enc.round == 2


def test_move_before_the_first_round_rolls_it() -> None:
    enc, events = move_to(skirmish(), 2, table(ONE, ONE, ONE, ONE))
    assert enc.round == 1 and current(enc) == "Sergeant"
    assert isinstance(events[0], RoundStarted)


def test_removing_the_current_participant_passes_the_turn() -> None:
    enc, _ = next_turn(skirmish(), table(ONE, ONE, ONE, ONE))  # Bram, Aria, Sergeant, Goblin
    enc, _ = next_turn(enc, NO_DICE)  # Aria
    enc, events = remove_participants(enc, [enc.current_slot[0]], NO_DICE)
    assert current(enc) == "Sergeant" and any(isinstance(e, TurnStarted) for e in events)
    assert enc.turn == 3
    enc, _ = remove_participants(enc, [3], NO_DICE)  # Bram, already acted
    assert current(enc) == "Sergeant" and enc.current == 0
    enc, _ = next_turn(enc, NO_DICE)
    enc, _ = remove_participants(enc, [1], table(ONE))  # the last slot: a new round starts
    assert enc.round == 2 and current(enc) == "Sergeant"
    enc, _ = remove_participants(enc, [2], NO_DICE)
    assert enc.participants == () and enc.current is None
    with pytest.raises(RulesError, match="Nobody is in this encounter"):
        next_turn(enc, NO_DICE)


def test_removing_one_member_keeps_the_group_turn() -> None:
    enc = build(npc("Goblin 1", group="G", group_roll=True), npc("Goblin 2", group="G"))
    enc, _ = next_turn(enc, table(ONE))
    enc, _ = remove_participants(enc, [1], NO_DICE)
    assert current(enc) == "Goblin 2" and enc.turn == 1


# --- joining, results -----------------------------------------------------------------


def test_joining_mid_round_takes_its_place() -> None:
    enc, _ = next_turn(skirmish(), table(TWO, ONE, ONE, NONE))  # Goblin, Bram, Sergeant, Aria
    enc, _ = next_turn(enc, NO_DICE)  # Bram
    enc, events = add_participants(enc, [npc("Wolf")], table(TWO))
    assert names(enc)[:2] == ["Goblin", "Wolf"] and current(enc) == "Bram"
    assert not events[0].acts_this_round
    enc, events = add_participants(enc, [npc("Cleric", Side.ALLY)], table(ONE))
    assert names(enc) == ["Goblin", "Wolf", "Bram", "Sergeant", "Cleric", "Aria"]
    assert events[0].acts_this_round and events[0].successes == 1
    with pytest.raises(RulesError, match="already in this encounter"):
        add_participants(enc, [npc("WOLF")], NO_DICE)


def test_joining_an_existing_group_shares_its_slot() -> None:
    enc = build(npc("Goblin 1", group="Goblins", group_roll=True))
    enc, _ = next_turn(enc, table(ONE))
    # A member added later follows the group's way of rolling.
    enc, events = add_participants(enc, [npc("Goblin 2", group="goblins")], NO_DICE)
    assert names(enc) == ["Goblin 1 + Goblin 2"] and events[0].successes == 1
    with pytest.raises(RulesError, match="antagonists"):
        add_participants(enc, [npc("Goblin 3", Side.ALLY, group="Goblins")], NO_DICE)


def test_participant_limit() -> None:
    enc = build(*(npc(f"Rat {n}") for n in range(40)))
    with pytest.raises(RulesError, match="at most 40"):
        add_participants(enc, [npc("Rat 41")], NO_DICE)


def test_set_result_before_the_round_replaces_the_roll() -> None:
    enc, events = set_result(skirmish(), [1], 5)
    assert events == [ResultSet((1,), 5, False)]
    enc, _ = next_turn(enc, table(ONE, ONE, ONE))  # the goblin doesn't roll
    assert names(enc)[0] == "Goblin" and enc.participant(1).roll.manual


def test_set_result_mid_round_resorts_those_still_to_act() -> None:
    enc, _ = next_turn(skirmish(), table(ONE, ONE, ONE, ONE))  # Bram, Aria, Sergeant, Goblin
    enc, events = set_result(enc, [1], 3)
    assert events[0].applies_now and names(enc) == ["Bram", "Goblin", "Aria", "Sergeant"]
    enc, events = set_result(enc, [3], 0)  # Bram is acting: next round's result
    assert not events[0].applies_now and enc.participant(3).preset == 0
    with pytest.raises(RulesError):
        set_result(enc, [3], 51)


# --- actions ----------------------------------------------------------------------------


def test_two_actions_one_quick_one_reaction() -> None:
    enc, _ = next_turn(build(npc("Aria", Side.PC), npc("Goblin")), table(TWO, ONE))
    enc, _ = spend(enc, 1, ActionKind.ACTION)
    enc, events = spend(enc, 1, ActionKind.QUICK)
    enc, events = spend(enc, 1, ActionKind.QUICK)  # paid with the second action
    assert isinstance(events[0], ActionMarked) and events[0].paid_with_action
    assert enc.participant(1).spent.actions == 2
    with pytest.raises(RulesError, match="no actions left"):
        spend(enc, 1, ActionKind.ACTION)
    with pytest.raises(RulesError, match="isn't Goblin's turn"):
        spend(enc, 2, ActionKind.ACTION)
    enc, _ = spend(enc, 2, ActionKind.REACTION)  # reactions at any time
    with pytest.raises(RulesError, match="reaction this round"):
        spend(enc, 2, ActionKind.REACTION)


def test_staggered_gets_one_action_or_one_quick_action() -> None:
    staggered = Conditions.of(Condition.STAGGERED)
    aria = npc("Aria", Side.PC, agility=4, conditions=staggered)
    enc, _ = next_turn(build(aria), table((5, 6, 1)))
    enc, _ = spend(enc, 1, ActionKind.QUICK)
    with pytest.raises(RulesError, match="staggered"):
        spend(enc, 1, ActionKind.ACTION)


def test_down_participants_cannot_act_and_nothing_before_round_one() -> None:
    with pytest.raises(RulesError, match="first round"):
        spend(skirmish(), 1, ActionKind.REACTION)
    enc, _ = next_turn(
        build(npc("Aria", Side.PC, conditions=Conditions.of(Condition.UNCONSCIOUS))), table(ONE)
    )
    with pytest.raises(RulesError, match="down"):
        spend(enc, 1, ActionKind.ACTION)


# --- values -----------------------------------------------------------------------------


def test_round_trip_through_a_dict() -> None:
    enc, _ = next_turn(skirmish(), table(ONE, ONE, ONE, ONE))
    enc, _ = add_effect(enc, [1], Condition.BLEEDING, value=2, rounds=3)
    enc, _ = spend(enc, 3, ActionKind.ACTION)
    enc, _ = set_result(enc, [3], 2)
    assert Encounter.from_dict(enc.to_dict()) == enc


def test_damaged_state_is_refused() -> None:
    data = skirmish().to_dict()
    data["order"] = [[1], [1]]
    with pytest.raises(RulesError, match="damaged"):
        Encounter.from_dict(data)
    with pytest.raises(RulesError, match="damaged"):
        Encounter.from_dict({"participants": [{"id": 1}]})


def test_names_are_checked() -> None:
    with pytest.raises(RulesError, match="at most 40"):
        build(npc("x" * 41))
    with pytest.raises(RulesError, match="needs a name"):
        build(npc("   "))


def test_start_round_alone_leaves_no_turn_running() -> None:
    enc, events = start_round(skirmish(), table(ONE, ONE, ONE, ONE))
    assert enc.round == 1 and enc.current is None and len(events) == 1


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    sides=st.lists(st.sampled_from(list(Side)), min_size=1, max_size=12),
    steps=st.integers(1, 40),
)
def test_every_round_is_sorted_and_holds_everyone_once(
    seed: int, sides: list[Side], steps: int
) -> None:
    people = [npc(f"P{i}", side, agility=1 + i % 5) for i, side in enumerate(sides)]
    enc = build(*people)
    dice = RandomDice(random.Random(seed))
    turns_per_round = len(sides)
    for _ in range(steps):
        enc, _ = next_turn(enc, dice)
        keys = [
            (-enc.participant(s[0]).roll.successes, enc.participant(s[0]).side.rank, s[0])
            for s in enc.order
        ]
        assert keys == sorted(keys)
        assert sorted(i for s in enc.order for i in s) == [p.id for p in enc.participants]
    assert enc.turn == steps
    assert enc.round == (steps - 1) // turns_per_round + 1


def test_group_and_participant_names_never_clash() -> None:
    enc = build(npc("Goblin"))
    with pytest.raises(RulesError, match="a participant's name"):
        add_participants(enc, [npc("Goblin 1", group="goblin")], NO_DICE)
    enc = build(npc("Orc 1", group="Orcs"))
    with pytest.raises(RulesError, match="the name of a group"):
        add_participants(enc, [npc("ORCS")], NO_DICE)


# --- every member rolls; group initiative; other bonuses ------------------------------------


def test_every_member_of_a_group_rolls_and_acts_on_its_own() -> None:
    # "All characters involved make an initiative skill roll."
    goblins = [npc(f"Goblin {n}", group="Goblins") for n in (1, 2, 3)]
    enc = build(*goblins, npc("Aria", Side.PC))
    dice = table(ONE, TWO, NONE, ONE)  # Goblin 1, 2, 3, Aria
    enc, events = next_turn(enc, dice)
    assert dice.remaining == 0  # four rolls
    assert names(enc) == ["Goblin 2", "Aria", "Goblin 1", "Goblin 3"]
    assert [r.successes for r in events[0].rolls] == [2, 1, 1, 0]
    assert current(enc) == "Goblin 2"
    # The group's name still names all of them.
    assert [p.name for p in find(enc, "goblins")] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    enc, _ = next_turn(enc, NO_DICE)
    assert current(enc) == "Aria"


def test_a_member_joining_a_group_without_group_initiative_rolls_its_own() -> None:
    enc = build(npc("Goblin 1", group="Goblins"))
    enc, _ = next_turn(enc, table(ONE))
    enc, events = add_participants(
        enc, [npc("Goblin 2", group="goblins", group_roll=True)], table(TWO)
    )
    assert names(enc) == ["Goblin 2", "Goblin 1"] and events[0].successes == 2
    assert not enc.participant(2).group_roll  # the group keeps how it was added


def test_bonus_dice_and_boons_join_the_initiative_pool() -> None:
    stats = InitiativeStats(agility=2, presence=1, training=1, bonus=2, boons=1)
    assert stats.base(social=False) == 5
    assert InitiativeStats.from_dict(stats.to_dict()) == stats
    enc = build(NewParticipant(name="Scout", side=Side.ALLY, stats=stats))
    dice = ScriptedDice([4, 4, 1, 1, 1, 6])  # 5 dice + the boon die
    enc, events = next_turn(enc, dice)
    assert dice.remaining == 0 and events[0].rolls[0].successes == 3
    # Boons cancel the banes of staggered one for one: 2 banes - 1 boon = 1 bane.
    staggered = NewParticipant(
        name="Scout",
        side=Side.ALLY,
        stats=stats,
        conditions=Conditions.of(Condition.STAGGERED),
    )
    dice = ScriptedDice([4, 4, 4, 4])  # 5 dice, one removed by the net bane
    enc, events = next_turn(build(staggered), dice)
    assert dice.remaining == 0 and events[0].rolls[0].successes == 4
    with pytest.raises(RulesError, match="Bonus dice"):
        InitiativeStats(agility=2, presence=1, bonus=11)


def test_a_refreshed_sheet_keeps_the_gms_bonus() -> None:
    stats = InitiativeStats(agility=2, presence=1, bonus=1, boons=2)
    enc = build(NewParticipant(name="Aria", side=Side.PC, stats=stats, character_id=3))
    enc = refresh_participant(enc, 1, stats=InitiativeStats(agility=3, presence=1), hp=5)
    assert enc.participant(1).stats == InitiativeStats(agility=3, presence=1, bonus=1, boons=2)
