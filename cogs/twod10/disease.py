"""/disease expose|overcome|treat|cure|list: diseases on 2d10 characters.

The GM exposes a character (the infection roll, momentary or long contact); an
infected character rolls to overcome it when the campaign day says it is due;
treatment gives that roll advantage. Every roll set is logged (kind
``2d10-disease``) with the 2d10 character id in its result. Each command is one
transaction and each write is conditional on what was read, so an outcome applies
exactly once.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import normalise_text
from bot.render.text import safe
from bot.render.twod10.disease import (
    infection_embed,
    infection_line,
    overcome_embed,
    treatment_embed,
)
from bot.rules.errors import RulesError
from bot.rules.generic.names import normalise_name
from bot.rules.twod10.difficulty import match_difficulty_names, parse_difficulty
from bot.rules.twod10.disease import (
    MAX_NAME,
    Contact,
    Course,
    Disease,
    Infection,
    RollSet,
    Severity,
    roll_infection,
    roll_overcome,
    treat,
)
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import SheetChanged, TwoD10Sheet
from bot.storage.twod10.infections import MAX_INFECTIONS, InfectionRow, TwoD10InfectionRepository
from bot.storage.twod10.rations import TwoD10CalendarRepository
from bot.tables.permissions import is_gm, require_gm
from cogs.twod10 import options
from cogs.twod10.access import campaign_for_reading, find_sheet, resolve_sheet
from cogs.twod10.supplies_rulings import RULINGS
from cogs.twod10.survival_medic import medic_healer

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
DiseaseName = commands.Range[str, 1, MAX_NAME]
Text = commands.Range[str, 1, 40]
CourseChoice = Literal["acute", "intermediate", "chronic"]
SeverityChoice = Literal["minor", "moderate", "severe"]
ContactChoice = Literal["long", "momentary"]
KIND = "2d10-disease"
# Who is sick is private (ruling disease-gm); a message command's reply is public.
PRIVATE_NEEDS_SLASH = "Use the slash command for this: a message command can't answer privately."


def _set_log(rolls: RollSet) -> list[dict[str, Any]]:
    return [
        {"faces": list(r.roll.faces), "dropped": r.roll.dropped, "natural": r.natural,
         "total": r.total, "succeeded": r.succeeded}
        for r in rolls.rolls
    ]  # fmt: skip


async def _log(ctx: Ctx, conn: Any, sheet: TwoD10Sheet, what: str, result: dict[str, Any],
               total: int | None, *, secret: bool = False) -> None:  # fmt: skip
    assert ctx.guild is not None
    await RollLogRepository(conn).record(
        guild_id=ctx.guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id, kind=KIND,
        expression=f"{what} for {sheet.name}"[:500],
        result={"character_id": sheet.id, **result}, total=total, secret=secret,
    )  # fmt: skip


def _pick(rows: list[InfectionRow], name: str | None, who: str) -> InfectionRow:
    """The named disease, or the only one the character carries."""
    if not rows:
        raise UserError(f"{safe(who)} carries no disease.")
    if name is None:
        if len(rows) > 1:
            raise UserError(f"{safe(who)} carries several diseases: name one with disease:.")
        return rows[0]
    key = normalise_name(name)
    for row in rows:
        if normalise_name(row.infection.disease.name) == key:
            return row
    raise UserError(f"{safe(who)} doesn't carry {safe(name[:MAX_NAME])}: see /disease list.")


class DiseaseCog(RulesetCog, name="2d10 disease"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="disease", invoke_without_command=True,
                           description="2d10 diseases")  # fmt: skip
    @commands.guild_only()
    async def disease(self, ctx: Ctx) -> None:
        """Diseases: expose, overcome, treat, cure, list."""
        raise UserError("Add a subcommand, e.g. /disease expose or /disease list.")

    @disease.command(name="expose", description="GM: a character meets a disease (infection roll)",
                     extras={"rulings": RULINGS["expose"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        character="Who is exposed", disease="The disease's name",
        difficulty="Its difficulty: ladder name or number, +5 to -25",
        course="How often the overcoming rolls come (daily, weekly, monthly)",
        severity="Rolls given and successes needed", contact="Long (full difficulty) or"
        " momentary (5 easier)", secret="Show the result only to you",
    )  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def disease_expose(
        self, ctx: Ctx, character: Name, disease: DiseaseName, difficulty: Text,
        course: CourseChoice, severity: SeverityChoice, contact: ContactChoice = "long",
        secret: bool = False,
    ) -> None:  # fmt: skip
        """2d10 + toughness + defense (toughness) + difficulty; too few 10s and it is caught."""
        guild = guild_of(ctx)
        try:
            sickness = Disease(
                name=normalise_text(disease), difficulty=parse_difficulty(difficulty),
                course=Course(course), severity=Severity(severity),
            )  # fmt: skip
        except RulesError as exc:
            raise options.rules(exc) from None
        if secret and ctx.interaction is None:
            raise UserError(PRIVATE_NEEDS_SLASH)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "expose a character to a disease")
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "expose them")
            repo = TwoD10InfectionRepository(conn)
            if await repo.find(guild.id, sheet.id, sickness.name) is not None:
                raise UserError(f"{safe(sheet.name)} already carries {safe(sickness.name)}.")
            result = roll_infection(sheet.character, sickness, contact=Contact(contact),
                                    dice=self.bot.dice)  # fmt: skip
            due = None
            if result.infected:
                due = await TwoD10CalendarRepository(conn).today(guild.id) + sickness.course.days
                if await repo.add(guild.id, sheet.id, Infection(disease=sickness),
                                  due_day=due) is None:  # fmt: skip
                    raise UserError(
                        f"{safe(sheet.name)} already carries {MAX_INFECTIONS} diseases:"
                        " cure one first."
                    )
            await _log(ctx, conn, sheet, f"infection roll ({contact}) {sickness.name}",
                       {"rolls": _set_log(result.rolls), "infected": result.infected,
                        "contact": contact}, None, secret=secret)  # fmt: skip
        embed = infection_embed(sheet.name, sickness, result, due_day=due)
        await send(ctx, embed=embed, ephemeral=secret)

    @disease.command(name="overcome", description="The roll to overcome a disease, when due",
                     extras={"rulings": RULINGS["overcome"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Who is sick (default: your active character)",
                           disease="Which disease (default: the only one)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def disease_overcome(
        self, ctx: Ctx, character: Name = None, disease: DiseaseName = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """The severity's rolls; enough successes cure it, else the next is due a period on."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "roll for them")
            repo = TwoD10InfectionRepository(conn)
            row = _pick(await repo.list(guild.id, character_id=sheet.id), disease, sheet.name)
            today = await TwoD10CalendarRepository(conn).today(guild.id)
            if row.due_day > today:
                raise UserError(
                    f"{safe(sheet.name)}'s next roll against {safe(row.infection.disease.name)}"
                    f" is due on day {row.due_day} (today is day {today})."
                )
            result = roll_overcome(sheet.character, row.infection, dice=self.bot.dice)
            due = None
            if result.infection is None:
                done = await repo.remove(guild.id, row)
            else:
                due = today + row.infection.disease.course.days
                done = await repo.update(guild.id, row, result.infection, due_day=due)
            if not done:
                raise SheetChanged()
            await _log(ctx, conn, sheet, f"overcoming roll {row.infection.disease.name}",
                       {"rolls": _set_log(result.rolls), "overcome": result.overcome,
                        "treated": row.infection.treated}, None)  # fmt: skip
        embed = overcome_embed(sheet.name, row.infection.disease, result,
                               treated=row.infection.treated, due_day=due)  # fmt: skip
        await send(ctx, embed=embed)

    @disease.command(name="treat", description="Mind + medicine: advantage on the next roll",
                     extras={"rulings": RULINGS["treat"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(patient="Who is sick", disease="Which disease (default: the only one)",
                           medic="The character who treats (default: your active one)")  # fmt: skip
    @app_commands.autocomplete(patient=options.character_names, medic=options.character_names)
    async def disease_treat(
        self, ctx: Ctx, patient: Name, disease: DiseaseName = None,  # type: ignore[assignment]
        medic: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """Once a day: mind + medicine with the disease's difficulty."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            healer, medic_sheet, _, _ = await medic_healer(
                conn, campaign, ctx.author, medic, supplies_needed=False
            )
            medic_name = medic_sheet.name
            sheet = await find_sheet(conn, guild.id, ctx.author.id, patient)
            repo = TwoD10InfectionRepository(conn)
            row = _pick(await repo.list(guild.id, character_id=sheet.id), disease, sheet.name)
            name = row.infection.disease.name
            if row.infection.treated:
                raise UserError(
                    f"{safe(sheet.name)} already has advantage on the next roll against"
                    f" {safe(name)}."
                )
            today = await TwoD10CalendarRepository(conn).today(guild.id)
            if row.treated_day is not None and row.treated_day >= today:
                raise UserError(f"{safe(name)} was treated on {safe(sheet.name)} today;"
                                " try again tomorrow.")  # fmt: skip
            result = treat(healer, row.infection, dice=self.bot.dice)
            if not await repo.treat(guild.id, row, result.infection, day=today):
                raise SheetChanged()
            await _log(ctx, conn, sheet, f"treatment of {name} by {medic_name}",
                       {"faces": list(result.roll.roll.faces), "total": result.roll.total,
                        "succeeded": result.roll.succeeded}, result.roll.total)  # fmt: skip
        embed = treatment_embed(sheet.name, medic_name, row.infection.disease, result.roll)
        await send(ctx, embed=embed)

    @disease.command(name="cure", description="GM: remove a disease from a character",
                     extras={"rulings": RULINGS["cure"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        character="Who is cured", disease="Which disease (default: the only one)"
    )
    @app_commands.autocomplete(character=options.character_names)
    async def disease_cure(
        self, ctx: Ctx, character: Name, disease: DiseaseName = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """The GM's word (magic, a miracle, a mistake): the disease is gone."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "cure a disease")
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "cure them")
            repo = TwoD10InfectionRepository(conn)
            row = _pick(await repo.list(guild.id, character_id=sheet.id), disease, sheet.name)
            if not await repo.remove(guild.id, row):
                raise SheetChanged()
        await send(ctx, f"{safe(sheet.name)} no longer carries"
                        f" {safe(row.infection.disease.name)}.", ephemeral=True)  # fmt: skip

    @disease.command(name="list", description="Who is infected (the GM sees all, you yours)",
                     extras={"rulings": RULINGS["list"]})  # fmt: skip
    @commands.guild_only()
    async def disease_list(self, ctx: Ctx) -> None:
        """Private: the GM's list has every infection, a player's only their characters'."""
        guild = guild_of(ctx)
        if ctx.interaction is None:
            raise UserError(PRIVATE_NEEDS_SLASH)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            owner = None if is_gm(ctx.author, campaign) else ctx.author.id
            rows = await TwoD10InfectionRepository(conn).list(guild.id, owner_id=owner)
            today = await TwoD10CalendarRepository(conn).today(guild.id)
        if not rows:
            whose = "No character" if owner is None else "None of your characters"
            await send(ctx, f"{whose} carries a disease (day {today}).", ephemeral=True)
            return
        lines = [f"Day {today}.", *(infection_line(r, today) for r in rows)]
        await send(ctx, "\n".join(lines), ephemeral=True)

    @disease_expose.autocomplete("difficulty")
    async def disease_difficulty_autocomplete(
        self, interaction: Any, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=n, value=n.split(" (")[0])
            for n in match_difficulty_names(current[:100])
        ]


async def setup(bot: TableBot) -> None:
    await bot.add_cog(DiseaseCog(bot))
