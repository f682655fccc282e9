"""/fortune grant, spend, list and revoke: fortune points named by their source."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.points import fortune_list_embed
from bot.rules.errors import RulesError
from bot.rules.hocs.meta_currencies import normalise_fortune_source
from bot.rulesets import Ruleset
from bot.storage.hocs.characters import CharacterRepository
from bot.tables.character_access import safe_name
from cogs.hocs.points.common import (
    CHARACTER_HELP,
    Ctx,
    Name,
    acting_for,
    campaign_for,
    character_choices,
    gm_target,
    named,
)
from cogs.hocs.points.spending import Spend, latest_roll, spend_on_roll
from cogs.hocs.points.views import reply_with_roll

log = logging.getLogger(__name__)

Source = commands.Range[str, 1, 40]
Die = commands.Range[int, 0, 31]

FORTUNE_RULINGS = [
    "A fortune point rerolls one die of the character's last roll points can change"
    " (/pool, /check, or its side of a /clash or /attack): the most useful one (the"
    " lowest failed die, the determination die first on a tie) unless you name it by"
    " position with die.",
    'Sources are stored in lower case ("Fortune (Cooking)" is cooking); a character'
    " holds any number of fortune points but at most one per source.",
    "The Fortune reroll button under a roll spends the source first in alphabetical"
    " order; use /fortune spend to pick another. Each point is spent exactly once.",
]
GRANT_RULINGS = [
    "Only the GM grants fortune points: character for good roleplay, a great character"
    " moment or playing to traits and fundamentals (Part 2), others for talents.",
    "A character can't hold two from one source: granting one it has is refused.",
]


def _source(text: str) -> str:
    try:
        return normalise_fortune_source(text)
    except RulesError as exc:
        raise UserError(str(exc)) from None


class FortuneCog(RulesetCog, name="Fortune points"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="fortune", invoke_without_command=True)
    @commands.guild_only()
    async def fortune(self, ctx: Ctx) -> None:
        """Fortune points: grant (GM), spend to reroll one die, list."""
        raise UserError("Add a subcommand: /fortune spend, /fortune list or /fortune grant.")

    @fortune.command(name="grant", extras={"rulings": GRANT_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        character="Who gets it", source="Where it comes from, e.g. character or cooking"
    )
    async def fortune_grant(self, ctx: Ctx, character: Name, source: Source) -> None:
        """Grant a fortune point (GM)."""
        guild_of(ctx)
        key = _source(source)
        async with self.bot.db.transaction() as conn:
            who = await gm_target(conn, ctx, character, "grant fortune points")
            if not await CharacterRepository(conn).grant_fortune(who.id, key):
                raise UserError(
                    f"{safe_name(who.name)} already has a fortune point ({safe_name(key)}):"
                    " a character holds at most one per source."
                )
        log.info("fortune (%s) granted to character %s", key, who.id)
        await send(ctx, f"{safe_name(who.name)} gains a fortune point ({safe_name(key)}).")

    @fortune.command(name="revoke", extras={"rulings": GRANT_RULINGS})
    @commands.guild_only()
    @app_commands.describe(character="Whose fortune point", source="Its source")
    async def fortune_revoke(self, ctx: Ctx, character: Name, source: Source) -> None:
        """Remove a fortune point (GM)."""
        guild_of(ctx)
        key = _source(source)
        async with self.bot.db.transaction() as conn:
            who = await gm_target(conn, ctx, character, "take back fortune points")
            if not await CharacterRepository(conn).spend_fortune(who.id, key):
                raise UserError(f"{safe_name(who.name)} has no fortune point ({safe_name(key)}).")
        await send(ctx, f"{safe_name(who.name)} loses the fortune point ({safe_name(key)}).")

    @fortune.command(name="spend", extras={"rulings": FORTUNE_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        source="Which fortune point, e.g. character",
        die="Position of the die to reroll (default or 0: the most useful one)",
        character=CHARACTER_HELP,
    )
    async def fortune_spend(
        self,
        ctx: Ctx,
        source: Source,
        die: Die = 0,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Reroll one die of your last roll."""
        key = _source(source)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_for(conn, ctx)
            who = await acting_for(conn, ctx, campaign, character, "spend its fortune points")
            logged, side = await latest_roll(conn, who)
            outcome = await spend_on_roll(
                conn, logged=logged, spend=Spend.FORTUNE, actor=ctx.author, campaign=campaign,
                dice=self.bot.dice, indices=(die - 1,) if die else None, fortune_source=key,
                side=side,
            )  # fmt: skip
        await reply_with_roll(ctx, campaign, outcome)

    @fortune.command(name="list", extras={"rulings": FORTUNE_RULINGS})
    @commands.guild_only()
    @app_commands.describe(character=CHARACTER_HELP)
    async def fortune_list(
        self,
        ctx: Ctx,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """List fortune points."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            repo = CharacterRepository(conn)
            if character:
                who = await named(conn, guild.id, character)
            else:
                who = await repo.get_active(guild.id, ctx.author.id)
                if who is None:
                    raise UserError(
                        "You have no active character here: name one, or pick one with"
                        " /character select."
                    )
        embed = fortune_list_embed(safe_name(who.name), [safe_name(s) for s in who.fortune_sources])
        await send(ctx, embed=embed, ephemeral=True)

    @fortune_spend.autocomplete("source")
    async def fortune_source_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        name = getattr(interaction.namespace, "character", None)
        async with self.bot.db.read() as conn:
            repo = CharacterRepository(conn)
            if isinstance(name, str) and name.strip():
                who = await repo.find(interaction.guild_id, name[:64])
            else:
                who = await repo.get_active(interaction.guild_id, interaction.user.id)
        sources = who.fortune_sources if who else ()
        text = current.lower().strip()
        return name_choices(s for s in sources if text in s)

    @fortune_grant.autocomplete("character")
    @fortune_revoke.autocomplete("character")
    @fortune_spend.autocomplete("character")
    @fortune_list.autocomplete("character")
    async def fortune_character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(self.bot, interaction, current)
