"""Rests and respites as embeds: the factors, every die, and what changed.

Names arrive already escaped; nothing here pings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.rules.hocs.many_dice import ManyDiceResult
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.rest import (
    RecoverySpending,
    RespiteChoice,
    RespiteResult,
    RestingFactor,
    RestKind,
    RestResult,
)

COLOUR = discord.Colour.dark_green()
NEGATIVE_COLOUR = discord.Colour.dark_orange()
FIELD_LIMIT = 1024
MAX_FIELDS = 20


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def many_dice_line(result: ManyDiceResult) -> str:
    """``3d6: 2 · 5 · **6** = **6**``: the kept die in bold, +1 per other die at its maximum."""
    sizes = result.pool.sizes
    label = f"{len(sizes)}d{sizes[0]}" if len(set(sizes)) == 1 else "+".join(f"d{s}" for s in sizes)
    faces = [
        f"**{die.face}**" if i == result.chosen_index else str(die.face)
        for i, die in enumerate(result.pool.dice)
    ]
    text = f"{label}: {' · '.join(faces)}"
    if result.max_bonus:
        text += f" +{result.max_bonus} (other dice at their maximum)"
    return f"{text} = **{result.total}**"


@dataclass(frozen=True, kw_only=True)
class RestFactors:
    place: RestingFactor
    resources: RestingFactor
    time: RestingFactor
    wounds: int = 0  # the wounds' modifier (−5 per resting wound)

    @property
    def base(self) -> int:
        """The value from the three factors alone."""
        return self.place.value + self.resources.value + self.time.value

    def line(self, value: int) -> str:
        parts = [
            f"place {self.place.name.lower()} ({signed(self.place.value)})",
            f"resources {self.resources.name.lower()} ({signed(self.resources.value)})",
            f"time {self.time.name.lower()} ({signed(self.time.value)})",
        ]
        if self.wounds:
            parts.append(f"wounds {signed(self.wounds)}")
        return f"Resting value: {' · '.join(parts)} = **{signed(value)}**"


@dataclass(frozen=True, kw_only=True)
class RestReport:
    """One character's rest, as the cog computed it."""

    name: str
    factors: RestFactors
    result: RestResult
    spending: RecoverySpending | None = None
    test_label: str | None = None
    test_roll: PoolResult | None = None


def _test_dice(roll: PoolResult) -> str:
    faces = [f"**{d.final_face}**" if d.final_face >= 4 else str(d.final_face) for d in roll.dice]
    return " · ".join(faces) if faces else "no dice"


def _changes(result: RestResult | RespiteResult) -> str:
    parts = [
        f"HP {result.hp_before.current} → {result.hp_after.current}/{result.hp_after.maximum}",
        f"recovery {result.recovery_before.current} → {result.recovery_after.current}"
        f"/{result.recovery_after.maximum}",
        f"determination {result.determination_before.current} →"
        f" {result.determination_after.current}/{result.determination_after.maximum}",
    ]
    return " · ".join(parts)


def rest_lines(report: RestReport, *, compact: bool = False) -> list[str]:
    result = report.result
    lines = [] if compact else [report.factors.line(result.value)]
    if report.spending is not None:
        spent = report.spending
        rolls = ", ".join(many_dice_line(r) for r in spent.rolls)
        n = len(spent.rolls)
        lines.append(
            f"Spent {n} recovery point{'s' if n != 1 else ''}: {rolls}"
            f" → +{spent.hp_after.current - spent.hp_before.current} HP"
        )
    if result.kind is RestKind.POSITIVE:
        assert result.roll is not None
        hp_gain = result.hp_after.current - result.hp_before.current - result.nonlethal_restored
        rec_gain = result.recovery_after.current - result.recovery_before.current
        det_gain = result.determination_after.current - result.determination_before.current
        plural = "s" if result.points != 1 else ""
        lines.append(f"Rolled {many_dice_line(result.roll)} point{plural}.")
        lines.append(
            f"Shared: +{hp_gain} HP · +{det_gain} determination · +{rec_gain} recovery"
            + (f" ({result.wasted} wasted past the maxima)" if result.wasted else "")
        )
    elif result.kind is RestKind.ZERO:
        assert result.roll is not None
        lines.append(f"A rest of value 0: {many_dice_line(result.roll)} hit points.")
    else:
        roll = report.test_roll
        verdict = "success: 1 hit point" if result.test_passed else "failure: fatigued"
        dice = _test_dice(roll) if roll is not None else ""
        lines.append(
            f"{report.test_label} test vs {result.test_difficulty}: {dice} →"
            f" {result.test_successes} success{'' if result.test_successes == 1 else 'es'},"
            f" **{verdict}**" + ("" if result.test_passed else " (until a rest of positive value)")
        )
    if result.nonlethal_restored:
        lines.append(f"{result.nonlethal_restored} HP lost to non-lethal damage came back.")
    gone = [c.value for c in result.conditions_before if c not in result.conditions_after]
    if gone:
        lines.append(f"No longer {', '.join(gone)}.")
    lines.append(_changes(result))
    return lines


def rest_embed(report: RestReport) -> discord.Embed:
    negative = report.result.kind is RestKind.NEGATIVE and not report.result.test_passed
    return discord.Embed(
        title=f"{report.name} rests",
        description="\n".join(rest_lines(report))[:4000],
        colour=NEGATIVE_COLOUR if negative else COLOUR,
    )


def party_rest_embed(
    factors: RestFactors, reports: Sequence[RestReport], skipped: Sequence[str]
) -> discord.Embed:
    """Every player character's rest in one embed (a field each, fitted to Discord's limits)."""
    lines = [factors.line(factors.base)]
    if any(r.factors.wounds for r in reports):
        lines.append("Wounds lower some characters' resting value (shown per character).")
    if skipped:
        lines.append(f"Not resting (dead): {', '.join(skipped)}.")
    embed = discord.Embed(title="The party rests", description="\n".join(lines), colour=COLOUR)
    budget = 5500 - len(embed.description or "")
    shown = reports[:MAX_FIELDS]
    per_field = min(FIELD_LIMIT, max(120, budget // max(1, len(shown)) - 60))
    for report in shown:
        body = rest_lines(report, compact=True)
        if report.factors.wounds:
            body.insert(
                0, f"Value {signed(report.result.value)} (wounds {signed(report.factors.wounds)})."
            )
        text = "\n".join(body)
        if len(text) > per_field:
            text = text[: per_field - 1] + "…"
        embed.add_field(name=report.name[:256], value=text, inline=False)
    if len(reports) > len(shown):
        others = ", ".join(r.name for r in reports[len(shown) :])
        embed.add_field(name="Also rested", value=others[:FIELD_LIMIT], inline=False)
    return embed


def respite_embed(name: str, result: RespiteResult) -> discord.Embed:
    spent = result.recovery_before.current - result.recovery_after.current
    lines = [f"Spent {spent} recovery point ({result.recovery_after.current} left)."]
    if result.choice is RespiteChoice.HIT_POINTS:
        assert result.roll is not None
        healed = result.hp_after.current - result.hp_before.current - result.nonlethal_restored
        lines.append(f"[1d STR] {many_dice_line(result.roll)} → +{healed} HP.")
    else:
        gained = result.determination_after.current - result.determination_before.current
        lines.append(f"+{gained} determination point.")
    if result.nonlethal_restored:
        lines.append(f"{result.nonlethal_restored} HP lost to non-lethal damage came back.")
    lines.append(_changes(result))
    return discord.Embed(
        title=f"{name} takes a respite", description="\n".join(lines), colour=COLOUR
    )
