"""Clash embeds: every round of a clash (earlier ones collapsed to fit), then the verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

from bot.render.hocs.skill_roll_dice import (
    ADVANTAGE_COLOUR,
    EMBED_BUDGET,
    FAILURE_COLOUR,
    FIELD_LIMIT,
    NEUTRAL_COLOUR,
    SUCCESS_COLOUR,
    TITLE_LIMIT,
    RollHeading,
    dice_markdown,
    legend,
    pool_summary,
    successes_text,
)
from bot.render.text import plural, safe_line
from bot.rules.hocs.clash import ClashDecision, ClashResult, ClashRound, ClashSide
from bot.rules.hocs.pool import PoolResult


@dataclass(frozen=True, kw_only=True)
class ClashSides:
    """The two headings of a clash: ``a`` is the roller (the attacker in an attack)."""

    a: RollHeading
    b: RollHeading
    notes: tuple[str, ...] = field(default=())


def _round_reason(rnd: ClashRound) -> str:
    if rnd.a.successes == 0 and rnd.b.successes == 0:
        return "no successes on either side, repeated"
    return "tied in successes and 6s, repeated"


def _side_line(name: str, roll: PoolResult, *, limit: int) -> str:
    head = f"{name}: "
    tail = f" → {successes_text(roll.successes)}"
    if roll.sixes:
        tail += f", {roll.sixes} six{'es' if roll.sixes != 1 else ''}"
    budget = max(20, limit - len(head) - len(tail))
    return f"{head}{dice_markdown(roll, limit=budget)}{tail}"


def _round_value(names: tuple[str, str], rnd: ClashRound, *, limit: int = FIELD_LIMIT) -> str:
    half = (limit - 1) // 2
    return "\n".join(
        (_side_line(names[0], rnd.a, limit=half), _side_line(names[1], rnd.b, limit=half))
    )


def clash_verdict(result: ClashResult, names: tuple[str, str]) -> list[str]:
    final = result.final
    score = f"{final.a.successes} vs {final.b.successes}"
    if result.winner is None:
        if result.decided_by is ClashDecision.NO_DICE:
            return ["**Stand-off**: neither side has any dice, so nobody can win."]
        return [f"**Stand-off**: still deadlocked after {len(result.rounds)} rounds."]
    winner = names[0] if result.winner is ClashSide.A else names[1]
    reason = {
        ClashDecision.SUCCESSES: f"more successes ({score})",
        ClashDecision.SIXES: (f"tied {score}, more 6s ({final.a.sixes} vs {final.b.sixes})"),
        ClashDecision.ATTACKER_WINS_TIE: f"tied {score}, the attacker wins ties",
        ClashDecision.NO_DICE: "neither side has dice and the attacker wins ties",
        ClashDecision.ROUND_LIMIT: "the round limit",
    }[result.decided_by]
    lines = [f"**{winner} wins** — {reason}; margin {result.margin}."]
    if result.advantage:
        lines.append(f"Advantage: {winner} won by 2 or more successes.")
    return lines


def clash_embed(sides: ClashSides, result: ClashResult) -> discord.Embed:
    """Every round of a clash (earlier ones collapsed if they would not fit), then the verdict."""
    names = (safe_line(sides.a.who), safe_line(sides.b.who))
    # "Name with Skill (STR 3)": the skill label has its own brackets, so none around it.
    kind = "Attack" if result.attack else "Clash"
    title = f"{kind}: {names[0]} with {sides.a.what} vs {names[1]} with {sides.b.what}"
    if sides.a.label:
        title += f" — {safe_line(sides.a.label)}"
    if len(title) > TITLE_LIMIT:
        title = title[: TITLE_LIMIT - 1] + "…"
    lines = [
        f"{names[0]}: {pool_summary(result.a, sides.a.condition_banes)}",
        f"{names[1]}: {pool_summary(result.b, sides.b.condition_banes)}",
    ]
    if result.attack:
        lines.append(f"{names[0]} attacks: the attacker wins ties.")
    lines.extend(clash_verdict(result, names))
    if len(result.rounds) > 1:
        rounds = plural(len(result.rounds) - 1, "deadlocked round")
        lines.append(f"{rounds} repeated before the last.")
    lines.extend(sides.notes)
    lines.extend(sides.a.notes)
    lines.extend(sides.b.notes)
    description = "\n".join(lines)[:4000]
    if result.winner is None:
        colour = NEUTRAL_COLOUR
    elif result.winner is ClashSide.A:
        colour = ADVANTAGE_COLOUR if result.advantage else SUCCESS_COLOUR
    else:
        colour = FAILURE_COLOUR
    embed = discord.Embed(title=title, description=description, colour=colour)
    footer = legend([r.a for r in result.rounds] + [r.b for r in result.rounds])
    budget = EMBED_BUDGET - len(title) - len(description) - len(footer)
    fields = _round_fields(names, result, budget)
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    if footer:
        embed.set_footer(text=footer)
    return embed


def _round_fields(
    names: tuple[str, str], result: ClashResult, budget: int
) -> list[tuple[str, str]]:
    """Fields for the rounds, newest kept in full; older ones collapsed when space runs out."""
    rounds = result.rounds
    last = len(rounds)
    final_name = f"Round {last}" + (" (deciding)" if last > 1 else "")
    final_value = _round_value(names, rounds[-1], limit=min(FIELD_LIMIT, max(200, budget // 2)))
    used = len(final_name) + len(final_value)
    earlier: list[tuple[str, str]] = []
    collapsed_upto = 0
    for index in range(last - 1, 0, -1):  # rounds last-1 … 1, newest first
        rnd = rounds[index - 1]
        name = f"Round {index} — {_round_reason(rnd)}"
        value = _round_value(names, rnd, limit=400)
        if used + len(name) + len(value) + 120 > budget or len(earlier) >= 20:
            collapsed_upto = index
            break
        used += len(name) + len(value)
        earlier.append((name, value))
    fields: list[tuple[str, str]] = []
    if collapsed_upto:
        span = "Round 1" if collapsed_upto == 1 else f"Rounds 1–{collapsed_upto}"
        fields.append((span, "Deadlocked and repeated (dice not shown to fit Discord's limits)."))
    fields.extend(reversed(earlier))
    fields.append((final_name, final_value))
    return fields


def _winner_name(result: ClashResult, names: tuple[str, str]) -> str:
    if result.winner is None:
        return "a stand-off"
    return safe_line(names[0] if result.winner is ClashSide.A else names[1])


def winner_change_line(old: ClashResult, new: ClashResult, names: tuple[str, str]) -> str | None:
    """The line a spend adds when it changes who wins a clash (None when it doesn't)."""
    if old.winner == new.winner:
        return None
    repeated = len(new.rounds) - len(old.rounds)
    extra = f" after {plural(repeated, 'more round')}" if repeated > 0 else ""
    return f"**The clash changes{extra}**: {_winner_name(old, names)} → {_winner_name(new, names)}."
