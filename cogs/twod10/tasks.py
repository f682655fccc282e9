"""/task: 2d10 + attribute + skill against the difficulty ladder or a target's defense.

The roll comes from the character's sheet (the named one, else the active one), or
from raw numbers (``score`` and ``rank``) with no sheet. It is logged in the roll log
with kind ``2d10-task``; the roll log's ``character_id`` points at HOCS characters, so
the 2d10 character's id is kept in the logged result instead.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.character import safe
from bot.render.twod10.odds import task_preview_line
from bot.render.twod10.task import task_embed
from bot.replies import send
from bot.rules.errors import RulesError
from bot.rules.twod10.difficulty import match_difficulty_names
from bot.rules.twod10.odds import task_odds
from bot.rules.twod10.tasks import MAX_EDGE, TaskResult, roll_task
from bot.rulesets import Ruleset, RulesetCog
from bot.secret_rolls import deliver_to_gm
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10_characters import TwoD10Sheet
from cogs.twod10 import options
from cogs.twod10.access import campaign_of, guild_of, resolve_sheet
from cogs.twod10.encumbrance_state import load_encumbrance
from cogs.twod10.rulings import RULINGS
from cogs.twod10.task_inputs import (
    Against,
    TaskNumbers,
    check_task_options,
    resolve_against,
    task_numbers,
)

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
AttributeName = Literal["finesse", "strength", "toughness", "mind", "social"]
Count = commands.Range[int, 0, MAX_EDGE]
Text = commands.Range[str, 1, 100]
Label = commands.Range[str, 1, 80]
Bonus = commands.Range[int, -20, 20]
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
    @app_commands.describe(
        attribute="Attribute to add (a defense skill implies its own)",
        skill="Skill from the sheet, e.g. stealth or defense (finesse)",
        difficulty="Ladder name or number, +5 (very easy) to -25 (legendary)",
        target="Roll against this character's defense instead",
        target_defense="Which defense of the target (default finesse)",
        advantage="Advantage sources (each cancels one disadvantage)",
        disadvantage="Disadvantage sources",
        bonus="Any other modifier the GM gives",
        score="Raw attribute value instead of a sheet (-1 to 6)",
        rank="Raw skill rank with score (0 to 6)",
        character="Whose sheet (default: your active character)",
        label="What the roll is for",
        secret="Show the result only to you and the GM",
        odds="Show the exact chance of success before the dice",
    )
    @app_commands.autocomplete(
        skill=options.skill_choices,
        target=options.character_names,
        character=options.character_names,
    )
    async def task(
        self,
        ctx: Ctx,
        attribute: AttributeName | None = None,
        skill: Text = None,  # type: ignore[assignment]
        difficulty: Text = None,  # type: ignore[assignment]
        target: Text = None,  # type: ignore[assignment]
        target_defense: AttributeName = "finesse",
        advantage: Count = 0,
        disadvantage: Count = 0,
        bonus: Bonus = 0,
        score: commands.Range[int, -1, 6] = None,  # type: ignore[assignment]
        rank: commands.Range[int, 0, 6] = None,  # type: ignore[assignment]
        character: Text = None,  # type: ignore[assignment]
        label: Label = None,  # type: ignore[assignment]
        secret: bool = False,
        odds: bool = False,
    ) -> None:
        """Roll 2d10 + attribute + skill; the reply names the to-hit table's band."""
        guild = guild_of(ctx)
        level = check_task_options(
            difficulty=difficulty, target=target, score=score, rank=rank, character=character
        )
        key = options.parse_skill_option(skill) if skill is not None else None
        secret = bool(secret) and ctx.interaction is not None
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet: TwoD10Sheet | None = None
            if score is None:
                sheet = await resolve_sheet(conn, campaign, ctx.author, character, "roll for them")
            vs = await resolve_against(conn, guild.id, level, target, target_defense)
            against, target_sheet = vs.text, vs.target
            load = await load_encumbrance(conn, sheet) if sheet is not None else None
            numbers = task_numbers(
                sheet, attribute, key, score=score, rank=rank, load=load,
                fallback_who=ctx.author.display_name,
            )  # fmt: skip
            # Computed before the dice, from the same numbers: the chance as it stood.
            preview = _odds_line(numbers, vs, bonus, advantage, disadvantage) if odds else None
            result = _roll(self.bot, numbers, vs, bonus, advantage, disadvantage)
            who, what = numbers.who, numbers.what
            roll_id = await RollLogRepository(conn).record(
                guild_id=guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                kind=KIND,
                expression=f"task {what} vs {against}"[:500],
                result=_logged(result, sheet, target_sheet, label, advantage, disadvantage),
                total=result.total,
                secret=secret,
            )
        embed = task_embed(
            result, who=who, what=what, against=against, advantage=advantage,
            disadvantage=disadvantage, label=label,
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

    @task.autocomplete("difficulty")
    async def task_difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=n, value=n.split(" (")[0])
            for n in match_difficulty_names(current[:100])
        ]


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


def _odds_line(
    numbers: TaskNumbers, vs: Against, bonus: int, advantage: int, disadvantage: int
) -> str:
    try:
        odds = task_odds(
            attribute=numbers.attribute, skill=numbers.skill, difficulty=vs.modifier,
            extra=numbers.extra(bonus), advantage=advantage, disadvantage=disadvantage,
        )  # fmt: skip
    except RulesError as exc:
        raise _rules(exc) from None
    return task_preview_line(odds)


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
