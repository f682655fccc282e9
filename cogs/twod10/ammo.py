"""/ammo show|set|scavenge: a 2d10 character's ammo points, quivers and scavenging.

/attack spends the points (cogs.twod10.combat_ammo); here the GM sets what a character
carries and a player scavenges the spent ammo after a fight (ruling ``scavenge-gain``).
Each command is one transaction; a scavenge saves under the ammo row's revision, so
one lot of spent ammo is scavenged once.
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
from bot.render.text import noun, plural, safe
from bot.rules.errors import RulesError
from bot.rules.twod10.ammo import (
    MAX_QUIVERS,
    MAX_SCAVENGE_TURNS,
    MAX_SPENT,
    POINTS_PER_QUIVER,
    AmmoState,
    scavenge,
)
from bot.rules.twod10.rulings import ruling
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.ammo import TwoD10AmmoRepository
from bot.storage.twod10.characters import SheetChanged
from bot.tables.permissions import require_gm
from cogs.twod10 import options
from cogs.twod10.access import find_sheet, resolve_sheet
from cogs.twod10.combat_ammo import UNTRACKED

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
Quivers = commands.Range[int, 0, MAX_QUIVERS]
Points = commands.Range[int, 0, MAX_QUIVERS * POINTS_PER_QUIVER]
Turns = commands.Range[int, 1, MAX_SCAVENGE_TURNS]
Spent = commands.Range[int, 0, MAX_SPENT]
PERCEPTION = SkillKey(skill=Skill.PERCEPTION)
AMMO_RULINGS = [ruling(k).text for k in ("ammo-ones", "ammo-capacity", "quiver-weight")]
AMMO_RULINGS += [UNTRACKED]
SCAVENGE_RULINGS = [ruling("scavenge-gain").text, UNTRACKED]


def describe(name: str, state: AmmoState) -> str:
    return (
        f"{safe(name)}: {state.points}/{state.capacity} ammo"
        f" {noun(state.capacity, 'point')} in {state.quivers}"
        f" {noun(state.quivers, 'quiver or pouch', 'quivers or pouches')}"
        f" ({state.points * 10} arrows or bullets); {state.spent} spent since the last"
        " scavenge."
    )


class AmmoCog(RulesetCog, name="2d10 ammo"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="ammo", invoke_without_command=True,
                           description="2d10 ammo points")  # fmt: skip
    @commands.guild_only()
    async def ammo(self, ctx: Ctx) -> None:
        """Ammo: show, set, scavenge."""
        raise UserError("Add a subcommand, e.g. /ammo show or /ammo scavenge.")

    @ammo.command(name="show", description="A character's ammo points and quivers",
                  extras={"rulings": AMMO_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Whose ammo (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def ammo_show(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """Points left, the quivers' room, and what a scavenge could find."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            row = await TwoD10AmmoRepository(conn).get(guild.id, sheet.id)
        if row is None:
            await send(ctx, f"{safe(sheet.name)}'s ammo isn't tracked yet: the GM sets it with"
                            " /ammo set.")  # fmt: skip
            return
        await send(ctx, describe(sheet.name, row.state))

    @ammo.command(name="set", description="GM: set a character's quivers and ammo points",
                  extras={"rulings": AMMO_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        quivers=f"Pouches or quivers carried (0-{MAX_QUIVERS}), 2 ammo points each",
        points="Ammo points in them (default: full); 1 point is 10 arrows or bullets",
        spent="Points shot since the last scavenge, e.g. outside /attack (default: kept)",
        character="Whose ammo (default: your active character)",
    )
    @app_commands.autocomplete(character=options.character_names)
    async def ammo_set(
        self, ctx: Ctx, quivers: Quivers, points: Points = None,  # type: ignore[assignment]
        spent: Spent = None, character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """Buying, finding or losing ammo: the GM sets the count (spent ammo is kept)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "set ammo")
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            repo = TwoD10AmmoRepository(conn)
            row = await repo.get(guild.id, sheet.id)
            if spent is None:
                spent = row.state.spent if row else 0
            try:
                state = AmmoState(
                    quivers=quivers,
                    points=quivers * POINTS_PER_QUIVER if points is None else points,
                    spent=spent,
                )
            except RulesError as exc:
                raise options.rules(exc) from None
            await repo.set(guild.id, sheet.id, state)
        await send(ctx, describe(sheet.name, state))

    @ammo.command(name="scavenge", description="Search for spent ammo: d10 under the turns",
                  extras={"rulings": SCAVENGE_RULINGS})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        turns=f"Exploration turns spent searching (1-{MAX_SCAVENGE_TURNS})",
        character="Who searches (default: your active character)",
    )
    @app_commands.autocomplete(character=options.character_names)
    async def ammo_scavenge(
        self, ctx: Ctx, turns: Turns = 1, character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """A d10 at or under min(turns, the higher of 2 and perception) finds half the spent."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "scavenge for them")
            repo = TwoD10AmmoRepository(conn)
            row = await repo.get(guild.id, sheet.id)
            if row is None:
                raise UserError(
                    f"{safe(sheet.name)}'s ammo isn't tracked: the GM sets it with /ammo set."
                )
            perception = sheet.character.skill(PERCEPTION)
            try:
                found = scavenge(row.state, turns=turns, perception=perception,
                                 dice=self.bot.dice)  # fmt: skip
            except RulesError as exc:
                raise options.rules(exc) from None
            if await repo.save(guild.id, row, found.after) is None:
                raise SheetChanged()
            await RollLogRepository(conn).record(
                guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                kind="2d10-scavenge",
                expression=f"scavenge {sheet.name}: d10 {found.face} vs {found.chance}"[:500],
                result={"ruleset": "2d10", "character_id": sheet.id, "face": found.face,
                        "chance": found.chance, "turns": turns,
                        "points": [found.before.points, found.after.points],
                        "left_behind": found.left_behind},
                total=found.face, secret=False,
            )  # fmt: skip
        gained = found.after.points - found.before.points
        lines = [
            f"{safe(sheet.name)} scavenges for {plural(turns, 'turn')}: d10 **{found.face}**"
            f" (finds on {found.chance} or less: {plural(turns, 'turn')}, the higher of 2"
            f" and perception {perception})."
        ]
        if found.found:
            lines.append(
                f"Found half the {found.before.spent} spent: +{plural(gained, 'ammo point')}."
            )
            if found.left_behind:
                behind = plural(found.left_behind, "point")
                lines.append(f"{behind} left behind: no room in a quiver.")
        else:
            spent = found.before.spent
            lost = "point is" if spent == 1 else "points are"
            lines.append(f"Nothing found; the {spent} spent {lost} lost.")
        lines.append(describe(sheet.name, found.after))
        await send(ctx, "\n".join(lines))


async def setup(bot: TableBot) -> None:
    await bot.add_cog(AmmoCog(bot))
