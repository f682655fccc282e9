"""Embeds and chart for /odds damage: the damage dealt, then what it does to a target."""

from __future__ import annotations

import io
from fractions import Fraction

import discord

from bot.render.hocs.odds import CHART_NAME, COLOUR
from bot.render.odds_chart import render_distribution
from bot.render.text import percent, safe_line
from bot.rules.hocs.odds_damage import DamageOdds, HitOdds
from bot.rules.hocs.threshold import ThresholdState
from bot.rules.hocs.wounds import WOUND_DAMAGE

# Amounts listed one by one (then "n or more" exactly); an embed field holds 1024 characters.
MAX_LINES = 40


def _top(damage: DamageOdds, plain_top: int) -> int:
    """The last amount listed on its own: what the dice reach without an explosion."""
    first = damage.weights[0][0]
    return min(max(plain_top, first), first + MAX_LINES - 1)


def _lines(damage: DamageOdds, top: int) -> tuple[list[str], list[Fraction]]:
    lines, bars = [], []
    for amount, w in damage.weights:
        if amount > top:
            break
        lines.append(f"{amount}: {percent(Fraction(w, damage.den))}")
    rest = damage.at_least(top + 1)
    if rest:
        lines.append(f"{top + 1} or more: {percent(rest)}")
    for amount in range(top + 2):
        bars.append(damage.chance(amount) if amount <= top else rest)
    return lines, bars


def damage_odds_embed(
    title: str,
    damage: DamageOdds,
    *,
    plain_top: int,
    reduction: int,
    hit: HitOdds | None,
    target: str | None,
    notes: list[str],
) -> tuple[discord.Embed, discord.File]:
    """``plain_top``: the most the pool deals without an explosion; ``reduction``: the
    toughness or mettle (resistance included) the amounts meet; ``hit``: the target's
    outcomes, when the asker may see its hit points."""
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if notes:
        embed.description = "\n".join(notes)[:4096]
    top = _top(damage, plain_top)
    lines, bars = _lines(damage, top)
    embed.add_field(name="Expected damage", value=f"{float(damage.expected):.2f}")
    wound = hit.wound_check if hit is not None else damage.at_least(WOUND_DAMAGE + reduction)
    if reduction or hit is not None:
        embed.add_field(name="Reduced by", value=f"{reduction} (at least 1 HP is lost)")
    embed.add_field(name="Damage dealt", value="\n".join(lines)[:1024], inline=False)
    alive = ", if alive" if hit else ""
    outcome = [f"Wound check ({WOUND_DAMAGE}+ after reductions{alive}): {percent(wound)}"]
    if hit is not None:
        who = safe_line(target or "the target")[:100]
        outcome = [
            f"{who} dies (beyond the threshold): **{percent(hit.dead)}**",
            f"Threshold test (inside the threshold): "
            f"{percent(hit.states.get(ThresholdState.TEST_REQUIRED, Fraction(0)))}",
            f"Knocked out (non-lethal): "
            f"{percent(hit.states.get(ThresholdState.KNOCKED_OUT, Fraction(0)))}",
            f"Stays above 0 HP: {percent(hit.states.get(ThresholdState.FINE, Fraction(0)))}",
            *outcome,
        ]
    embed.add_field(name="What it does", value="\n".join(outcome)[:1024], inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text="Exact odds; the kept die is the one the bot keeps (best expected).")
    # bars[-1] is "top + 1 or more" (_lines).
    png = render_distribution(bars, threshold=None, x_label="damage dealt", open_end=True)
    return embed, discord.File(io.BytesIO(png), filename=CHART_NAME)
