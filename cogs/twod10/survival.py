"""/rest short|long and /dying roll for the 2d10 system, outside a tracked fight.

Each command is one transaction: load the sheet and its healing state (reconciled
with the sheet's HP, see ``survival_state``), apply the pure rule, save through the
sheet's revision, render. A rest's HP (and a medic's spent supplies, which weigh in the
backpack) is told to a tracker seating the character (``bot.delivery.events``), edited after the
reply, as after /medicine.
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import safe
from bot.render.twod10.survival import dying_embed, rest_embed, supplies_note
from bot.rules.errors import RulesError
from bot.rules.twod10.dying import roll_dying
from bot.rules.twod10.healing import check_short_rest, long_rest, short_rest
from bot.rules.twod10.medicine import short_rest_medicine
from bot.rulesets import Ruleset
from bot.storage.twod10.encounters import TwoD10EncounterRepository
from cogs.twod10 import options
from cogs.twod10.access import resolve_sheet
from cogs.twod10.survival_log import log_medicine, log_roll
from cogs.twod10.survival_medic import medic_healer
from cogs.twod10.survival_rulings import RULINGS
from cogs.twod10.survival_state import load, save, toughness_of

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]


class RestCog(RulesetCog, name="2d10 rest and dying"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="rest", invoke_without_command=True, description="2d10 rests")
    @commands.guild_only()
    async def rest(self, ctx: Ctx) -> None:
        """Rest: /rest short or /rest long."""
        raise UserError("Add a subcommand: /rest short or /rest long.")

    @rest.command(name="short", description="Five minutes' rest: toughness or 1 HP",
                  extras={"rulings": RULINGS["short"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        character="Who rests (default: your active character)",
        medic="A character who rolls medicine with the rest (spends one of their supplies)",
    )
    @app_commands.autocomplete(character=options.character_names, medic=options.character_names)
    async def rest_short(self, ctx: Ctx, character: Name = None, medic: Name = None) -> None:  # type: ignore[assignment]
        """A short rest, with a medic's short-rest medicine if one is named."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "rest for them")
            loaded = await load(conn, sheet)
            toughness = toughness_of(sheet)
            try:
                if medic is None:
                    result, med, note, medic_name = (
                        short_rest(loaded.state, toughness=toughness),
                        None,
                        None,
                        None,
                    )
                else:
                    check_short_rest(loaded.state, toughness)  # refuse before spending
                    healer, medic_sheet, spent, left = await medic_healer(
                        conn, campaign, ctx.author, medic, supplies_needed=True
                    )
                    medic_name = medic_sheet.name
                    med = short_rest_medicine(
                        healer, loaded.state, toughness=toughness, dice=self.bot.dice
                    )
                    assert med.rest is not None
                    result = med.rest
                    note = supplies_note(spent, True, left)
            except RulesError as exc:
                raise options.rules(exc) from None
            after = await save(conn, sheet, result.after)
            if med is not None:
                await log_medicine(
                    conn, ctx, what="short rest", patient=sheet, medic=medic_name or "",
                    result=med.roll, hp=(sheet.hp, after.hp),
                )  # fmt: skip
        embed = rest_embed(sheet.name, result, long=False, medicine=med, medic=medic_name,
                           supplies_note=note)  # fmt: skip
        await send(ctx, embed=embed)

    @rest.command(name="long", description="Eight hours' rest: 3 x toughness or 2 HP",
                  extras={"rulings": RULINGS["long"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Who rests (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def rest_long(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """A long rest: clears the short-rest cap and the daily medicine uses."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "rest for them")
            loaded = await load(conn, sheet)
            try:
                result = long_rest(loaded.state, toughness=toughness_of(sheet))
            except RulesError as exc:
                raise options.rules(exc) from None
            await save(conn, sheet, result.after)
        embed = rest_embed(sheet.name, result, long=True, medicine=None, medic=None,
                           supplies_note=None)  # fmt: skip
        await send(ctx, embed=embed)

    @commands.hybrid_group(name="dying", invoke_without_command=True,
                           description="2d10 dying rolls")  # fmt: skip
    @commands.guild_only()
    async def dying(self, ctx: Ctx) -> None:
        """Dying: /dying roll."""
        raise UserError("Add a subcommand: /dying roll.")

    @dying.command(name="roll", description="Roll for a character at 0 HP or below",
                   extras={"rulings": RULINGS["dying"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Who is dying (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def dying_roll(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """2d10 + toughness + defense (toughness) + current HP: 10+ gains 1 HP, less loses 1."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "roll for them")
            if await TwoD10EncounterRepository(conn).channels_with_sheets(guild.id, [sheet.id]):
                # Ruling dying-turn: in a tracked fight the roll comes with its side's turn,
                # once, from the prompt's button (cogs.twod10.initiative.dying).
                raise UserError(
                    f"{safe(sheet.name)} is in a tracked fight: the dying roll comes with the"
                    " button posted on their side's turn."
                )
            loaded = await load(conn, sheet)
            try:
                result = roll_dying(sheet.character, loaded.state, dice=self.bot.dice)
            except RulesError as exc:
                raise options.rules(exc) from None
            after = await save(conn, sheet, result.after)
            await log_roll(
                conn, guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                kind="2d10-dying", expression=f"dying roll {sheet.name}: {result.roll.total}",
                result=result.roll,
                details={"character_id": sheet.id, "hp": [sheet.hp, after.hp],
                         "died": result.died},
            )  # fmt: skip
        await send(ctx, embed=dying_embed(sheet.name, result))
        log.debug("2d10 dying roll for %s", sheet.id)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(RestCog(bot))
