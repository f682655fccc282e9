"""/respite: spend 1 recovery point for [1d STR] hit points or 1 determination point."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.rest import respite_embed
from bot.rules.hocs.rest import RespiteChoice, respite
from bot.rules.hocs.threshold import clear_staggered_if_recovered
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.tables.character_access import MAX_NAME
from cogs.hocs.access import resolve_character
from cogs.hocs.points.common import character_choices
from cogs.hocs.resting.common import REST_ACTION, load_resting, save

log = logging.getLogger(__name__)

Name = commands.Range[str, 1, MAX_NAME]

RESPITE_RULINGS = [
    "A respite (5 minutes) spends 1 recovery point: [1d STR] hit points (the strength"
    " attribute die; STR 4 rolls 2d8 and keeps the best, +1 if the other shows 8) or 1"
    " determination point. Hit points lost to non-lethal damage come back either way.",
    "Without recovery points it is refused and nothing changes. Maxima are respected;"
    " a respite that could give nothing at all (everything full) is refused too.",
    "Wounds count: the strength die and the maximum hit points and recovery points are"
    " the wounded ones.",
]


class RespiteCog(RulesetCog, name="Respite"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="respite", extras={"rulings": RESPITE_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        regain="hp: [1d STR] hit points, or dp: 1 determination point",
        character="Which character (default: your active one)",
    )
    async def respite(
        self,
        ctx: commands.Context[TableBot],
        regain: Literal["hp", "dp"],
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Spend a recovery point to heal."""
        if ctx.guild is None:
            raise GuildOnly()
        choice = RespiteChoice.HIT_POINTS if regain == "hp" else RespiteChoice.DETERMINATION
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            who = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action=REST_ACTION
            )
            resting = load_resting(who)
            if resting.recovery.current < 1:
                raise UserError(
                    f"{resting.name} has no recovery points left, so nothing changed: a rest"
                    " of positive value can bring them back."
                )
            hp = resting.hp
            full_hp = hp.current + hp.nonlethal_taken >= hp.maximum
            if not hp.nonlethal_taken and (
                (choice is RespiteChoice.HIT_POINTS and full_hp)
                or (choice is RespiteChoice.DETERMINATION and not resting.determination.missing)
            ):
                what = "hit points" if choice is RespiteChoice.HIT_POINTS else "determination"
                raise UserError(
                    f"{resting.name} is already at full {what}: no recovery point spent."
                )
            result = respite(
                hp,
                choice=choice,
                strength=resting.strength,
                recovery=resting.recovery,
                determination=resting.determination,
                dice=self.bot.dice,
            )
            await save(
                conn, resting, hp=result.hp_after, recovery=result.recovery_after,
                determination=result.determination_after,
                conditions=clear_staggered_if_recovered(resting.conditions, result.hp_after),
                recovery_needed=1,
            )  # fmt: skip
        notify_characters_changed(self.bot, ctx.guild.id, [who.id])
        log.info("respite (%s) for character %s", regain, who.id)
        await send(ctx, embed=respite_embed(resting.name, result))

    @respite.autocomplete("character")
    async def respite_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)
