"""/rest: the rest activity, valued by Table – Resting Factors, for one character or the party."""

from __future__ import annotations

import logging
from typing import Literal

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.rest import RestFactors, RestReport, party_rest_embed, rest_embed
from bot.rules.dice_source import Dice
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.damage import restore_nonlethal
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult
from bot.rules.hocs.rest import (
    RestingFactor,
    RestKind,
    RestSplit,
    rest,
    resting_value,
    spend_recovery,
)
from bot.rules.hocs.rest_choices import wanted_split
from bot.rules.hocs.rolling import roll_pool
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.tables.character_access import MAX_NAME, safe_name
from bot.tables.permissions import require_gm
from cogs.hocs.access import resolve_character
from cogs.hocs.points.common import character_choices
from cogs.hocs.resting.common import REST_ACTION, Resting, load_resting, save

log = logging.getLogger(__name__)

Factor = Literal["beneficial", "good", "subpar", "challenging", "extreme"]
Name = commands.Range[str, 1, MAX_NAME]
Share = commands.Range[int, 0, 20]
Spent = commands.Range[int, 0, 10]

REST_RULINGS = [
    "Value = place + resources + time (beneficial +2, good +1, subpar −1, challenging −2,"
    " extreme −4), −5 per wound that lowers resting.",
    "Positive: roll that many d6, keep the best (+1 per other 6). Points go to HP, then"
    " determination, then recovery; hp/determination/recovery ask for amounts, filled"
    " first, the rest in that order. Points past a maximum are wasted.",
    "Zero: 1d4 HP. Negative: physique or willpower test (more dice after banes; physique"
    " on a tie) vs the value made positive: success 1 HP, failure fatigued until a rest"
    " of positive value (which removes it).",
    "spend_recovery: unused recovery points spent before the rest's roll, [1d STR] HP"
    " each. Every rest gives back the HP lost to non-lethal damage.",
    "party:True (GM): every living player character, same factors, own roll, default share.",
]

FACTOR_HELP = "beneficial +2, good +1, subpar −1, challenging −2, extreme −4"


def _factor(name: str) -> RestingFactor:
    return RestingFactor[name.upper()]


class _Recorder:
    """Dice that remember their faces, so a rest can be replayed with a chosen share."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.faces: list[int] = []

    def roll(self, sides: int) -> int:
        face = self._dice.roll(sides)
        self.faces.append(face)
        return face


class _Replay:
    def __init__(self, faces: list[int]) -> None:
        self._faces = iter(faces)

    def roll(self, sides: int) -> int:
        return next(self._faces)


def _test(resting: Resting, dice: Dice) -> tuple[str, PoolResult]:
    """Roll the better of physique and willpower (after banes; physique on a tie)."""
    values = resting.values
    options = []
    for order, name in enumerate(("Physique", "Willpower")):
        pool = values.skill_pool(name)
        parts = values.roll_banes(pool.attribute, resting.conditions)
        banes = min(MAX_MODIFIER, sum(n for _, n in parts))
        spec = pool.spec(banes=banes)
        options.append((spec.dice_count, -order, pool.label, spec))
    _, _, label, spec = max(options)
    return label, roll_pool(spec, dice)


def rest_one(
    resting: Resting,
    factors: RestFactors,
    *,
    dice: Dice,
    wants: RestSplit | None = None,
    recovery_points: int = 0,
) -> RestReport:
    """One character's rest, pure apart from the dice: spending, the roll, the share."""
    wound_modifier = resting.values.resting_value
    value = resting_value(
        place=factors.place, resources=factors.resources, time=factors.time, wounds=resting.wounds
    )
    factors = RestFactors(
        place=factors.place, resources=factors.resources, time=factors.time, wounds=wound_modifier
    )
    hp, recovery = resting.hp, resting.recovery
    spending = None
    if recovery_points:
        if recovery_points > recovery.current:
            raise UserError(
                f"{resting.name} has only {recovery.current} recovery points to spend: ask for"
                " fewer."
            )
        spending = spend_recovery(
            hp, recovery, points=recovery_points, strength=resting.strength, dice=dice
        )
        hp, recovery = spending.hp_after, spending.recovery_after
    test_label, test_roll = None, None
    if value < 0:
        test_label, test_roll = _test(resting, dice)
    recorder = _Recorder(dice)
    result = rest(
        hp,
        value=value,
        recovery=recovery,
        determination=resting.determination,
        dice=recorder,
        conditions=resting.conditions,
        test_successes=test_roll.successes if test_roll is not None else None,
    )
    if wants is not None and result.kind is RestKind.POSITIVE and result.roll is not None:
        restored = restore_nonlethal(hp)
        split = wanted_split(
            result.points,
            hp_missing=restored.maximum - restored.current,
            determination_missing=resting.determination.missing,
            recovery_missing=recovery.missing,
            hp=wants.hp,
            determination=wants.determination,
            recovery=wants.recovery,
        )
        result = rest(
            hp,
            value=value,
            recovery=recovery,
            determination=resting.determination,
            dice=_Replay(recorder.faces),
            conditions=resting.conditions,
            split=split,
            choose=result.roll.chosen_index,
        )
    return RestReport(
        name=resting.name,
        factors=factors,
        result=result,
        spending=spending,
        test_label=test_label,
        test_roll=test_roll,
    )


class RestCog(RulesetCog, name="Rest"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="rest", extras={"rulings": REST_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        place=f"Place: {FACTOR_HELP}",
        resources=f"Resources (food): {FACTOR_HELP}",
        time=f"Time: {FACTOR_HELP}",
        character="Which character (default: your active one)",
        hp="Points you want as hit points (positive rests)",
        recovery="Points you want as recovery points (positive rests)",
        determination="Points you want as determination points (positive rests)",
        spend_recovery="Unused recovery points to spend during the rest ([1d STR] HP each)",
        party="GM: every player character rests with these factors",
    )
    async def rest(
        self,
        ctx: commands.Context[TableBot],
        place: Factor,
        resources: Factor,
        time: Factor,
        character: Name = None,  # type: ignore[assignment]
        hp: Share = 0,
        recovery: Share = 0,
        determination: Share = 0,
        spend_recovery: Spent = 0,
        party: bool = False,
    ) -> None:
        """Rest by place, food and time."""
        if ctx.guild is None:
            raise GuildOnly()
        factors = RestFactors(
            place=_factor(place), resources=_factor(resources), time=_factor(time)
        )
        wants = None
        if hp or recovery or determination:
            wants = RestSplit(hp=hp, recovery=recovery, determination=determination)
        if party:
            if character is not None or wants is not None or spend_recovery:
                raise UserError(
                    "A party rest uses the default share and spends no recovery points: leave"
                    " out character, hp, recovery, determination and spend_recovery."
                )
            await self._party(ctx, factors)
            return
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            who = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action=REST_ACTION
            )
            resting = load_resting(who)
            report = rest_one(
                resting, factors, dice=self.bot.dice, wants=wants,
                recovery_points=spend_recovery,
            )  # fmt: skip
            await _save(conn, resting, report)
        notify_characters_changed(self.bot, ctx.guild.id, [who.id])
        log.info("rest of value %s for character %s", report.result.value, who.id)
        await send(ctx, embed=rest_embed(report))

    async def _party(self, ctx: commands.Context[TableBot], factors: RestFactors) -> None:
        assert ctx.guild is not None
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "rest the whole party")
            characters = [
                c
                for c in await CharacterRepository(conn).list(ctx.guild.id)
                if c.kind is CharacterKind.PC
            ]
            if not characters:
                raise UserError("This campaign has no player characters to rest yet.")
            reports, skipped, rested = [], [], []
            for character in characters:
                if Condition.DEAD in character.state.conditions:
                    skipped.append(safe_name(character.name))
                    continue
                resting = load_resting(character)
                report = rest_one(resting, factors, dice=self.bot.dice)
                await _save(conn, resting, report)
                reports.append(report)
                rested.append(character.id)
        notify_characters_changed(self.bot, ctx.guild.id, rested)
        log.info("party rest in guild %s: %d characters", ctx.guild.id, len(reports))
        await send(ctx, embed=party_rest_embed(factors, reports, skipped))

    @rest.autocomplete("character")
    async def rest_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)


async def _save(conn: aiosqlite.Connection, resting: Resting, report: RestReport) -> None:
    result = report.result
    await save(
        conn,
        resting,
        hp=result.hp_after,
        recovery=result.recovery_after,
        determination=result.determination_after,
        conditions=result.conditions_after,
    )
