"""Embeds for /odds: exact chances as percentages, with the chart attached."""

from __future__ import annotations

import discord

from bot.render.odds_chart import FAIL, PASS, render_distribution
from bot.render.text import percent
from bot.rules.hocs.odds import PoolOdds, TestOdds

CHART_NAME = "odds.png"
COLOUR = discord.Colour.blurple()


def preview_line(pool: PoolOdds, test: TestOdds | None) -> str:
    """One line of odds shown above the dice of a roll asked with ``odds:True``."""
    parts = []
    if test is not None and test.difficulty.needs_roll:
        parts += [f"success {percent(test.success)}", f"advantage {percent(test.advantage)}"]
    parts.append(f"expected {float(pool.expected):.2f} successes")
    return "-# Odds before the roll: " + " · ".join(parts)


def _distribution_lines(pool: PoolOdds) -> str:
    last = max((k for k, p in enumerate(pool.dist) if p), default=0)
    lines = []
    for k in range(last + 1):
        sign = "+" if k == pool.cap else ""
        lines.append(f"{k}{sign}: {percent(pool.dist[k])}")
    return "\n".join(lines)


def chart_file(pool: PoolOdds, threshold: int | None) -> discord.File:
    import io

    last = max((k for k, p in enumerate(pool.dist) if p), default=0)
    legend = []
    if threshold is not None:
        # Difficulty 0 (no roll needed) passes on any count: one green legend entry.
        legend = [(f"fails (under {threshold})", FAIL)] if threshold > 0 else []
        legend.append((f"succeeds ({threshold}+)", PASS))
    png = render_distribution(
        pool.dist[: last + 1],
        threshold=threshold,
        x_label="successes",
        legend=legend,
        open_end=last == pool.cap,  # dist[cap] is "cap or more"
    )
    return discord.File(io.BytesIO(png), filename=CHART_NAME)


def test_odds_embed(title: str, odds: TestOdds) -> discord.Embed:
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    embed.add_field(
        name=f"Against {odds.difficulty.label} ({int(odds.difficulty)})",
        value="\n".join(
            [
                f"Success: **{percent(odds.success)}**",
                f"Success with advantage: {percent(odds.advantage)}",
                f"Failure: {percent(odds.failure)}",
                f"Failure by 2 or more: {percent(odds.failure_by_two)}",
                f"Critical failure (determination 1): {percent(odds.critical_failure)}",
            ]
        ),
        inline=False,
    )
    _pool_fields(embed, odds.pool)
    return embed


def pool_odds_embed(title: str, pool: PoolOdds) -> discord.Embed:
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    _pool_fields(embed, pool)
    return embed


def _pool_fields(embed: discord.Embed, pool: PoolOdds) -> None:
    expected = pool.expected
    embed.add_field(
        name="Expected successes", value=f"{float(expected):.2f} (exactly {expected})"[:1024]
    )
    embed.add_field(name="Successes", value=_distribution_lines(pool)[:1024], inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text="Exact odds, modifiers spent as the dice spend them.")


test_odds_embed.__test__ = False  # type: ignore[attr-defined]
