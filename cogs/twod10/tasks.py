"""/task: 2d10 + attribute + skill against the difficulty ladder or a target's defense.

The roll comes from the character's sheet (the named one, else the active one), or
from raw numbers (``score`` and ``rank``) with no sheet. It is logged in the roll log
with kind ``2d10-task``; the roll log's ``character_id`` points at HOCS characters, so
the 2d10 character's id is kept in the logged result instead.
"""

from __future__ import annotations

import logging
from typing import Any

from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import deliver_to_gm
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import safe
from bot.render.twod10.odds import task_preview_line
from bot.render.twod10.task import task_embed
from bot.rules.errors import RulesError
from bot.rules.twod10.tasks import TaskResult, roll_task
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Sheet
from cogs.declared_options import Chosen, takes
from cogs.twod10 import options
from cogs.twod10.access import resolve_sheet
from cogs.twod10.encumbrance_state import load_encumbrance
from cogs.twod10.rulings import RULINGS
from cogs.twod10.task_inputs import (
    TASK_OPTIONS,
    Against,
    TaskNumbers,
    chances,
    resolve_against,
    task_numbers,
    task_options,
)

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
KIND = "2d10-task"


def _rules(exc: RulesError) -> UserError:
    return options.rules(exc)


class TaskCog(RulesetCog, name="2d10 tasks"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(
        name="task", description="Roll a 2d10 task", extras={"rulings": RULINGS["task"]}
    )
    @commands.guild_only()
    @takes(*TASK_OPTIONS)
    async def task(self, ctx: Ctx, o: Chosen) -> None:
        """Roll 2d10 + attribute + skill; the reply names the to-hit table's band."""
        guild = guild_of(ctx)
        level, key = task_options(o)
        secret = bool(o.secret) and ctx.interaction is not None
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet: TwoD10Sheet | None = None
            if o.score is None:
                sheet = await resolve_sheet(
                    conn, campaign, ctx.author, o.character, "roll for them"
                )
            vs = await resolve_against(conn, guild.id, level, o.target, o.target_defense)
            against, target_sheet = vs.text, vs.target
            load = await load_encumbrance(conn, sheet) if sheet is not None else None
            numbers = task_numbers(
                sheet, o.attribute, key, score=o.score, rank=o.rank, load=load,
                fallback_who=ctx.author.display_name,
            )  # fmt: skip
            # Computed before the dice, from the same numbers: the chance as it stood.
            preview = task_preview_line(chances(numbers, vs.modifier, o)) if o.odds else None
            result = _roll(self.bot, numbers, vs, o.bonus, o.advantage, o.disadvantage)
            who, what = numbers.who, numbers.what
            roll_id = await RollLogRepository(conn).record(
                guild_id=guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                kind=KIND,
                expression=f"task {what} vs {against}"[:500],
                result=_logged(result, sheet, target_sheet, o.label, o.advantage, o.disadvantage),
                total=result.total,
                secret=secret,
            )
        embed = task_embed(
            result, who=who, what=what, against=against, advantage=o.advantage,
            disadvantage=o.disadvantage, label=o.label,
        )  # fmt: skip
        if secret:
            await ctx.defer(ephemeral=True)
            where = await deliver_to_gm(
                guild, campaign, f"Secret task by {safe(ctx.author.display_name)}", embed=embed
            )
            content = f"-# Secret: {where}." + (f"\n{preview}" if preview else "")
            message = await send(ctx, content, embed=embed, ephemeral=True)
        else:
            message = await send(ctx, preview, embed=embed)
        if message is not None:
            async with self.bot.db.transaction() as conn:
                await RollLogRepository(conn).set_message(roll_id, message.id)
        log.debug("2d10 task %s by %s", roll_id, ctx.author.id)


def _roll(
    bot: TableBot,
    numbers: TaskNumbers,
    vs: Against,
    bonus: int,
    advantage: int,
    disadvantage: int,
) -> TaskResult:
    try:
        return roll_task(
            attribute=numbers.attribute, skill=numbers.skill, difficulty=vs.modifier,
            extra=numbers.extra(bonus), advantage=advantage, disadvantage=disadvantage,
            attribute_label=numbers.attribute_label, skill_label=numbers.skill_label,
            difficulty_label=vs.label, dice=bot.dice,
        )  # fmt: skip
    except RulesError as exc:
        raise _rules(exc) from None


def _logged(
    result: TaskResult,
    sheet: TwoD10Sheet | None,
    target: TwoD10Sheet | None,
    label: str | None,
    advantage: int,
    disadvantage: int,
) -> dict[str, Any]:
    return {
        "character_id": sheet.id if sheet else None,  # a twod10_characters id
        "target_id": target.id if target else None,
        "faces": list(result.roll.faces),
        "dropped": result.roll.dropped,
        "advantage": advantage,
        "disadvantage": disadvantage,
        "modifiers": [{"label": m.label, "value": m.value} for m in result.modifiers],
        "natural": result.natural,
        "total": result.total,
        "band": result.band.name.lower(),
        "label": label,
    }


async def setup(bot: TableBot) -> None:
    await bot.add_cog(TaskCog(bot))
