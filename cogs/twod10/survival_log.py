"""Dying and medicine rolls in the roll log, like every other 2d10 roll.

The roll log's ``character_id`` references HOCS characters, so it stays NULL and the
2d10 character ids go in the JSON result (as /task and /attack log theirs).
"""

from __future__ import annotations

from typing import Any

import aiosqlite
from discord.ext import commands

from bot.rules.twod10.tasks import TaskResult
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Sheet

MAX_EXPRESSION = 500


def task_record(result: TaskResult) -> dict[str, Any]:
    """Every die and modifier of one task roll, as /task logs them."""
    return {
        "ruleset": "2d10",
        "faces": list(result.roll.faces),
        "dropped": result.roll.dropped,
        "edge": result.roll.edge.value,
        "modifiers": [{"label": m.label, "value": m.value} for m in result.modifiers],
        "natural": result.natural,
        "total": result.total,
        "succeeded": result.succeeded,
    }


async def log_roll(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int | None,
    user_id: int,
    kind: str,
    expression: str,
    result: TaskResult,
    details: dict[str, Any],
) -> int:
    """One roll-log row in the command's transaction (``kind``: 2d10-dying, 2d10-medicine)."""
    return await RollLogRepository(conn).record(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        kind=kind,
        expression=expression[:MAX_EXPRESSION],
        result={**task_record(result), **details},
        total=result.total,
        secret=False,
    )


async def log_medicine(
    conn: aiosqlite.Connection,
    ctx: commands.Context[Any],
    *,
    what: str,
    patient: TwoD10Sheet,
    medic: str,
    result: TaskResult,
    hp: tuple[int, int],
    extra: dict[str, Any] | None = None,
) -> int:
    """A medicine roll (daily, stabilise, short rest, attribute damage) as kind 2d10-medicine."""
    assert ctx.guild is not None
    return await log_roll(
        conn, guild_id=ctx.guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
        kind="2d10-medicine",
        expression=f"medicine ({what}) by {medic} on {patient.name}: {result.total}",
        result=result,
        details={"use": what, "character_id": patient.id, "medic": medic, "hp": list(hp),
                 **(extra or {})},
    )  # fmt: skip
