"""The initiative tracker as Discord text: the tracker embed, turn announcements, the summary.

Every name shown here was typed by someone, so it is escaped (no markdown, no
mentions); the only mention ever produced is the owning player's on their turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.render.hocs.recovery import TurnAnnouncement, test_line
from bot.render.text import safe
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.initiative import (
    ActionMarked,
    BleedingTick,
    BonusSet,
    ConditionNote,
    Died,
    EffectAdded,
    EffectCleared,
    EffectExpired,
    Encounter,
    Event,
    Joined,
    Participant,
    RecoveryTestDue,
    RecoveryTestRolled,
    Removed,
    ResultSet,
    RoundStarted,
    Side,
    Spent,
    Summary,
    ThresholdTestDue,
    TurnReturned,
    TurnSkipped,
    TurnStarted,
    status_word,
)

COLOUR = discord.Colour.dark_red()
DONE_COLOUR = discord.Colour.dark_grey()
DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1024
LINE_LIMIT = 160
SIDE_TAG = {Side.PC: "PC", Side.ALLY: "ally", Side.ANTAGONIST: "foe"}
SIDE_PLURAL = {Side.PC: "Player characters", Side.ALLY: "Allies", Side.ANTAGONIST: "Antagonists"}
TIE_NOTE = "Ties: player characters, then allies, then antagonists, then join order."

NOTES = {
    Condition.DYING: "is dying: a dying test (physique or willpower vs 3) after STR minutes",
    Condition.UNCONSCIOUS: "is unconscious and can't act",
    Condition.STAGGERED: "is staggered: 1 action or 1 quick action this turn, 2 banes on rolls",
    Condition.SLOW: "is slow: only 1 action this turn",
}


def _clip(line: str) -> str:
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


def _chunks(lines: Sequence[str], limit: int) -> list[str]:
    """Join lines into blocks of at most ``limit`` characters (never splitting a line)."""
    blocks: list[str] = []
    current: list[str] = []
    size = 0
    for line in (_clip(line) for line in lines):
        if current and size + len(line) + 1 > limit:
            blocks.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        blocks.append("\n".join(current))
    return blocks


def _add_field(embed: discord.Embed, name: str, lines: Sequence[str]) -> None:
    blocks = _chunks(lines, FIELD_LIMIT)
    for index, block in enumerate(blocks[:3]):
        embed.add_field(name=name if index == 0 else f"{name} (cont.)", value=block, inline=False)


# --- pieces ---------------------------------------------------------------------------------


def conditions_text(p: Participant) -> str:
    timers = {e.condition: e.expires_round for e in p.effects if e.expires_round is not None}
    parts = []
    for condition, value in p.conditions.entries:
        text = condition.value if value == 1 else f"{condition.value} {value}"
        if condition in timers:
            text += f" (ends round {timers[condition]})"
        parts.append(text)
    return ", ".join(parts)


def clock_text(p: Participant) -> str:
    """When the participant's dying or unconscious test is due, or that it awaits a roll."""
    if p.clock is None or p.is_dead:
        return ""
    if p.clock.prompted:
        return f"{p.clock.kind.value} test due: roll it"
    return f"{p.clock.kind.value} test in round {p.clock.due_round}"


def vitals_text(p: Participant, *, show_npc_hp: bool) -> str:
    """HP for player characters (and NPCs when the GM shows them), else a status word."""
    if p.hp is not None and (p.side is Side.PC or show_npc_hp):
        text = f"HP {p.hp}/{p.max_hp}" if p.max_hp is not None else f"HP {p.hp}"
        if p.temp_hp:
            text += f" (+{p.temp_hp} temp)"
        if p.is_dead:
            text += " · dead"
        return text
    return status_word(p)


def actions_text(p: Participant) -> str:
    allowance = p.allowance
    text = (
        f"actions {p.spent.actions}/{allowance.actions} · quick {p.spent.quick}/"
        f"{allowance.quick_actions} · reaction {p.spent.reactions}/{allowance.reactions}"
    )
    if allowance.either_or:
        text += " (1 action or 1 quick action)"
    return text


def shared_turn(members: Sequence[Participant]) -> bool:
    """A group initiative's slot: several participants (or what is left of them) on one roll."""
    return members[0].group is not None and members[0].group_roll


def slot_label(members: Sequence[Participant]) -> str:
    if shared_turn(members):
        return f"{safe(members[0].group)} ×{len(members)}"
    return safe(members[0].name)


def visible_conditions(p: Participant, *, show_npc_hp: bool) -> str:
    """Conditions as the table may see them: an NPC's are hidden with its HP, as
    /condition list hides them (cogs.hocs.visibility), so the tracker can't leak them."""
    if p.side is Side.PC or show_npc_hp:
        return conditions_text(p)
    return ""


def _participant_line(p: Participant, *, show_npc_hp: bool, in_group: bool) -> str:
    name = safe(p.name)
    head = name if in_group else f"**{name}** ({SIDE_TAG[p.side]})"
    parts = [vitals_text(p, show_npc_hp=show_npc_hp)]
    conditions = visible_conditions(p, show_npc_hp=show_npc_hp)
    if conditions:
        parts.append(conditions)
    clock = clock_text(p)
    if clock:
        parts.append(clock)
    return f"{head} — {' · '.join(parts)}"


def _slot_lines(enc: Encounter, index: int, slot: Sequence[int], *, show_npc_hp: bool) -> list[str]:
    members = enc.slot_members(slot)
    roll = members[0].roll
    successes = "–" if roll is None else str(roll.successes) + ("*" if roll.manual else "")
    if enc.current is None:
        marker = "◻️"
    elif index == enc.current:
        marker = "▶️"
    elif index < enc.current:
        marker = "✅"
    else:
        marker = "◻️"
    if len(members) == 1 and not shared_turn(members):
        p = members[0]
        line = f"{marker} `{successes:>3}` " + _participant_line(
            p, show_npc_hp=show_npc_hp, in_group=False
        )
        if index == enc.current or p.spent != Spent():
            line += f" · {actions_text(p)}"
        return [line]
    lines = [f"{marker} `{successes:>3}` **{slot_label(members)}** ({SIDE_TAG[members[0].side]})"]
    lines += [
        "　• " + _participant_line(m, show_npc_hp=show_npc_hp, in_group=True) for m in members
    ]
    return lines


# --- the tracker --------------------------------------------------------------------------


def tracker_embed(enc: Encounter, *, show_npc_hp: bool | None = None) -> discord.Embed:
    """The pinned tracker: round, order with successes, current turn, HP or status."""
    show = enc.show_npc_hp if show_npc_hp is None else show_npc_hp
    title = f"Initiative — round {enc.round}" if enc.started else "Initiative — not started"
    lines: list[str] = []
    for index, slot in enumerate(enc.order):
        lines += _slot_lines(enc, index, slot, show_npc_hp=show)
    waiting = enc.waiting()
    if waiting:
        heading = "Waiting for round 1:" if not enc.started else "Joining:"
        lines.append(heading)
        lines += ["　• " + _participant_line(p, show_npc_hp=show, in_group=False) for p in waiting]
    if not lines:
        lines = ["Nobody yet: players use /init join, the GM /init add."]
    description = _chunks(lines, DESCRIPTION_LIMIT)
    text = description[0]
    if len(description) > 1:
        text += "\n…"
    embed = discord.Embed(title=title, description=text, colour=COLOUR)
    current = enc.current_participants
    if current:
        names = ", ".join(safe(p.name) for p in current)
        embed.add_field(name="Now acting", value=names[:FIELD_LIMIT], inline=False)
    flags = [f"turn {enc.turn}"]
    if enc.social:
        flags.append("social (presence)")
    if enc.skip_down:
        flags.append("skipping the down")
    lines = [" · ".join(flags)]
    if any(p.roll is not None and p.roll.manual for p in enc.participants):
        lines.append("* result set by the GM, not rolled")  # explains the marks, when any
    embed.set_footer(text="\n".join([*lines, TIE_NOTE]))
    return embed


# --- events ---------------------------------------------------------------------------------


def _roll_lines(event: RoundStarted) -> list[str]:
    lines = []
    for roll in event.rolls:
        who = safe(roll.group) if roll.group else safe(roll.names[0])
        if roll.manual:
            detail = "set by hand"
        elif roll.faces:
            detail = " ".join(str(f) for f in roll.faces)
        else:
            detail = "no dice"
        if roll.banes:
            detail += f"; {roll.banes} bane{'s' if roll.banes > 1 else ''}"
        lines.append(f"**{roll.successes}** — {who} ({detail})")
    return lines


def event_line(enc: Encounter, event: Event) -> str | None:
    """One sentence for an event (None for those shown elsewhere)."""
    match event:
        case TurnSkipped(names=names):
            return f"⏭️ Skipped {', '.join(safe(n) for n in names)}: down."
        case TurnReturned(participant_ids=ids):
            who = ", ".join(safe(p.name) for p in _existing(enc, ids))
            return f"↩️ Back to {who}'s turn (its start is not repeated)."
        case EffectExpired(name=name, condition=condition):
            return f"⌛ {safe(name)} is no longer {condition.value}."
        case EffectAdded(name=name, condition=condition, value=value, expires_round=expires):
            amount = f" {value}" if condition.kind.value != "flag" else ""
            until = (
                f" until the start of their turn in round {expires}"
                if expires is not None
                else " until cleared"
            )
            return f"{safe(name)} is {condition.value}{amount}{until}."
        case EffectCleared(name=name, condition=condition):
            return f"{safe(name)} is no longer {condition.value}."
        case BleedingTick(name=name, amount=amount, temp_absorbed=absorbed, hp_after=hp):
            text = f"🩸 {safe(name)} bleeds {amount}"
            if absorbed:
                text += f" ({absorbed} from temporary HP)"
            return text + (f": now {hp} HP." if hp is not None else " (HP not tracked).")
        case ThresholdTestDue(name=name, difficulty=difficulty):
            return (
                f"⚠️ {safe(name)} is inside their threshold: threshold test"
                f" (physique or willpower) against {difficulty}."
            )
        case Died(name=name, reason=reason):
            return f"💀 {safe(name)} dies: {reason}."
        case ConditionNote(participant_id=pid, name=name, condition=condition):
            who = enc.get(pid)
            clock = who.clock if who is not None else None
            if clock is not None and clock.kind.value == condition.value and not clock.prompted:
                return (
                    f"{safe(name)} is {condition.value}: the {condition.value} test (physique"
                    f" or willpower vs 3) is due in round {clock.due_round}."
                )
            return f"{safe(name)} {NOTES[condition]}."
        case RecoveryTestDue(name=name, kind=kind):
            return (
                f"⏳ {safe(name)}'s {kind.value} test is due now (physique or willpower vs 3):"
                " roll it with the prompt's buttons."
            )
        case RecoveryTestRolled(name=name, test=test):
            return test_line(name, test)
        case Joined(name=name, successes=successes, acts_this_round=acts):
            if successes is None:
                return f"{safe(name)} joins the encounter."
            when = "acts this round" if acts else "first acts next round"
            return f"{safe(name)} joins with initiative {successes} ({when})."
        case Removed(name=name):
            return f"{safe(name)} leaves the encounter."
        case ActionMarked(name=name, kind=kind, paid_with_action=paid):
            article = "an" if kind.value == "action" else "a"
            paid_text = " (paid with an action)" if paid else ""
            return f"{safe(name)} uses {article} {kind.title}{paid_text}."
        case BonusSet(participant_ids=ids, bonus=bonus, boons=boons):
            who = ", ".join(safe(p.name) for p in _existing(enc, ids))
            dice = f"{bonus} bonus {'die' if bonus == 1 else 'dice'}"
            boon_text = f"{boons} boon{'s' if boons != 1 else ''}"
            return f"{who}: initiative rolls with {dice} and {boon_text} from the next roll."
        case ResultSet(participant_ids=ids, successes=successes, applies_now=now):
            who = ", ".join(safe(p.name) for p in _existing(enc, ids))
            when = "from now on this round" if now else "for the next round's roll"
            return f"{who}: initiative set to {successes} {when}."
    return None


def _existing(enc: Encounter, ids: Iterable[int]) -> list[Participant]:
    return [p for p in (enc.get(i) for i in ids) if p is not None]


def event_lines(enc: Encounter, events: Iterable[Event]) -> list[str]:
    return [line for line in (event_line(enc, e) for e in events) if line]


# --- turn announcements -------------------------------------------------------------------


def turn_announcement(enc: Encounter, events: Sequence[Event]) -> TurnAnnouncement:
    """Whose turn it is (with round and initiative), what happened as it started."""
    members = enc.current_participants
    started = next((e for e in events if isinstance(e, TurnStarted)), None)
    # Only player characters' owners are pinged: an NPC's turn pings nobody.
    owners = tuple(
        dict.fromkeys(p.owner_id for p in members if p.owner_id is not None and p.side is Side.PC)
    )
    initiative = "–" if started is None or started.successes is None else started.successes
    if members:
        who = slot_label(members)
        pings = " ".join(f"<@{i}>" for i in owners)
        lead = f"{pings} " if pings else ""
        content = f"{lead}**Round {enc.round}**, initiative {initiative}: it's **{who}**'s turn."
    else:
        content = "Nobody is left in the encounter."
    embed = discord.Embed(colour=COLOUR)
    rolled = next((e for e in events if isinstance(e, RoundStarted)), None)
    if rolled is not None:
        _add_field(embed, f"Round {rolled.round} initiative", [*_roll_lines(rolled), TIE_NOTE])
    lines = event_lines(enc, events)
    if lines:
        _add_field(embed, "Start of turn", lines)
    if len(members) == 1 and not shared_turn(members):
        embed.add_field(name="This round", value=actions_text(members[0]), inline=False)
    elif members:
        names = ", ".join(safe(m.name) for m in members)
        embed.add_field(
            name="Acting together",
            value=f"{names}\nMark a member's actions with /init act."[:FIELD_LIMIT],
            inline=False,
        )
    embed.set_footer(text=f"Turn {enc.turn}")
    return TurnAnnouncement(content=content[:2000], embed=embed, ping=owners)


def changes_embed(enc: Encounter, events: Sequence[Event], *, title: str) -> discord.Embed:
    """A short embed listing what a command changed."""
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    lines = event_lines(enc, events) or ["Done."]
    embed.description = _chunks(lines, DESCRIPTION_LIMIT)[0]
    return embed


def summary_embed(summary: Summary, *, show_npc_hp: bool = True) -> discord.Embed:
    """The end of the fight: how long it lasted, who stands and who fell."""
    rounds = f"{summary.rounds} round{'s' if summary.rounds != 1 else ''}"
    turns = f"{summary.turns} turn{'s' if summary.turns != 1 else ''}"
    embed = discord.Embed(
        title="Combat over", description=f"Lasted {rounds} ({turns}).", colour=DONE_COLOUR
    )

    def line(p: Participant) -> str:
        extra = visible_conditions(p, show_npc_hp=show_npc_hp)
        text = f"{safe(p.name)} — {vitals_text(p, show_npc_hp=show_npc_hp)}"
        return text + (f" · {extra}" if extra else "")

    for side in Side:
        standing = [line(p) for p in summary.standing if p.side is side]
        down = [f"~~{line(p)}~~" if p.is_dead else line(p) for p in summary.down if p.side is side]
        if standing or down:
            _add_field(embed, SIDE_PLURAL[side], standing + down)
    return embed
