"""2d10 odds as embeds: each to-hit row, the damage distribution, a chart attached.

Percentages are the exact fractions printed to two decimals, rounded half up, as the
HOCS odds print them (``bot.render.text.percent``).
"""

from __future__ import annotations

import io
from fractions import Fraction

import discord

from bot.render.odds_chart import FAIL, PASS, render_distribution
from bot.render.text import percent, safe
from bot.rules.twod10.bands import OutcomeBand
from bot.rules.twod10.odds import FIRST_SUCCESS_ROW, NATURAL_TWO_ROW, ROWS, TaskOdds
from bot.rules.twod10.odds_attack import COVER_ROW, AttackOdds, LookOdds
from bot.rules.twod10.tasks import Edge, Modifier

CHART_NAME = "odds.png"
COLOUR = discord.Colour.blurple()
FIELD_LIMIT = 1024
FOOTER = "Exact odds from the same rules functions as the dice."

_ROW_LABELS = {
    NATURAL_TWO_ROW: "Natural 2 (always fails)",
    COVER_ROW: "Stopped by hard cover",
}


def row_label(row: str) -> str:
    return _ROW_LABELS.get(row, row[:1].upper() + row[1:])


def _edge_text(edge: Edge) -> str:
    return {
        Edge.NONE: "2d10",
        Edge.ADVANTAGE: "3d10, lowest dropped (advantage)",
        Edge.DISADVANTAGE: "3d10, highest dropped (disadvantage)",
    }[edge]


def _chunks(lines: list[str]) -> list[str]:
    """Lines packed into field values of at most 1,024 characters."""
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= FIELD_LIMIT:
            out[-1] += "\n" + line
        else:
            out.append(line[:FIELD_LIMIT])
    return out


def two_places(value: Fraction) -> str:
    """A number to two decimals, rounded half away from zero on the exact value."""
    hundredths = (abs(value) * 200 + 1) // 2
    sign = "-" if value < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def _rows_text(rows: list[tuple[str, Fraction]]) -> str:
    return "\n".join(f"{row_label(row)}: {percent(p)}" for row, p in rows)


def task_odds_embed(title: str, against: str, odds: TaskOdds) -> discord.Embed:
    """``title`` names who rolls what; ``against`` the difficulty or the target's defense."""
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    embed.description = (
        f"{_edge_text(odds.edge)} {odds.modifier:+d} against {safe(against)}\n"
        f"Success: **{percent(odds.success)}**"
    )[:4096]
    embed.add_field(
        name="To-hit table",
        value=_rows_text(list(zip(ROWS, odds.row_chances(), strict=True))),
        inline=False,
    )
    embed.add_field(name="Natural 20", value=percent(odds.natural_twenty))
    embed.add_field(name="Expected total", value=two_places(odds.expected_total))
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=FOOTER)
    return embed


# The rows' names under the chart's bars, short enough for a bar's width.
_ROW_TICKS = {
    NATURAL_TWO_ROW: "natural 2",
    OutcomeBand.EXTREME_FAILURE.value: "extreme failure",
    OutcomeBand.FAILURE.value: "failure",
    OutcomeBand.SUCCESS_WITH_COMPLICATION.value: "with complication",
    OutcomeBand.SUCCESS.value: "success",
    OutcomeBand.SUCCESS_WITH_BONUS.value: "with bonus",
    OutcomeBand.EXTRA_ACTION.value: "extra action",
}


def task_chart(odds: TaskOdds) -> discord.File:
    """One bar per row (natural 2 first), red for the failures, green for the successes."""
    png = render_distribution(
        odds.row_chances(),
        threshold=FIRST_SUCCESS_ROW,
        x_label="to-hit table row",
        ticks=[_ROW_TICKS.get(row, row) for row in ROWS],
        legend=[("failure", FAIL), ("success", PASS)],
    )
    return discord.File(io.BytesIO(png), filename=CHART_NAME)


def task_preview_line(odds: TaskOdds) -> str:
    """The line ``odds:True`` puts above a /task's dice."""
    return (
        f"-# Odds before the roll: success {percent(odds.success)}"
        f" · natural 2 {percent(odds.row_chances()[0])}"
    )


def _mods_text(modifiers: tuple[Modifier, ...]) -> str:
    return " ".join(f"{m.value:+d} {safe(m.label)}" for m in modifiers if m.value)


def look_lines(look: LookOdds) -> list[str]:
    """The look through soft cover rolled before the attack, and each cover it leaves."""
    reasons = look.outcomes[0][1].disadvantages
    why = f" ({', '.join(reasons)})" if reasons else ""
    left = []
    for p, sight in look.outcomes:
        label = f"{sight.remaining} left" + (", disadvantage" if sight.disadvantage else "")
        left.append(f"{label} {percent(p)}")
    return [
        f"Look through soft cover {look.cover} first: {_edge_text(look.edge)}{why}"
        f" {_mods_text(look.modifiers)}",
        f"Sees through: {percent(look.seen)}; soft cover " + " · ".join(left),
    ]


def attack_odds_embed(
    title: str, against: str, odds: AttackOdds, *, target_hp: int | None = None
) -> discord.Embed:
    """The rows, the hit, the maneuver, a stray, then the damage the target takes.

    Into soft cover the look's line comes first and the attack's line is the attack's
    before the look is judged (the figures below mix every outcome of the look)."""
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    lines = look_lines(odds.look) if odds.look is not None else []
    mods = _mods_text(odds.plan.modifiers)
    if odds.look is not None:
        mods += " - the soft cover left"
    lines += [f"{_edge_text(odds.edge)} {mods}".rstrip(), f"Against {safe(against)}"]
    edges = [f"advantage: {', '.join(odds.plan.advantages)}"] if odds.plan.advantages else []
    if odds.plan.disadvantages:
        edges.append(f"disadvantage: {', '.join(odds.plan.disadvantages)}")
    if edges:
        lines.append("; ".join(edges))
    lines.append(f"Hit: **{percent(odds.hit)}**")
    if odds.maneuver_success is not None:
        lines.append(f"Maneuver takes effect: {percent(odds.maneuver_success)}")
    if odds.plan.stray_others is not None:
        lines.append(f"Strays into another combatant: {percent(odds.stray)}")
    embed.description = "\n".join(lines)[:4096]
    embed.add_field(name="To-hit table", value=_rows_text(list(odds.rows)), inline=False)
    summary = [
        f"Expected: {two_places(odds.expected_damage)}",
        f"Any damage: {percent(odds.at_least(1))}",
    ]
    if target_hp is not None and target_hp > 0:
        summary.append(f"{target_hp}+ (to 0 HP or below): {percent(odds.at_least(target_hp))}")
    embed.add_field(name="Damage to the target", value="\n".join(summary), inline=False)
    dist = [f"{k}: {percent(p)}" for k, p in enumerate(odds.damage) if p]
    for i, chunk in enumerate(_chunks(dist)[:4]):
        embed.add_field(name="Damage" if i == 0 else "Damage (cont.)", value=chunk)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=FOOTER)
    return embed


def attack_chart(odds: AttackOdds, *, target_hp: int | None = None) -> discord.File:
    """Bars for each damage 0, 1, …; green from what takes the target to 0 HP (else from 1)."""
    if target_hp is not None and target_hp > 0:
        threshold = target_hp
        legend = [(f"under {target_hp}: stays above 0 HP", FAIL), (f"{target_hp}+: to 0 HP", PASS)]
    else:
        threshold, legend = 1, [("no damage", FAIL), ("damage", PASS)]
    png = render_distribution(
        odds.damage, threshold=threshold, x_label="damage to the target", legend=legend
    )
    return discord.File(io.BytesIO(png), filename=CHART_NAME)


def attack_preview_line(odds: AttackOdds) -> str:
    """The line ``odds:True`` puts above an /attack's dice (the look's included)."""
    line = (
        f"-# Odds before the roll: hit {percent(odds.hit)}"
        f" · expected damage {two_places(odds.expected_damage)}"
    )
    if odds.look is not None:
        line += f" · the look sees through the soft cover {percent(odds.look.seen)}"
    return line
