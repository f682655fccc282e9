"""The GM's hand on 2d10 hit points, conditions and shields: /hp, /condition, /shield."""

from __future__ import annotations

import logging
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import plural, safe
from bot.render.twod10.combat_hp import conditions_embed, hp_embed
from bot.render.twod10.magic import lost_line
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Condition
from bot.storage.twod10.shields import ShieldBlockRepository
from bot.tables.permissions import require_gm
from cogs.twod10.access import find_sheet, shows_state
from cogs.twod10.combat_apply import save_vitals
from cogs.twod10.combat_options import (
    CONDITION_RULINGS,
    HP_RULINGS,
    SHIELD_RULINGS,
    Name,
    Text,
    parse_hp_change,
)
from cogs.twod10.magic_damage import damage_ends_concentration
from cogs.twod10.options import character_names

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
# Dead follows the hit points (/hp), so it is not set by hand.
ConditionChoice = Literal["prone", "unconscious"]


class TwoD10AdjustCog(RulesetCog, name="2d10 adjustments"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="hp", extras={"rulings": HP_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        target="The character", change="+5 heals, -5 takes away, set 5 sets hit points"
    )
    @app_commands.autocomplete(target=character_names)
    async def hp(self, ctx: Ctx, target: Name, *, change: Text) -> None:
        """GM: adjust a character's hit points by hand."""
        if ctx.guild is None:
            raise GuildOnly()
        mode, amount = parse_hp_change(change)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "adjust hit points")
            before = await find_sheet(conn, ctx.guild.id, ctx.author.id, target)
            if mode == "set":
                if amount > before.max_hp:
                    raise UserError(
                        f"{safe(before.name)}'s maximum is {before.max_hp} hit points:"
                        " set a value up to that."
                    )
                if amount < before.death_threshold:
                    raise UserError(
                        f"{safe(before.name)}'s death threshold is {before.death_threshold}:"
                        " set a value from that up."
                    )
                after = await save_vitals(conn, before, set_to=amount)
                what = f"HP set to {amount}"
            else:
                delta = amount if mode == "heal" else -amount
                after = await save_vitals(conn, before, delta=delta)
                what = f"Healed {amount}" if mode == "heal" else f"Lost {amount}"
            lost = await damage_ends_concentration(conn, before, after, attack=False)
        log.info("2d10 hp of %s: %s by %s", after.id, what, ctx.author.id)
        embed = hp_embed(before, after, what)
        if lost is not None:  # ruling concentration-damage
            embed.description = f"{embed.description}\n{lost_line(after.name, lost)}"
        await send(ctx, embed=embed)

    @commands.hybrid_group(name="condition", invoke_without_command=True)
    @commands.guild_only()
    async def condition(self, ctx: Ctx) -> None:
        """Conditions: list a character's, or (GM) add and remove them."""
        raise UserError("Add a subcommand: /condition list, /condition add or /condition remove.")

    @condition.command(name="list", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(target="The character (default: your active one)")
    @app_commands.autocomplete(target=character_names)
    async def condition_list(self, ctx: Ctx, *, target: Name = None) -> None:  # type: ignore[assignment]
        """List a character's conditions."""
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            sheet = await find_sheet(conn, ctx.guild.id, ctx.author.id, target)
        if not shows_state(ctx.author, campaign, sheet):
            raise UserError(f"The GM keeps {safe(sheet.name)}'s state hidden.")
        await send(ctx, embed=conditions_embed(sheet))

    async def _set(self, ctx: Ctx, target: str, condition: str, *, add: bool) -> None:
        if ctx.guild is None:
            raise GuildOnly()
        chosen = TwoD10Condition(condition)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "change conditions")
            sheet = await find_sheet(conn, ctx.guild.id, ctx.author.id, target)
            if sheet.has(chosen) == add:
                state = "already" if add else "not"
                raise UserError(f"{safe(sheet.name)} is {state} {chosen.value}.")
            wanted = set(sheet.conditions)
            if add:
                wanted.add(chosen)
            else:
                wanted.discard(chosen)
            after = await TwoD10CharacterRepository(conn).set_conditions(
                ctx.guild.id, sheet.id, wanted, expected_revision=sheet.revision
            )
        await send(ctx, embed=conditions_embed(after))

    @condition.command(name="add", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(target="The character", condition="The condition")
    @app_commands.autocomplete(target=character_names)
    async def condition_add(self, ctx: Ctx, target: Name, condition: ConditionChoice) -> None:
        """GM: give a character a condition."""
        await self._set(ctx, target, condition, add=True)

    @condition.command(name="remove", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(target="The character", condition="The condition")
    @app_commands.autocomplete(target=character_names)
    async def condition_remove(self, ctx: Ctx, target: Name, condition: ConditionChoice) -> None:
        """GM: take a condition away from a character."""
        await self._set(ctx, target, condition, add=False)

    @commands.hybrid_group(name="shield", invoke_without_command=True)
    @commands.guild_only()
    async def shield(self, ctx: Ctx) -> None:
        """Shields: (GM) repair a broken one."""
        raise UserError("Add a subcommand: /shield repair.")

    @shield.command(name="repair", extras={"rulings": SHIELD_RULINGS})
    @commands.guild_only()
    @app_commands.describe(target="The character whose shield is mended or replaced")
    @app_commands.autocomplete(target=character_names)
    async def shield_repair(self, ctx: Ctx, target: Name) -> None:
        """GM: give a character's shield all its blocks back."""
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "repair shields")
            sheet = await find_sheet(conn, ctx.guild.id, ctx.author.id, target)
            shield = sheet.character.shield
            if shield is None:
                raise UserError(f"{safe(sheet.name)} carries no shield.")
            await ShieldBlockRepository(conn).repair(sheet.id)
        await send(
            ctx,
            f"{safe(sheet.name)}'s {shield.name.lower()} can block"
            f" {plural(shield.blocks, 'time')} again.",
        )


async def setup(bot: TableBot) -> None:
    await bot.add_cog(TwoD10AdjustCog(bot))
