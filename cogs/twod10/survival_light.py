"""/light add|drop|relight|list and /explore: torches and lanterns with a secret burn time.

The burn time is rolled when a light is lit and sent to the GM alone (secret
delivery, as secret rolls); players only ever read lit/out and the warning when a
light is about to fail (ruling light-warning). Every die is in the roll log (kind
2d10-light, cogs.twod10.survival_log): a burn time as a secret row, a drop's die as a
public one. Oil is counted per character (set by the GM with /light oil): relighting a
burned-out lantern with ``oil:True`` spends one of the bearer's units in the same
transaction, exactly once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import deliver_to_gm
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import plural, safe
from bot.render.twod10.survival_light import gm_burn_text, gm_line, party_line, party_warning
from bot.rules.errors import RulesError
from bot.rules.twod10.light import (
    MAX_ADVANCE,
    LightKind,
    LightStatus,
    advance,
    drop,
    light,
    relight,
)
from bot.rules.twod10.rulings import ruling
from bot.rulesets import Ruleset
from bot.storage.twod10.ammo import MAX_OIL, TwoD10AmmoRepository
from bot.storage.twod10.characters import SheetChanged
from bot.storage.twod10.lights import MAX_LIGHTS, LightRow, TwoD10LightRepository
from bot.tables.permissions import is_gm, require_gm
from cogs.twod10 import options
from cogs.twod10.access import campaign_for_reading, find_sheet, resolve_sheet
from cogs.twod10.survival_log import log_burn_time, log_drop

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
Kind = Literal["torch", "lantern"]
Turns = commands.Range[int, 1, MAX_ADVANCE]
OilUnits = commands.Range[int, 0, MAX_OIL]
BURNED_OUT = LightStatus.BURNED_OUT
LIGHT_RULINGS = [ruling(k).text for k in ("burn-time", "light-drop", "torch-spent",
                                          "light-warning")]  # fmt: skip
# Ruling oil-stock: the text counts oil in units without saying whose; the unit comes
# from the character carrying the lantern.
OIL = (
    "Oil is counted per character (the GM sets it with /light oil); a burned-out lantern"
    " relit with oil:True spends one of its bearer's units, exactly once."
)


def _pick(rows: list[LightRow], kind: str | None, *, lit: bool) -> LightRow:
    """The character's most recent light of ``kind`` that is (or isn't) lit."""
    fits = [r for r in rows if r.light.lit == lit and (kind is None or r.light.kind.value == kind)]
    if not fits:
        state = "lit" if lit else "unlit"
        raise UserError(
            f"There is no {state} {kind or 'light'} on that character: see /light list."
        )
    return fits[-1]


class LightCog(RulesetCog, name="2d10 light"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="light", invoke_without_command=True,
                           description="2d10 torches and lanterns")  # fmt: skip
    @commands.guild_only()
    async def light(self, ctx: Ctx) -> None:
        """Torches and lanterns: add, drop, relight, list."""
        raise UserError("Add a subcommand, e.g. /light add or /light list.")

    @light.command(name="add", description="Light a torch or lantern (burn time secret)",
                   extras={"rulings": LIGHT_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(kind="torch or lantern", character="Who carries it (default: yours)")
    @app_commands.autocomplete(character=options.character_names)
    async def light_add(self, ctx: Ctx, kind: Kind, character: Name = None) -> None:  # type: ignore[assignment]
        """The GM's secret roll (2d6 or 3d8, highest) goes to the GM only."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "light for them")
            lit = light(LightKind(kind), dice=self.bot.dice)
            light_id = await TwoD10LightRepository(conn).add(guild.id, sheet.id, lit)
            if light_id is None:
                raise UserError(f"A character carries at most {MAX_LIGHTS} lights; drop one first.")
            await log_burn_time(conn, ctx, sheet=sheet, light_id=light_id, lit=lit)
        await deliver_to_gm(guild, campaign, gm_burn_text(sheet.name, light_id, lit))
        await send(ctx, f"{safe(sheet.name)} lights a {kind} (#{light_id}); the GM knows how"
                        " long it burns.")  # fmt: skip

    @light.command(name="drop", description="Drop a lit light: it may go out",
                   extras={"rulings": LIGHT_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(kind="torch or lantern (default: the latest lit)",
                           character="Who drops it (default: yours)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def light_drop(self, ctx: Ctx, kind: Kind | None = None, character: Name = None) -> None:  # type: ignore[assignment]
        """A torch goes out on a d4 showing 1, a lantern on a d12 showing 1."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "drop it")
            repo = TwoD10LightRepository(conn)
            row = _pick(await repo.list(guild.id, sheet.id), kind, lit=True)
            try:
                result = drop(row.light, dice=self.bot.dice)
            except RulesError as exc:
                raise options.rules(exc) from None
            if not await repo.update(guild.id, row, result.after):
                raise SheetChanged()
            await log_drop(conn, ctx, sheet=sheet, light_id=row.id, dropped=result)
        outcome = "it goes out" if result.went_out else "it stays lit"
        await send(ctx, f"{safe(sheet.name)} drops the {row.light.kind.value} (#{row.id}):"
                        f" d{result.sides} shows {result.face}, {outcome}.")  # fmt: skip

    @light.command(name="relight", description="Relight a dropped light, or a lantern with oil",
                   extras={"rulings": [*LIGHT_RULINGS, OIL]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(kind="torch or lantern (default: the latest unlit)",
                           oil="Spend a unit of oil on a burned-out lantern",
                           character="Whose light (default: yours)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def light_relight(
        self, ctx: Ctx, kind: Kind | None = None, oil: bool = False,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """A dropped light relights free; a burned-out lantern needs oil and a new burn time."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "relight it")
            repo = TwoD10LightRepository(conn)
            row = _pick(await repo.list(guild.id, sheet.id), kind, lit=False)
            oil_left = None
            if oil and row.light.kind is LightKind.LANTERN and row.light.status is BURNED_OUT:
                # Taken before the new burn time is rolled; a refusal below rolls it back.
                oil_left = await TwoD10AmmoRepository(conn).spend_oil(guild.id, sheet.id)
                if oil_left is None:
                    raise UserError(
                        f"{safe(sheet.name)} has no oil: the GM sets it with /light oil."
                    )
            try:
                result = relight(row.light, oil=oil, dice=self.bot.dice)
            except RulesError as exc:
                raise options.rules(exc) from None
            if not await repo.update(guild.id, row, result.after):
                raise SheetChanged()
            if result.oil_used:  # a fresh burn time was rolled (ruling torch-spent)
                await log_burn_time(conn, ctx, sheet=sheet, light_id=row.id, lit=result.after)
        if result.oil_used:
            await deliver_to_gm(guild, campaign, gm_burn_text(sheet.name, row.id, result.after))
        spent = f" with a unit of oil ({oil_left} left)" if result.oil_used else ""
        await send(ctx, f"{safe(sheet.name)} relights the {row.light.kind.value}"
                        f" (#{row.id}){spent}.")  # fmt: skip

    @light.command(name="oil", description="Show or (GM) set a character's units of oil",
                   extras={"rulings": [OIL]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Whose oil (default: your active character)",
                           units=f"GM only: set the units of oil (0-{MAX_OIL})")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def light_oil(self, ctx: Ctx, character: Name = None, units: OilUnits = None) -> None:  # type: ignore[assignment]
        """Units of lantern oil a character carries."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            repo = TwoD10AmmoRepository(conn)
            if units is not None:
                require_gm(ctx.author, campaign, "set oil")
                count = await repo.set_oil(guild.id, sheet.id, units)
            else:
                count = await repo.oil(guild.id, sheet.id)
        await send(ctx, f"{safe(sheet.name)} has {plural(count, 'unit')} of oil.")

    @light.command(name="list", description="The lights: lit or out (the GM sees turns left)",
                   extras={"rulings": LIGHT_RULINGS})  # fmt: skip
    @commands.guild_only()
    async def light_list(self, ctx: Ctx) -> None:
        """Players see lit/out and warnings; the GM's (private) list has the turns left."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            rows = await TwoD10LightRepository(conn).list(guild.id)
        if not rows:
            raise UserError("No lights yet: /light add torch lights one.")
        if is_gm(ctx.author, campaign):
            await send(ctx, "\n".join(gm_line(r) for r in rows), ephemeral=True)
        else:
            await send(ctx, "\n".join(party_line(r) for r in rows))

    @commands.hybrid_command(name="explore", description="GM: advance exploration time",
                             extras={"rulings": LIGHT_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(turns="Exploration actions, encounters or rooms (1-50)")
    async def explore(self, ctx: Ctx, turns: Turns = 1) -> None:
        """Every lit light burns; the party hears only which are about to fail or went out."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "advance exploration time")
            repo = TwoD10LightRepository(conn)
            warnings: list[str] = []
            after_rows: list[LightRow] = []
            for row in await repo.list(guild.id):
                if not row.light.lit:
                    continue
                step = advance(row.light, turns=turns)
                if not await repo.update(guild.id, row, step.after):
                    raise SheetChanged()
                after_rows.append(replace(row, light=step.after, revision=row.revision + 1))
                warn = party_warning(f"{row.character_name}'s #{row.id}", step.after)
                if warn:
                    warnings.append(warn)
        if after_rows:
            await deliver_to_gm(guild, campaign, "\n".join(gm_line(r) for r in after_rows))
        lines = [f"Time passes: {plural(turns, 'exploration turn')}.", *warnings]
        await send(ctx, "\n".join(lines))


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LightCog(bot))
