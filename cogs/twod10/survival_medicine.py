"""/medicine daily|stabilise|attribute|supplies for the 2d10 system, outside a tracked fight.

What a medicine command writes (the patient's HP, the medical supplies a medic carries:
weight in the backpack) is told to a tracker seating the character (``bot.delivery.events``); it
follows and is edited after the reply (``bot.delivery.followups``), as after /inventory or /attack.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import plural, safe
from bot.render.twod10.survival import attribute_embed, medicine_embed, supplies_note
from bot.rules.errors import RulesError
from bot.rules.twod10.medicine import (
    ATTRIBUTE_HIGH,
    ATTRIBUTE_LOW,
    daily_medicine,
    heal_attribute_damage,
    stabilise,
)
from bot.rulesets import Ruleset
from bot.storage.twod10.survival import MAX_SUPPLIES, TwoD10SurvivalRepository
from bot.tables.permissions import require_gm
from cogs.twod10 import options
from cogs.twod10.access import find_sheet
from cogs.twod10.survival_log import log_medicine
from cogs.twod10.survival_medic import medic_healer
from cogs.twod10.survival_rulings import RULINGS
from cogs.twod10.survival_state import load, save, toughness_of

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
Needed = commands.Range[int, ATTRIBUTE_LOW, ATTRIBUTE_HIGH]
Units = commands.Range[int, 0, MAX_SUPPLIES]
MEDIC = "The character who rolls (default: your active character)"


class MedicineCog(RulesetCog, name="2d10 medicine"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="medicine", invoke_without_command=True,
                           description="2d10 medicine")  # fmt: skip
    @commands.guild_only()
    async def medicine(self, ctx: Ctx) -> None:
        """Medicine: daily, stabilise, attribute, supplies."""
        raise UserError("Add a subcommand, e.g. /medicine daily or /medicine stabilise.")

    async def _hp_roll(self, ctx: Ctx, patient: str, medic: str | None, what: str) -> None:
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, patient)
            loaded = await load(conn, sheet)
            healer, medic_sheet, _, _ = await medic_healer(
                conn, campaign, ctx.author, medic, supplies_needed=False
            )
            medic_name = medic_sheet.name
            rule = daily_medicine if what == "daily medicine" else stabilise
            try:
                result = rule(healer, loaded.state, toughness=toughness_of(sheet),
                              dice=self.bot.dice)  # fmt: skip
            except RulesError as exc:
                raise options.rules(exc) from None
            assert result.after is not None
            after = await save(conn, sheet, result.after)
            await log_medicine(conn, ctx, what=what, patient=sheet, medic=medic_name,
                               result=result.roll, hp=(sheet.hp, after.hp))  # fmt: skip
        await send(ctx, embed=medicine_embed(sheet.name, medic_name, what.split()[0], result, None))

    @medicine.command(name="daily", description="Once-a-day medicine on a patient",
                      extras={"rulings": RULINGS["daily"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(patient="Who is treated", medic=MEDIC)
    @app_commands.autocomplete(patient=options.character_names, medic=options.character_names)
    async def medicine_daily(self, ctx: Ctx, patient: Name, medic: Name = None) -> None:  # type: ignore[assignment]
        """Mind + medicine: 6-9 nothing, 10 half toughness, 15/20/25 1x/2x/3x toughness."""
        await self._hp_roll(ctx, patient, medic, "daily medicine")

    @medicine.command(name="stabilise", description="Stabilise a patient at 0 HP or below",
                      extras={"rulings": RULINGS["stabilise"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(patient="Who is dying", medic=MEDIC)
    @app_commands.autocomplete(patient=options.character_names, medic=options.character_names)
    async def medicine_stabilise(self, ctx: Ctx, patient: Name, medic: Name = None) -> None:  # type: ignore[assignment]
        """Mind + medicine + the patient's HP: 10 advantage, 15/20/25/30 also 1/2/3/5 HP."""
        await self._hp_roll(ctx, patient, medic, "stabilise")

    @medicine.command(name="attribute", description="Heal one point of attribute damage",
                      extras={"rulings": RULINGS["attribute"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(patient="Who is treated", needed="Total needed (15-20, the GM's call)",
                           medic=MEDIC)  # fmt: skip
    @app_commands.autocomplete(patient=options.character_names, medic=options.character_names)
    async def medicine_attribute(
        self,
        ctx: Ctx,
        patient: Name,
        needed: Needed = 15,
        medic: Name = None,  # type: ignore[assignment]
    ) -> None:
        """One unit of supplies (disadvantage without); one point a day."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, patient)
            loaded = await load(conn, sheet)
            if loaded.state.attribute_healed_today:
                # Refused before the medic's unit is taken.
                raise UserError(
                    "A point of attribute damage heals once a day; try after a long rest."
                )
            healer, medic_sheet, spent, left = await medic_healer(
                conn, campaign, ctx.author, medic, supplies_needed=True
            )
            medic_name = medic_sheet.name
            try:
                result = heal_attribute_damage(healer, loaded.state, needed=needed,
                                               dice=self.bot.dice)  # fmt: skip
            except RulesError as exc:
                raise options.rules(exc) from None
            after = await save(conn, sheet, result.after)
            await log_medicine(conn, ctx, what="attribute damage", patient=sheet,
                               medic=medic_name, result=result.roll, hp=(sheet.hp, after.hp),
                               extra={"needed": needed, "healed": result.healed})  # fmt: skip
        note = supplies_note(spent, True, left)
        await send(ctx, embed=attribute_embed(sheet.name, medic_name, result, note))

    @medicine.command(name="supplies", description="Show or (GM) set a character's supplies",
                      extras={"rulings": RULINGS["supplies"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Whose supplies (default: your active character)",
                           units="GM only: set the units of medical supplies (0-99)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def medicine_supplies(
        self, ctx: Ctx, character: Name = None, units: Units = None
    ) -> None:  # type: ignore[assignment]
        """Units of medical supplies a character carries."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            repo = TwoD10SurvivalRepository(conn)
            if units is not None:
                require_gm(ctx.author, campaign, "set medical supplies")
                count = (await repo.set_supplies(guild.id, sheet.id, units)).supplies
            else:
                row = await repo.get(guild.id, sheet.id)
                count = row.supplies if row else 0
        await send(ctx, f"{safe(sheet.name)} has {plural(count, 'unit')} of medical supplies.")


async def setup(bot: TableBot) -> None:
    await bot.add_cog(MedicineCog(bot))
