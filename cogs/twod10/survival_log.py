"""Dying, medicine and light rolls in the roll log, like every other 2d10 roll.

The roll log's ``character_id`` references HOCS characters, so it stays NULL and the
2d10 character ids go in the JSON result (as /task and /attack log theirs).
"""

from __future__ import annotations

from typing import Any

import aiosqlite
from discord.ext import commands

from bot.rules.twod10.light import Drop, Light
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


async def log_burn_time(
    conn: aiosqlite.Connection, ctx: commands.Context[Any], *, sheet: TwoD10Sheet,
    light_id: int, lit: Light,
) -> int:  # fmt: skip
    """A light's burn time (lit, or a lantern relit with oil) as kind 2d10-light: secret,
    as the GM alone knows it (ruling burn-time)."""
    count, sides = lit.kind.burn_dice
    return await _log_light(
        conn, ctx, secret=True, total=lit.remaining,
        expression=f"{lit.kind.value} #{light_id} burn time for {sheet.name}:"
                   f" {count}d{sides} highest {lit.remaining}",
        result={"roll": "burn", "light": lit.kind.value, "light_id": light_id,
                "character_id": sheet.id, "faces": list(lit.burn_roll), "sides": sides,
                "total": lit.remaining},
    )  # fmt: skip


async def log_drop(
    conn: aiosqlite.Connection, ctx: commands.Context[Any], *, sheet: TwoD10Sheet,
    light_id: int, dropped: Drop,
) -> int:  # fmt: skip
    """A dropped light's d4 or d12 (ruling light-drop) as kind 2d10-light, public as its reply."""
    kind = dropped.before.kind.value
    out = "goes out" if dropped.went_out else "stays lit"
    return await _log_light(
        conn, ctx, secret=False, total=dropped.face,
        expression=f"{kind} #{light_id} dropped by {sheet.name}: d{dropped.sides}"
                   f" {dropped.face}, {out}",
        result={"roll": "drop", "light": kind, "light_id": light_id, "character_id": sheet.id,
                "faces": [dropped.face], "sides": dropped.sides, "total": dropped.face,
                "went_out": dropped.went_out},
    )  # fmt: skip


async def _log_light(
    conn: aiosqlite.Connection, ctx: commands.Context[Any], *, secret: bool, total: int,
    expression: str, result: dict[str, Any],
) -> int:  # fmt: skip
    assert ctx.guild is not None
    return await RollLogRepository(conn).record(
        guild_id=ctx.guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
        kind="2d10-light", expression=expression[:MAX_EXPRESSION],
        result={"ruleset": "2d10", **result}, total=total, secret=secret,
    )  # fmt: skip
