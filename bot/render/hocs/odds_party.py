"""The /odds party reply: one line per player character, best chance first."""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.render.hocs.odds import CHART_NAME, COLOUR
from bot.render.odds_chart import render_distribution
from bot.render.text import percent, safe_line
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import TestOdds

MAX_ROWS = 40  # a description holds 4096 characters; a row is under 100


@dataclass(frozen=True)
class PartyRow:
    who: str
    what: str  # the pool's label, e.g. "Athletics (STR 3 + 1 training)"
    dice: int
    odds: TestOdds | None  # None: the character can't roll this skill
    why: str = ""  # already escaped for display


def _sort_key(row: PartyRow) -> tuple[int, object, str]:
    if row.odds is None:
        return (1, 0, row.who.casefold())
    return (0, -row.odds.success, row.who.casefold())


def party_odds_embed(
    skill: str, level: Difficulty, rows: list[PartyRow]
) -> tuple[discord.Embed, discord.File]:
    ordered = sorted(rows, key=_sort_key)
    title = f"Odds: {safe_line(skill)} against {level.label} ({int(level)}), every player character"
    lines = []
    for row in ordered[:MAX_ROWS]:
        who = safe_line(row.who)[:80]
        if row.odds is None:
            lines.append(f"**{who}**: can't roll it ({row.why[:150]})")
            continue
        lines.append(
            f"**{who}** — {safe_line(row.what)[:80]}, {row.dice}d6: **{percent(row.odds.success)}**"
            f" (advantage {percent(row.odds.advantage)})"
        )
    if len(ordered) > MAX_ROWS:
        lines.append(f"… and {len(ordered) - MAX_ROWS} more.")
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    embed.description = ("\n".join(lines) or "No player character in this campaign yet.")[:4096]
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text="Condition and injury banes included; nothing was rolled.")
    rolling = [row for row in ordered[:MAX_ROWS] if row.odds is not None]
    bars = [row.odds.success for row in rolling if row.odds is not None]
    png = render_distribution(
        bars or [0],
        threshold=None,
        x_label="player character (best chance first)",
        # Names as written: an image shows no markdown, so nothing is escaped.
        ticks=[" ".join(row.who.split()) for row in rolling] or [""],
    )
    return embed, discord.File(io.BytesIO(png), filename=CHART_NAME)
