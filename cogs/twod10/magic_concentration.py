"""/concentration end|list: the lasting spell or ritual effects 2d10 casters hold."""

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
from bot.render.twod10.magic import concentration_list_embed, ended_embed
from bot.rulesets import Ruleset
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.magic import TwoD10MagicRepository
from cogs.twod10 import options
from cogs.twod10.access import campaign_for_reading, resolve_sheet, shows_state
from cogs.twod10.magic_rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]


class ConcentrationCog(RulesetCog, name="2d10 concentration"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="concentration", invoke_without_command=True,
                           description="2d10 concentration on lasting effects")  # fmt: skip
    @commands.guild_only()
    async def concentration(self, ctx: Ctx) -> None:
        """Concentration: /concentration list or /concentration end."""
        raise UserError("Add a subcommand: /concentration list or /concentration end.")

    @concentration.command(name="end", description="Stop concentrating on a lasting effect",
                           extras={"rulings": RULINGS["end"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Who lets go (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def concentration_end(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """End a character's concentration (the effect ends with it)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character,
                                        "end their concentration")  # fmt: skip
            held = await TwoD10MagicRepository(conn).end(guild.id, sheet.id)
        if held is None:  # nothing to end: said privately, nothing written
            await send(ctx, f"{safe(sheet.name)} is not concentrating on anything.", ephemeral=True)
            return
        log.debug("2d10 concentration of %s ended by %s", sheet.id, ctx.author.id)
        await send(ctx, embed=ended_embed(sheet.name, held))

    @concentration.command(name="list", description="Who concentrates on what",
                           extras={"rulings": RULINGS["list"]})  # fmt: skip
    @commands.guild_only()
    async def concentration_list(self, ctx: Ctx) -> None:
        """Every concentration in the server (an NPC's only where its state is shown)."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            held = await TwoD10MagicRepository(conn).list(guild.id)
            sheets = await TwoD10CharacterRepository(conn).get_many(
                guild.id, [h.character_id for h in held]
            )
        shown = [(sheets[h.character_id], h) for h in held if h.character_id in sheets]
        rows = [(s.name, h) for s, h in shown if shows_state(ctx.author, campaign, s)]
        await send(ctx, embed=concentration_list_embed(rows), ephemeral=True)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ConcentrationCog(bot))
