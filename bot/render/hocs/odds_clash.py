"""Embeds and the odds line for a clash's exact chances (/odds clash, /clash odds:True)."""

from __future__ import annotations

import io

import discord

from bot.render.hocs.odds import CHART_NAME, COLOUR
from bot.render.odds_chart import AXIS, FAIL, PASS, render_distribution
from bot.render.text import percent, safe_line
from bot.rules.hocs.odds_clash import ClashOdds

# Winning by 2+ in a darker shade of the side's colour.
_A_ADV, _B_ADV = (59, 165, 93), (161, 45, 47)


def clash_preview_line(odds: ClashOdds) -> str:
    """One line shown above the dice of a clash rolled with ``odds:True``."""
    parts = [f"you win {percent(odds.a_wins)}", f"they win {percent(odds.b_wins)}"]
    if odds.standoff:
        parts.append(f"stand-off {percent(odds.standoff)}")
    return "-# Odds before the roll: " + " · ".join(parts)


def clash_odds_embed(title: str, a: str, b: str, odds: ClashOdds) -> discord.Embed:
    """``a`` and ``b``: who each side is (escaped here)."""
    a, b = safe_line(a)[:100], safe_line(b)[:100]
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    tie = "the attacker" if odds.attack else "more 6s, then the round is rolled again"
    embed.description = (
        f"{'An attack' if odds.attack else 'A clash'}: ties go to {tie}; a round with no"
        f" success is rolled again, up to {odds.rounds} rounds."
    )
    for who, wins, adv in ((a, odds.a_wins, odds.a_advantage), (b, odds.b_wins, odds.b_advantage)):
        embed.add_field(
            name=f"{who} wins"[:256],
            value=f"**{percent(wins)}**\nby 2+ (advantage): {percent(adv)}",
        )
    embed.add_field(
        name="Stand-off",
        value=f"{percent(odds.standoff)}\nEach round repeats with {percent(odds.repeat)}.",
    )
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text="Exact odds, modifiers spent as the dice spend them.")
    return embed


def clash_chart(odds: ClashOdds, *, sides: tuple[str, str] = ("1st", "2nd")) -> discord.File:
    """Five bars: A by 2+, A by less, stand-off, B by less, B by 2+; ``sides``: short
    names of A and B for the ticks and the legend."""
    bars = [
        odds.a_advantage,
        odds.a_wins - odds.a_advantage,
        odds.standoff,
        odds.b_wins - odds.b_advantage,
        odds.b_advantage,
    ]
    a, b = (" ".join(side.split()) for side in sides)  # an image shows no markdown
    png = render_distribution(
        bars,
        threshold=None,
        x_label="outcome",
        colours=[_A_ADV, PASS, AXIS, FAIL, _B_ADV],
        ticks=[f"{a}\nby 2+", f"{a}\nby less", "stand-off", f"{b}\nby less", f"{b}\nby 2+"],
        legend=[(f"{a} wins", PASS), ("stand-off", AXIS), (f"{b} wins", FAIL)],
    )
    return discord.File(io.BytesIO(png), filename=CHART_NAME)
