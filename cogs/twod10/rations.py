"""/rations eat|add|show|day: a 2d10 character's food, one meal per campaign day.

The GM moves the campaign's day on with /rations day; each character eats once a day
(full, half or quarter rations, the last two with the text's roll against
exhaustion). The meal is one UPDATE conditional on the row's revision and on the
character not having eaten that day, so a ration is spent exactly once. Rolls are
logged (kind ``2d10-rations``) with the 2d10 character id in the result.
"""

from __future__ import annotations

import logging
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
from bot.render.twod10.disease import infection_line
from bot.render.twod10.rations import meal_embed, state_text
from bot.rules.errors import RulesError
from bot.rules.twod10.rations import MAX_QUARTERS, QUARTERS, Portion, add_rations, eat_day
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import SheetChanged, TwoD10CharacterRepository, TwoD10Kind
from bot.storage.twod10.infections import TwoD10InfectionRepository
from bot.storage.twod10.rations import EMPTY, TwoD10CalendarRepository, TwoD10RationRepository
from bot.tables.permissions import require_gm
from cogs.twod10 import options
from cogs.twod10.access import find_sheet, resolve_sheet
from cogs.twod10.supplies_rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
PortionChoice = Literal["full", "half", "quarter"]
Count = commands.Range[int, 1, MAX_QUARTERS // QUARTERS]
KIND = "2d10-rations"


class RationsCog(RulesetCog, name="2d10 rations"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="rations", invoke_without_command=True,
                           description="2d10 rations")  # fmt: skip
    @commands.guild_only()
    async def rations(self, ctx: Ctx) -> None:
        """Rations: eat, add, show, day."""
        raise UserError("Add a subcommand, e.g. /rations eat or /rations show.")

    @rations.command(name="eat", description="Eat today's food: full, half or quarter rations",
                     extras={"rulings": RULINGS["eat"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(portion="full (1 ration), half or quarter (roll against exhaustion)",
                           character="Who eats (default: your active character)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def rations_eat(
        self, ctx: Ctx, portion: PortionChoice = "full", character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """Half rations roll toughness + defense (toughness) - 5 - days; quarter -10 - days."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "eat for them")
            repo = TwoD10RationRepository(conn)
            row = await repo.get(guild.id, sheet.id)
            if row is None or row.state.quarters == 0:
                raise UserError(f"{safe(sheet.name)} has no rations: add some with /rations add.")
            today = await TwoD10CalendarRepository(conn).today(guild.id)
            if row.last_day is not None and row.last_day >= today:
                raise UserError(
                    f"{safe(sheet.name)} has already eaten on day {today}; the GM moves the"
                    " day on with /rations day."
                )
            try:
                meal = eat_day(sheet.character, row.state, Portion(portion), dice=self.bot.dice)
            except RulesError as exc:
                raise options.rules(exc) from None
            if not await repo.eat(guild.id, row, meal.after, day=today):
                raise SheetChanged()
            if meal.roll is not None:
                await RollLogRepository(conn).record(
                    guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                    kind=KIND, expression=f"{portion} rations day {today} for {sheet.name}"[:500],
                    result={"character_id": sheet.id, "faces": list(meal.roll.roll.faces),
                            "total": meal.roll.total, "exhaustion": meal.exhaustion_gained},
                    total=meal.roll.total, secret=False,
                )  # fmt: skip
        await send(ctx, embed=meal_embed(sheet.name, meal, today))

    @rations.command(name="add", description="Add rations a character carries",
                     extras={"rulings": RULINGS["add"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(rations="Whole rations to add (1-400)",
                           character="Whose (default: your active character)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def rations_add(self, ctx: Ctx, rations: Count, character: Name = None) -> None:  # type: ignore[assignment]
        """Each ration weighs 1/2 in the backpack."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "add rations")
            repo = TwoD10RationRepository(conn)
            row = await repo.get(guild.id, sheet.id)
            try:
                state = add_rations(row.state if row else EMPTY, rations=rations)
            except RulesError as exc:
                raise options.rules(exc) from None
            if not await repo.save(guild.id, sheet.id, state, expected=row):
                raise SheetChanged()
        await send(ctx, f"{safe(sheet.name)} now carries {state_text(state)}.")

    @rations.command(name="show", description="A character's rations and exhaustion",
                     extras={"rulings": RULINGS["show"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Whose (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def rations_show(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """Rations carried, days on short rations, whether today's meal is eaten."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            row = await TwoD10RationRepository(conn).get(guild.id, sheet.id)
            today = await TwoD10CalendarRepository(conn).today(guild.id)
        state = row.state if row else EMPTY
        lines = [f"Day {today}: {safe(sheet.name)} carries {state_text(state)}."]
        if state.half_days:
            lines.append(
                f"{plural(state.half_days, 'day')} on half rations since the last full day."
            )
        if state.quarter_days:
            lines.append(
                f"{plural(state.quarter_days, 'day')} on quarter rations since the last full day."
            )
        eaten = row is not None and row.last_day is not None and row.last_day >= today
        lines.append("Has eaten today." if eaten else "Hasn't eaten today.")
        await send(ctx, "\n".join(lines))

    @rations.command(name="day", description="GM: a day passes for the party",
                     extras={"rulings": RULINGS["day"]})  # fmt: skip
    @commands.guild_only()
    async def rations_day(self, ctx: Ctx) -> None:
        """Moves the campaign day on; names the player characters who didn't eat."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "move the day on")
            calendar = TwoD10CalendarRepository(conn)
            ended = await calendar.today(guild.id)
            today = await calendar.advance(guild.id, 1)
            pcs = await TwoD10CharacterRepository(conn).list(guild.id)
            meals = await TwoD10RationRepository(conn).list(guild.id)
            due = [r for r in await TwoD10InfectionRepository(conn).list(guild.id)
                   if r.due_day <= today]  # fmt: skip
        hungry = [
            s.name for s in pcs
            if s.kind is TwoD10Kind.PC and not (
                s.id in meals and (meals[s.id].last_day or 0) >= ended
            )
        ]  # fmt: skip
        lines = [f"Day {today} begins."]
        if hungry:
            names = ", ".join(safe(n) for n in hungry)
            lines.append(f"Didn't eat on day {ended}: {names} (the text sets no roll: GM's call).")
        if due:
            # Who is sick stays the GM's knowledge (ruling disease-gm).
            await deliver_to_gm(guild, campaign, "\n".join(
                [f"Day {today}: disease rolls due (/disease overcome)."]
                + [infection_line(r, today) for r in due]))  # fmt: skip
        await send(ctx, "\n".join(lines))


async def setup(bot: TableBot) -> None:
    await bot.add_cog(RationsCog(bot))
