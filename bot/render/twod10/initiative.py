"""The 2d10 side tracker as Discord text: the tracker embed and one line per event.

Every name shown here was typed by someone, so it goes through ``bot.interactions.user_text.echo``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import discord

from bot.interactions.user_text import echo
from bot.render.text import plural, spoken_list
from bot.rules.twod10.initiative.disarm import WeaponPickedUp, WeaponsDropped
from bot.rules.twod10.initiative.events import (
    ActionMarked,
    CombatantDown,
    InitiativeRolled,
    PendingSpellsDue,
    ReactionWindowOpened,
    RoundEnded,
    RoundStarted,
    SideTurnStarted,
    SpellDeclared,
    SurpriseRoundStarted,
)
from bot.rules.twod10.initiative.holds import held_by, wielders_of
from bot.rules.twod10.initiative.loading import CrossbowLoaded
from bot.rules.twod10.initiative.model import (
    MOVEMENT_FEET,
    Action,
    Combatant,
    Encounter,
    Phase,
    Side,
)
from bot.rules.twod10.initiative.pins import PinEnd, PinEnded, PinStarted, pinning
from bot.rules.twod10.initiative.reactions import InterruptRoll
from bot.rules.twod10.initiative.rounds import initiative_ranges
from bot.rules.twod10.initiative.turns import StoodUp

COLOUR = discord.Colour.dark_gold()
NAME_LIMIT = 64
MAX_FIELD = 1024
ICONS = {Action.MOVEMENT: "🏃", Action.ATTACK: "⚔️", Action.INTERACT: "✋", Action.BONUS: "➕"}

HP = Mapping[int, tuple[int, int]]  # combatant id → (hp, max hp) of a linked sheet
Marks = Mapping[int, str]  # combatant id → what its sheet says of a down one ("dying")


def name_of(enc: Encounter, combatant_id: int) -> str:
    try:
        return echo(enc.combatant(combatant_id).name, NAME_LIMIT)
    except Exception:  # removed meanwhile: the event still names it by id
        return f"#{combatant_id}"


def _names(enc: Encounter, ids: Iterable[int]) -> str:
    return spoken_list([name_of(enc, i) for i in ids]) or "nobody"


def _range(low_high: tuple[int, int]) -> str:
    low, high = low_high
    return str(low) if low == high else f"{low}–{high}"


def ranges_text(enc: Encounter) -> str:
    npcs, players = initiative_ranges(enc.lost_momentum)
    return f"NPCs {_range(npcs)}, players {_range(players)}"


def phase_text(enc: Encounter) -> str:
    acting = enc.acting.label if enc.acting else ""
    if enc.phase is Phase.NOT_STARTED:
        surprise = f" ({enc.surprised.label} surprised)" if enc.surprised else ""
        return f"Not started{surprise}: players /init join, the GM /init add, then /init next."
    if enc.phase is Phase.SURPRISE:
        return f"Surprise round: the {acting}' turn."
    if enc.phase is Phase.DECLARE:
        return (
            "Start of the round: declare spells and declared reactions (/init react), then the"
            f" GM's /init next rolls the d6 ({ranges_text(enc)})."
        )
    if enc.phase is Phase.TURN:
        return f"The {acting}' turn."
    others = enc.acting.other.label if enc.acting else ""
    return f"End of the {acting}' turn: the {others}' undeclared reactions."


def combatant_line(enc: Encounter, c: Combatant, hp: HP, marks: Marks | None = None) -> str:
    state = enc.state(c.id)
    parts = [f"**{echo(c.name, NAME_LIMIT)}** (finesse {c.finesse:+d})"]
    if c.id in hp:
        parts.append(f"HP {hp[c.id][0]}/{hp[c.id][1]}")
    if c.down:
        return " · ".join([*parts, f"💀 down{(marks or {}).get(c.id, '')}"])
    marks = []
    for action in Action:
        if action in state.actions:
            label = action.value
            if action is Action.ATTACK and state.sacrificed is not None:
                label = f"attack → {state.sacrificed.value}"
            marks.append(f"{ICONS[action]} {label}")
    if state.feet_moved and Action.MOVEMENT not in state.actions:
        marks.append(f"🏃 {state.feet_moved}/{state.allowance(c.movement)} ft")
    elif c.movement != MOVEMENT_FEET and Action.MOVEMENT not in state.actions:
        # Encumbered (ruling movement-encumbrance): the feet it has, not the usual 30.
        marks.append(f"🎒 moves {state.allowance(c.movement)} ft")
    if state.extra_attacks:
        marks.append(plural(state.extra_attacks, "extra attack"))
    if c.unloaded:  # shot and waiting for /init act load (ruling crossbow-loading)
        marks.append(f"🏹 unloaded: {', '.join(echo(n, NAME_LIMIT) for n in c.unloaded)}")
    if c.dropped:  # disarmed and waiting for /init act pick up (ruling disarm-drops)
        marks.append(f"🫳 dropped: {', '.join(echo(n, NAME_LIMIT) for n in c.dropped)}")
    if c.pinned_by is not None:  # ruling pin-tracked
        marks.append(f"📌 pinned by {name_of(enc, c.pinned_by)}")
    held = pinning(enc, c.id)
    if held:
        marks.append(f"📌 pinning {_names(enc, (h.id for h in held))}")
    swung = held_by(enc, c.id)
    if swung is not None:  # ruling opponent-weapon-rounds
        marks.append(f"🤼 wielding {echo(swung.name, NAME_LIMIT)} through round {c.hold_until}")
    wielders = wielders_of(enc, c.id)
    if wielders:
        marks.append(f"🤼 wielded by {_names(enc, (w.id for w in wielders))}")
    if state.declared_spell and not state.spell_cast:
        marks.append("spell declared")
    if state.spell_ready and not state.spell_cast:
        marks.append("spell goes off: /cast it")
    pending = c.pending_spell
    if pending is not None:  # declared again after an interruption (spell-interrupted)
        marks.append(f"spell pending: goes off at the end of its turn in round {pending.due}")
    if (state.attacked_casting and not state.spell_cast) or (pending and pending.attacked):
        marks.append("attacked while casting")
    if state.spell_interrupted:
        marks.append("spell interrupted")
    elif state.spell_cast:
        marks.append("spell cast")
    if state.parry:
        marks.append(f"parry {state.parry}")
    if state.reaction_used:
        marks.append("reaction used")
    elif state.declared_reaction:
        marks.append(f"reacts to “{echo(state.declared_reaction, 60)}”")
    if not c.aware:
        marks.append("unaware")
    return " · ".join(parts + marks)


def tracker_embed(
    enc: Encounter,
    hp: HP | None = None,
    marks: Marks | None = None,
    notes: Iterable[tuple[str, str]] = (),
) -> discord.Embed:
    """``marks`` follow a down combatant's line; ``notes`` are extra (name, value) fields."""
    hp = hp or {}
    title = "Surprise round" if enc.round == 0 and enc.phase is not Phase.NOT_STARTED else None
    embed = discord.Embed(
        title=f"2d10 encounter · {title or f'round {enc.round}'}",
        description=phase_text(enc),
        colour=COLOUR,
    )
    if enc.first is not None and enc.phase in (Phase.TURN, Phase.END_OF_TURN):
        embed.add_field(name="Initiative", value=f"The {enc.first.label} went first.")
    if enc.lost_momentum:
        lost = " and ".join(s.label for s in Side if s in enc.lost_momentum)
        embed.add_field(name="Momentum", value=f"{lost} lost momentum: {ranges_text(enc)}.")
    for side in (enc.acting or Side.PLAYERS, (enc.acting or Side.PLAYERS).other):
        members = enc.side(side)
        lines = [combatant_line(enc, c, hp, marks) for c in members] or ["nobody yet"]
        value = _fit(lines)
        title = f"{side.label} ({enc.standing(side)}/{len(members)} standing)"
        embed.add_field(name=title, value=value, inline=False)
    for name, value in notes:
        embed.add_field(name=name, value=value[:MAX_FIELD], inline=False)
    return embed


def _fit(lines: list[str]) -> str:
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > MAX_FIELD - 20:
            out.append(f"… and {len(lines) - i} more")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def interrupt_line(enc: Encounter, roll: InterruptRoll) -> str:
    faces = "/".join(str(f) for f in roll.reactor_faces)
    reach = " (reach: higher of two)" if len(roll.reactor_faces) > 1 else ""
    who, foe = name_of(enc, roll.reactor_id), name_of(enc, roll.opponent_id)
    order = f"{who} reacts first" if roll.reacts_first else f"{who} reacts after {foe}'s action"
    return (
        f"Interrupt: {who} 1d8 [{faces}]{reach} {roll.reactor_finesse:+d} = {roll.reactor_total}"
        f" vs {foe} 1d8 [{roll.opponent_face}] {roll.opponent_finesse:+d} ="
        f" {roll.opponent_total}: {order}."
    )


def event_line(enc: Encounter, event: object) -> str:
    """One line for one event (or a note the cog wrote as text)."""
    if isinstance(event, str):
        return event
    if isinstance(event, SurpriseRoundStarted):
        unaware = f"; {_names(enc, event.unaware)} can't react at its end" if event.unaware else ""
        return f"⚡ Surprise round: only the {event.attackers.label} act{unaware}."
    if isinstance(event, RoundStarted):
        return (
            f"🔔 Round {event.round}: declare spells and declared reactions now;"
            " the GM's /init next rolls initiative."
        )
    if isinstance(event, InitiativeRolled):
        faces = ", ".join(str(f) for f in event.faces)
        extra = ""
        if event.lost_momentum:
            extra += f"; momentum lost by {' and '.join(s.label for s in event.lost_momentum)}"
        if event.advantage is not None:
            extra += f"; {event.advantage.label} disengaged: advantage, {event.kept} kept"
        return (
            f"🎲 The GM's d6: [{faces}] → {event.kept} (NPCs {_range(event.npc_range)},"
            f" players {_range(event.player_range)}{extra}): the {event.winner.label} go first."
        )
    if isinstance(event, SideTurnStarted):
        spells = f" Spells cast now: {_names(enc, event.spells_cast)}." if event.spells_cast else ""
        acting = event.combatant_ids
        if not acting:
            return f"▶️ The {event.side.label}' turn: nobody on it can act.{spells}"
        may = "may each" if len(acting) > 1 else "may"
        return (
            f"▶️ The {event.side.label}' turn: {_names(enc, acting)} {may}"
            f" move, attack, interact (and take a granted bonus action).{spells}"
        )
    if isinstance(event, SpellDeclared):
        if event.due is None:
            return f"{name_of(enc, event.combatant_id)} declares a spell."
        return (
            f"{name_of(enc, event.combatant_id)} declares a spell again, with their attack"
            f" action: it goes off at the end of their turn in round {event.due}."
        )
    if isinstance(event, PendingSpellsDue):
        return _spells_due_line(enc, event)
    if isinstance(event, ReactionWindowOpened):
        if not event.eligible:
            return (
                f"⏸️ End of the {event.after.label}' turn: nobody has an undeclared reaction"
                " left; the GM's /init next goes on."
            )
        return (
            f"⏸️ End of the {event.after.label}' turn: undeclared reactions for"
            f" {_names(enc, event.eligible)}; the GM's /init next goes on."
        )
    if isinstance(event, RoundEnded):
        lost = ""
        if event.momentum_lost:
            sides = " and ".join(s.label for s in event.momentum_lost)
            lost = f" {sides} lost over half their side: their range narrows by one next roll."
        return f"⏹️ Round {event.round} ends.{lost}"
    if isinstance(event, ActionMarked):
        what = event.action.value
        if event.sacrifice is not None:
            what = f"attack given up to {event.sacrifice.value}"
        return f"{name_of(enc, event.combatant_id)}: {what}."
    if isinstance(event, StoodUp):
        return _stood_up_line(enc, event)
    if isinstance(event, CrossbowLoaded):
        return _loaded_line(enc, event)
    if isinstance(event, (PinStarted, PinEnded)):
        return pin_line(enc, event)
    if isinstance(event, (WeaponsDropped, WeaponPickedUp)):
        return _weapon_line(enc, event)
    if isinstance(event, CombatantDown):
        return (
            f"💀 {name_of(enc, event.combatant_id)} is down ({event.downed_this_round} of the"
            f" {event.side_size} {event.side.label} standing at the round's start)."
        )
    if isinstance(event, InterruptRoll):
        return interrupt_line(enc, event)
    return ""


def _stood_up_line(enc: Encounter, event: StoodUp) -> str:
    who = name_of(enc, event.combatant_id)
    if not event.feet:  # encumbered down to 0 feet: half of nothing
        return f"{who} stands up from prone, with no movement to spend."
    return f"{who} stands up from prone, spending {event.feet} ft ({event.left} ft left)."


def _loaded_line(enc: Encounter, event: CrossbowLoaded) -> str:
    what = f"the {echo(event.weapon.lower(), NAME_LIMIT)}" if event.weapon else "a crossbow"
    how = "with an extra attack" if event.extra else "giving up the attack"
    return f"{name_of(enc, event.combatant_id)} loads {what}, {how}."


_PIN_ENDS = {
    PinEnd.DAMAGED: "breaks free of {pinner}'s pin, damaging them",
    PinEnd.DOWN: "is no longer pinned by {pinner}: one of them is down",
    PinEnd.RELEASED: "is released from {pinner}'s pin",
}


def pin_line(enc: Encounter, event: PinStarted | PinEnded) -> str:
    pinner, pinned = name_of(enc, event.pinner_id), name_of(enc, event.pinned_id)
    if isinstance(event, PinEnded):
        return f"{pinned} {_PIN_ENDS[event.reason].format(pinner=pinner)}."
    prone = " (both prone)" if event.prone else ""
    taken = f", taking them from {name_of(enc, event.taken_from)}" if event.taken_from else ""
    return (
        f"📌 {pinner} pins {pinned}{prone}{taken}: {pinned} can't move until they damage"
        f" {pinner}; their attacks have disadvantage, {pinner}'s on them advantage."
    )


def _weapon_line(enc: Encounter, event: WeaponsDropped | WeaponPickedUp) -> str:
    who = name_of(enc, event.combatant_id)
    if isinstance(event, WeaponPickedUp):
        return f"{who} picks up the {echo(event.weapon.lower(), NAME_LIMIT)} (interact action)."
    if not event.weapons:
        return f"{who} has no weapon left to drop."
    dropped = " and the ".join(echo(n.lower(), NAME_LIMIT) for n in event.weapons)
    moved = f" (the last moved {event.moved_feet} ft)" if event.moved_feet else ""
    return f"🫳 {who} drops the {dropped}{moved}: /init act pick up takes an interact action."


def _spells_due_line(enc: Encounter, event: PendingSpellsDue) -> str:
    lines = []
    if event.ready:
        lines.append(
            f"✨ End of the {event.side.label}' turn: the spell declared again last round goes"
            f" off now for {_names(enc, event.ready)}; /cast it this round."
        )
    if event.lost:
        lines.append(f"✨ Lost, down before it went off: the spell of {_names(enc, event.lost)}.")
    return "\n".join(lines)


def events_text(enc: Encounter, events: Iterable[object]) -> str:
    return "\n".join(line for line in (event_line(enc, e) for e in events) if line)


def summary_embed(enc: Encounter) -> discord.Embed:
    standing = ", ".join(f"{s.label} {enc.standing(s)}/{len(enc.side(s))}" for s in Side)
    return discord.Embed(
        title="2d10 encounter over",
        description=f"Ended in round {enc.round}. Standing: {standing}.",
        colour=COLOUR,
    )
