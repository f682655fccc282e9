"""The 2d10 tracker's operations: each returns an ``Operation`` for ``SideTrackerService``.

Permission checks and finding combatants by name live here; the rules themselves are
the pure functions of ``bot.rules.twod10.initiative``.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum

from bot.errors import UserError
from bot.interactions.user_text import echo, normalise_text
from bot.render.text import spoken_list
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.initiative.defenses import declare_defense
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Phase,
    Sacrifice,
    Side,
    add_combatant,
    remove_combatant,
)
from bot.rules.twod10.initiative.pins import release
from bot.rules.twod10.initiative.reactions import (
    declare_reaction,
    opportunity_attack,
    trigger_declared_reaction,
    use_undeclared_reaction,
)
from bot.rules.twod10.initiative.rounds import advance, start_encounter
from bot.rules.twod10.initiative.spells import declare
from bot.rules.twod10.initiative.turns import (
    mark_action,
    mark_down,
    move,
    revive,
    sacrifice_attack,
)
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from bot.storage.twod10.encounters import Seat, Tracker
from bot.tables.permissions import NotGM
from cogs.twod10.initiative import sheet_acts
from cogs.twod10.initiative.service import ChangeContext, Operation, sheet_down

MAX_COUNT = 20


class ActChoice(Enum):
    """What /init act and the turn buttons mark."""

    MOVEMENT = "movement"
    ATTACK = "attack"
    INTERACT = "interact"
    BONUS = "bonus action"
    DASH = "dash"
    DISENGAGE = "disengage"
    PARRY = "parry"
    PREPARE = "prepare"
    SPELL = "declare spell"
    STAND = "stand up"
    LOAD = "load"
    PICK_UP = "pick up"  # a disarmed weapon, with the interact action (initiative.disarm)
    RELEASE = "release"  # a pinner lets go, no action (initiative.pins)


class ReactChoice(Enum):
    DECLARE = "declare"
    INTERRUPT = "interrupt"
    UNDECLARED = "undeclared"
    OPPORTUNITY = "opportunity attack"
    DEFEND = "defend"


ACTIONS = {
    ActChoice.MOVEMENT: Action.MOVEMENT,
    ActChoice.ATTACK: Action.ATTACK,
    ActChoice.INTERACT: Action.INTERACT,
    ActChoice.BONUS: Action.BONUS,
}
SACRIFICES = {
    ActChoice.DASH: Sacrifice.DASH,
    ActChoice.DISENGAGE: Sacrifice.DISENGAGE,
    ActChoice.PARRY: Sacrifice.PARRY,
    ActChoice.PREPARE: Sacrifice.PREPARE,
}
# These read the combatant's sheet (stand up also writes it): cogs.twod10.initiative.sheet_acts
SHEET_ACTS = {
    ActChoice.STAND: sheet_acts.stand,
    ActChoice.LOAD: sheet_acts.load,
    ActChoice.PICK_UP: sheet_acts.pick_up,
}


def key(name: str) -> str:
    return normalise_text(name).casefold()


def require_gm(ctx: ChangeContext, action: str) -> None:
    if not ctx.is_gm:
        raise NotGM(action)


def find(tracker: Tracker, name: str) -> Combatant:
    wanted = key(name)
    for c in tracker.encounter.combatants:
        if key(c.name) == wanted:
            return c
    raise UserError(f"No combatant called {echo(name)} here: /init list shows who is in it.")


def may_act_for(ctx: ChangeContext, combatant: Combatant) -> None:
    seat = ctx.tracker.seat(combatant.id)
    if ctx.is_gm or (seat is not None and seat.owner_id == ctx.member.id):
        return
    raise UserError(f"{echo(combatant.name)} isn't yours: only its player or the GM acts for it.")


def pick(ctx: ChangeContext, name: str | None, *, side: Side | None = None) -> Combatant:
    """The named combatant (if the member may act for it), or the member's only one
    standing (on ``side``)."""
    if name:
        combatant = find(ctx.tracker, name)
        may_act_for(ctx, combatant)
        return combatant
    mine = [
        c
        for c in ctx.tracker.encounter.combatants
        if (seat := ctx.tracker.seat(c.id)) is not None
        and seat.owner_id == ctx.member.id
        and not c.down
    ]
    on_side = [c for c in mine if side is None or c.side is side]
    if len(on_side) == 1:
        return on_side[0]
    if not on_side and len(mine) == 1:
        return mine[0]  # on the other side: the rules say why it can't do that now
    if not on_side and mine:
        raise UserError("None of your combatants is on the side that can do that now.")
    if not mine:
        raise UserError("You have no combatant standing here for that: name one with `name`.")
    raise UserError("You play several combatants here: say which one with `name`.")


def _seated(tracker: Tracker, combatant: Combatant, seat: Seat) -> Tracker:
    enc = add_combatant(tracker.encounter, combatant)
    seats = tuple(sorted((*tracker.seats, (combatant.id, seat))))
    return replace(tracker, encounter=enc, seats=seats, next_id=tracker.next_id + 1)


def _unique(tracker: Tracker, name: str) -> None:
    if any(key(c.name) == key(name) for c in tracker.encounter.combatants):
        raise UserError(f"{echo(name)} is already in this encounter: pick another name.")


def _reach(sheet: TwoD10Sheet) -> bool:
    return any(w.reach for w in sheet.character.weapons)


def _sheet_combatant(
    tracker: Tracker, sheet: TwoD10Sheet, side: Side, *, aware: bool
) -> tuple[Tracker, list[object]]:
    if sheet.id in tracker.sheet_ids():
        raise UserError(f"{echo(sheet.name)} is already in this encounter.")
    _unique(tracker, sheet.name)
    combatant = Combatant(
        id=tracker.next_id, name=sheet.name, side=side,
        finesse=sheet.character.attributes.finesse, reach=_reach(sheet), aware=aware,
    )  # fmt: skip
    tracker = _seated(tracker, combatant, Seat(owner_id=sheet.owner_id, sheet_id=sheet.id))
    events: list[object] = [f"{echo(sheet.name)} joins the {side.label}."]
    if sheet_down(sheet):
        enc, down = mark_down(tracker.encounter, combatant.id)
        tracker = replace(tracker, encounter=enc)
        events.append(down)
    return tracker, events


def join(character: str | None, *, unaware: bool) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        repo = TwoD10CharacterRepository(ctx.conn)
        guild_id = ctx.record.guild_id
        if character:
            sheet = await repo.find(guild_id, character)
            if sheet is None:
                raise UserError(f"No 2d10 character called {echo(character)} in this server.")
            if sheet.owner_id != ctx.member.id and not ctx.is_gm:
                raise UserError(f"{echo(sheet.name)} isn't yours: join with your own character.")
        else:
            sheet = await repo.active(guild_id, ctx.member.id)
            if sheet is None:
                raise UserError(
                    "You have no active 2d10 character: create one, or name it with `character`."
                )
        return _sheet_combatant(ctx.tracker, sheet, Side.PLAYERS, aware=not unaware)

    return run


def add(
    name: str, *, side: Side | None, finesse: int | None, count: int, unaware: bool, reach: bool
) -> Operation:
    """The GM adds a 2d10 sheet by name, or ``count`` quick NPCs (Goblin 1, Goblin 2…)."""

    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        require_gm(ctx, "add combatants")
        shown = normalise_text(name)
        if not shown:
            raise UserError("Give the combatant a name.")
        sheet = await TwoD10CharacterRepository(ctx.conn).find(ctx.record.guild_id, shown)
        if sheet is not None and count == 1 and finesse is None:
            default = Side.NPCS if sheet.kind is TwoD10Kind.ANTAGONIST else Side.PLAYERS
            return _sheet_combatant(ctx.tracker, sheet, side or default, aware=not unaware)
        if not 1 <= count <= MAX_COUNT:
            raise UserError(f"Add 1 to {MAX_COUNT} at a time.")
        names = [shown] if count == 1 else [f"{shown} {i}" for i in range(1, count + 1)]
        tracker = ctx.tracker
        for each in names:
            _unique(tracker, each)
            combatant = Combatant(
                id=tracker.next_id, name=each, side=side or Side.NPCS, finesse=finesse or 0,
                reach=reach, aware=not unaware,
            )  # fmt: skip
            tracker = _seated(tracker, combatant, Seat(owner_id=ctx.member.id))
        listed = spoken_list([echo(n) for n in names])
        verb = "joins" if len(names) == 1 else "join"
        return tracker, [f"{listed} {verb} the {(side or Side.NPCS).label}."]

    return run


def set_surprise(surprised: Side | None) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        enc = replace(ctx.tracker.encounter, surprised=surprised)
        return replace(ctx.tracker, encounter=enc), []

    return run


def next_step() -> Operation:
    """The GM's step: starts the encounter (its surprise round), then ``advance``."""

    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        require_gm(ctx, "move the encounter on")
        enc = ctx.tracker.encounter
        if enc.phase is Phase.NOT_STARTED:
            enc, events = start_encounter(enc, surprised=enc.surprised, dice=ctx.dice)
        else:
            enc, events = advance(enc, ctx.dice)
        return replace(ctx.tracker, encounter=enc), list(events)

    return run


def act(choice: ActChoice, name: str | None, *, feet: int | None, parry: int | None) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        enc = ctx.tracker.encounter
        if choice is ActChoice.SPELL:
            c = pick(ctx, name)
            enc, declared = declare(enc, c.id)  # on the turn too, after spell-interrupted
            return replace(ctx.tracker, encounter=enc), [declared]
        if choice is ActChoice.RELEASE:  # no action: at any time (ruling pin-ends)
            if feet is not None or parry is not None:
                raise UserError("`feet` goes with movement and `parry` with parry only.")
            c = pick(ctx, name)
            enc, released = release(enc, c.id)
            return replace(ctx.tracker, encounter=enc), list(released)
        c = pick(ctx, name, side=enc.acting)
        events: list[object]
        if choice in SHEET_ACTS:
            if feet is not None or parry is not None:
                raise UserError("`feet` goes with movement and `parry` with parry only.")
            return await SHEET_ACTS[choice](ctx, c)
        if choice is ActChoice.MOVEMENT and feet is not None:
            enc, left = move(enc, c.id, feet)
            events = [f"{echo(c.name)} moves {feet} ft ({left} ft left)."]
        elif choice in ACTIONS:
            if feet is not None or parry is not None:
                raise UserError("`feet` goes with movement and `parry` with parry only.")
            enc, marked = mark_action(enc, c.id, ACTIONS[choice])
            events = [marked]
        else:
            if feet is not None:
                raise UserError("`feet` goes with movement only.")
            if choice is ActChoice.PARRY and parry is None:
                raise UserError("Give `parry`: your finesse + melee (or ranged) to subtract.")
            enc, marked = sacrifice_attack(enc, c.id, SACRIFICES[choice], parry=parry or 0)
            events = [marked]
        return replace(ctx.tracker, encounter=enc), events

    return run


def react(
    choice: ReactChoice,
    name: str | None,
    *,
    trigger: str | None,
    opponent: str | None,
    reach_entry: bool,
    attribute: Attribute | None = None,
) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        enc = ctx.tracker.encounter
        off = enc.acting.other if enc.acting is not None else None
        c = pick(ctx, name, side=off)
        events: list[object]
        if choice is ReactChoice.DEFEND:
            if attribute is None:
                raise UserError("Say which attribute the defense roll guards, with `attribute`.")
            enc = declare_defense(enc, c.id, attribute)
            events = [f"{echo(c.name)} declares a defense roll for {attribute.value}."]
        elif choice is ReactChoice.DECLARE:
            if not trigger:
                raise UserError("Say which action the reaction waits for, with `trigger`.")
            enc = declare_reaction(enc, c.id, trigger)
            events = [f"{echo(c.name)} declares a reaction to “{echo(trigger, 60)}”."]
        elif choice is ReactChoice.UNDECLARED:
            enc = use_undeclared_reaction(enc, c.id)
            events = [f"{echo(c.name)} uses their undeclared reaction."]
        else:
            if not opponent:
                raise UserError("Name the `opponent` whose action (or move) you react to.")
            foe = find(ctx.tracker, opponent)
            if choice is ReactChoice.INTERRUPT:
                enc, roll = trigger_declared_reaction(
                    enc, c.id, foe.id, reach_entry=reach_entry, dice=ctx.dice
                )
                events = [roll]
            else:
                enc = opportunity_attack(enc, c.id, foe.id)
                events = [f"{echo(c.name)} attacks {echo(foe.name)} as they leave (reaction)."]
        return replace(ctx.tracker, encounter=enc), events

    return run


def set_down(name: str, *, down: bool) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        require_gm(ctx, "put combatants down or back up")
        c = find(ctx.tracker, name)
        if down:
            enc, event = mark_down(ctx.tracker.encounter, c.id)
            return replace(ctx.tracker, encounter=enc), [event]
        enc = revive(ctx.tracker.encounter, c.id)
        return replace(ctx.tracker, encounter=enc), [f"{echo(c.name)} is back up."]

    return run


def remove(name: str) -> Operation:
    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        require_gm(ctx, "remove combatants")
        c = find(ctx.tracker, name)
        enc = remove_combatant(ctx.tracker.encounter, c.id)
        seats = tuple((i, s) for i, s in ctx.tracker.seats if i != c.id)
        tracker = replace(ctx.tracker, encounter=enc, seats=seats)
        return tracker, [f"{echo(c.name)} leaves the encounter."]

    return run
