"""A 2d10 task roll as an embed: every die (the dropped one struck out), every
modifier, the total and the to-hit table's band."""

from __future__ import annotations

import discord

from bot.render.text import safe
from bot.rules.twod10.tasks import Edge, TaskResult

SUCCESS = discord.Colour.green()
FAILURE = discord.Colour.red()


def dice_text(result: TaskResult) -> str:
    """``[7, ~~2~~, 9]``: the faces in the order rolled, the dropped one struck."""
    roll = result.roll
    faces = [f"~~{face}~~" if i == roll.dropped else str(face) for i, face in enumerate(roll.faces)]
    return f"[{', '.join(faces)}]"


def edge_text(result: TaskResult, advantage: int, disadvantage: int) -> str:
    edge = result.roll.edge
    if not advantage and not disadvantage:
        return "2d10"
    counts = f"advantage {advantage}, disadvantage {disadvantage}"
    if edge is Edge.NONE:
        return f"2d10 ({counts}: they cancel)"
    dropped = "lowest" if edge is Edge.ADVANTAGE else "highest"
    return f"3d10, {dropped} dropped ({counts}: {edge.value})"


def modifiers_text(result: TaskResult) -> str:
    return " ".join(f"{m.value:+d} {safe(m.label)}" for m in result.modifiers if m.value)


def task_embed(
    result: TaskResult,
    *,
    who: str,
    what: str,
    against: str,
    advantage: int,
    disadvantage: int,
    label: str | None = None,
) -> discord.Embed:
    """``who`` rolls ``what`` against ``against`` (a difficulty or a target's defense)."""
    title = f"{safe(who)}: {safe(what)}"
    if label:
        title += f" · {safe(label)}"
    band = result.band
    lines = [
        f"🎲 {edge_text(result, advantage, disadvantage)} {dice_text(result)} = {result.natural}",
        f"Against {safe(against)}",
    ]
    mods = modifiers_text(result)
    lines.append(f"**{result.total}** = {result.natural} {mods}".rstrip())
    lines.append(f"**{band.value.capitalize()}**")
    if result.natural_two:
        lines.append("Natural 2: the task fails whatever the modifiers.")
    elif result.natural_twenty:
        lines.append("Natural 20.")
    return discord.Embed(
        title=title[:256],
        description="\n".join(lines),
        colour=SUCCESS if band.succeeded else FAILURE,
    )
