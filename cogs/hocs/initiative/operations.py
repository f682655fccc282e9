"""The tracker operations the commands and buttons run inside ``InitiativeService.change``.

Each function here returns an ``Operation``: it checks who may do what, builds the
participants a command describes, and calls the pure rules in
``bot.rules.hocs.initiative``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from bot.errors import NotGM, UserError
from bot.rules.generic.names import normalise_name
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.initiative import (
    ActionKind,
    Encounter,
    Event,
    InitiativeStats,
    NewParticipant,
    Participant,
    Side,
    add_effect,
    add_participants,
    apply_recovery_test,
    check_name,
    check_test,
    clear_effect,
    find,
    find_one,
    move_to,
    next_turn,
    prev_turn,
    remove_participants,
    set_bonus,
    set_result,
    spend,
)
from bot.rules.hocs.threshold import roll_recovery_test
from bot.storage.hocs.characters import Character, CharacterRepository
from cogs.hocs.access import resolve_character
from cogs.hocs.initiative.service import ChangeContext, Operation, initiative_stats

Result = tuple[Encounter, list[Event]]


class NotYourTurn(UserError):
    def __init__(self) -> None:
        super().__init__(
            "It isn't your turn: a player ends only their own turn, and the GM moves the"
            " tracker on from anyone else's."
        )


class TurnAlreadyOver(UserError):
    def __init__(self) -> None:
        super().__init__("That turn is already over: use the newest turn message.")


def require_gm(context: ChangeContext, action: str) -> None:
    if not context.is_gm:
        raise NotGM(action)


def controls(context: ChangeContext, participant: Participant) -> bool:
    """The GM controls everyone; a player controls the participants they own."""
    return context.is_gm or (
        participant.owner_id is not None and participant.owner_id == context.member.id
    )


def require_control(context: ChangeContext, participant: Participant, action: str) -> None:
    if not controls(context, participant):
        raise UserError(
            f"{participant.name} isn't yours, so you can't {action}: only its player or the GM can."
        )


def participant_from_character(character: Character, *, name: str | None = None) -> NewParticipant:
    """A sheet character as a participant: its side, owner, pool, hit points, conditions
    (pool, maximum hit points and threshold are the effective, wounded ones)."""
    values = character.effective
    return NewParticipant(
        name=name or character.name,
        side=Side(character.kind.value),
        stats=initiative_stats(values),
        owner_id=character.owner_id,
        character_id=character.id,
        hp=character.state.hp,
        max_hp=values.max_hp,
        temp_hp=character.state.temp_hp,
        threshold=values.threshold,
        conditions=character.state.conditions,
    )


def numbered_names(state: Encounter, base: str, count: int) -> list[str]:
    """``Goblin 1…n`` continuing after the numbers already in the encounter."""
    base = check_name(base)
    pattern = re.compile(rf"^{re.escape(normalise_name(base))} (\d+)$")
    taken = [int(m.group(1)) for p in state.participants if (m := pattern.match(p.key))]
    start = max(taken, default=0) + 1
    return [check_name(f"{base} {n}") for n in range(start, start + count)]


# --- operations -------------------------------------------------------------------------------


def join(character_name: str | None) -> Operation:
    async def run(context: ChangeContext) -> Result:
        character = await resolve_character(
            context.conn,
            campaign=context.campaign,
            member=context.member,
            name=character_name,
            action="join the encounter with it",
        )
        return add_participants(
            context.state, [participant_from_character(character)], context.dice
        )

    return run


def add_sheet_npc(name: str, character_name: str, *, bonus: int = 0, boons: int = 0) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "add participants")
        character = await CharacterRepository(context.conn).find(
            context.campaign.guild_id, character_name[:64]
        )
        if character is None:
            raise UserError("There is no character by that name here: check /character list.")
        new = participant_from_character(character, name=name)
        new = replace(new, stats=replace(new.stats, bonus=bonus, boons=boons))
        return add_participants(context.state, [new], context.dice)

    return run


def add_quick_npcs(
    name: str,
    *,
    side: Side,
    stats: InitiativeStats,
    count: int,
    group: bool,
    group_roll: bool = False,
    hp: int | None,
) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "add participants")
        base = check_name(name)
        names = numbered_names(context.state, base, count) if count > 1 or group else [base]
        new = [
            NewParticipant(
                name=each,
                side=side,
                stats=stats,
                group=base if group else None,
                group_roll=group and group_roll,
                hp=hp,
                max_hp=hp,
            )
            for each in names
        ]
        return add_participants(context.state, new, context.dice)

    return run


def advance(*, end_of: tuple[int, int] | None = None) -> Operation:
    """Next turn. ``end_of`` = (participant id, turn) for an End turn button: it only ends
    that very turn, so a stale or double click can't end the next one too."""

    async def run(context: ChangeContext) -> Result:
        state = context.state
        current = state.current_participants
        if end_of is not None:
            # Every turn change bumps ``turn``, so it alone names the turn the button was
            # posted for (a group member removed meanwhile doesn't make it stale).
            _, turn = end_of
            if state.turn != turn or not current:
                raise TurnAlreadyOver()
        if not context.is_gm:
            if not state.started:
                raise NotGM("start the first round")
            if not any(controls(context, p) for p in current):
                raise NotYourTurn()
        return next_turn(state, context.dice)

    return run


def back() -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "go back a turn")
        return prev_turn(context.state)

    return run


def move(name: str) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "move the turn")
        target = find(context.state, name)[0]
        return move_to(context.state, target.id, context.dice)

    return run


def remove(name: str) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "remove participants")
        gone = [p.id for p in find(context.state, name)]
        return remove_participants(context.state, gone, context.dice)

    return run


def set_initiative(
    name: str,
    *,
    successes: int | None = None,
    bonus: int | None = None,
    boons: int | None = None,
) -> Operation:
    """A result by hand, and/or the GM's other bonuses; a group's name sets each member
    (each slot, when its members roll their own)."""

    async def run(context: ChangeContext) -> Result:
        require_gm(context, "set initiative results")
        state = context.state
        members = find(state, name)
        events: list[Event] = []
        if bonus is not None or boons is not None:
            state, more = set_bonus(state, [p.id for p in members], bonus=bonus, boons=boons)
            events += more
        if successes is not None:
            done: set[int] = set()
            for member in members:
                if member.id in done:
                    continue
                index = state.slot_of(member.id)
                if index is not None:
                    slot = state.order[index]
                elif member.turn_key is not None:  # group initiative, before round 1
                    slot = tuple(m.id for m in members if m.turn_key == member.turn_key)
                else:
                    slot = (member.id,)
                ids = [i for i in slot if any(m.id == i for m in members)] or [member.id]
                done.update(ids)
                state, more = set_result(state, ids, successes)
                events += more
        return state, events

    return run


def effect(
    name: str, condition: Condition, *, value: int, rounds: int | None, clear: bool
) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "change conditions in the tracker")
        ids = [p.id for p in find(context.state, name)]
        if clear:
            return clear_effect(context.state, ids, condition)
        return add_effect(context.state, ids, condition, value=value, rounds=rounds)

    return run


def act(kind: ActionKind, name: str | None, *, participant_id: int | None = None) -> Operation:
    async def run(context: ChangeContext) -> Result:
        state = context.state
        if participant_id is not None:
            participant = state.participant(participant_id)
        elif name:
            participant = find_one(state, name)
        else:
            participant = own_participant(context, state)
        require_control(context, participant, f"mark its {kind.title}")
        return spend(state, participant.id, kind)

    return run


def own_participant(context: ChangeContext, state: Encounter) -> Participant:
    """The author's participant: the one acting now, else their only one."""
    mine: Sequence[Participant] = [p for p in state.participants if p.owner_id == context.member.id]
    acting = [p for p in mine if state.current_slot and p.id in state.current_slot]
    if len(acting) == 1:
        return acting[0]
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise UserError("You have nobody in this encounter: /init join first, or name who acts.")
    raise UserError("You have several participants here: name the one that acts.")


def skip_down(on: bool) -> Operation:
    async def run(context: ChangeContext) -> Result:
        require_gm(context, "change how the tracker skips the down")
        return replace(context.state, skip_down=on), []

    return run


def recovery_test(participant_id: int, clock_id: int, skill: str) -> Operation:
    """Roll the dying or unconscious test ``clock_id`` names, once: the clock is replaced
    in the same versioned save, so a second press finds no such test."""

    async def run(context: ChangeContext) -> Result:
        participant = check_test(context.state, participant_id, clock_id)
        require_control(context, participant, "roll its test")
        character = None
        if participant.character_id is not None:
            character = await CharacterRepository(context.conn).get(participant.character_id)
        if character is None:
            raise UserError(f"{participant.name} has no character sheet to roll the test with.")
        test = roll_recovery_test(
            character.effective,
            participant.conditions,
            participant.hp if participant.hp is not None else 0,
            context.dice,
            skill=skill,
        )
        enc, events = apply_recovery_test(context.state, participant_id, clock_id, test)
        return enc, list(events)

    return run
