"""/character for the 2d10 system: the group and create, show, list, select, delete.

Edit and advance are in ``character_edits`` (a subclass adds them to this group).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import clean_name, clean_text
from bot.render.text import safe
from bot.render.twod10.inventory import encumbrance_text
from bot.render.twod10.magic import concentration_text
from bot.render.twod10.sheet import list_embed, sheet_embed
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attributes, check_specialisations
from bot.rules.twod10.character import MAX_FEAT, Character, create_character
from bot.rules.twod10.skills import combine
from bot.rulesets import Ruleset
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.storage.twod10.magic import TwoD10MagicRepository
from bot.tables.permissions import require_gm
from cogs.twod10 import options
from cogs.twod10.access import campaign_for_reading, find_sheet, resolve_sheet, shows_state
from cogs.twod10.encumbrance_state import load_encumbrance
from cogs.twod10.initiative import seated
from cogs.twod10.rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
Text = commands.Range[str, 1, 100]
Score = commands.Range[int, -1, 6]
Kind = Literal["pc", "ally", "antagonist"]
NAME_HELP = "Default: your active character"


class TwoD10CharacterCommands(RulesetCog, name="2d10 characters"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(
        name="character", invoke_without_command=True, description="2d10 character sheets"
    )
    @commands.guild_only()
    async def character(self, ctx: Ctx) -> None:
        """2d10 character sheets: create, show, list, select, edit, advance, delete."""
        raise UserError("Add a subcommand, e.g. /character show or /character create (see /help).")

    @character.command(
        name="create", description="Create a 2d10 character", extras={"rulings": RULINGS["create"]}
    )
    @commands.guild_only()
    @app_commands.describe(
        name="Character name",
        background="Background, e.g. Blacksmith",
        finesse="-1 to 3 (4 points; one -1 gives a 5th)",
        strength="-1 to 3",
        toughness="-1 to 3",
        mind="-1 to 3",
        social="-1 to 3",
        background_skills="5 points, e.g. melee 2, athletics 2, history 1",
        extra_skills="5 points, e.g. defense (finesse) 2, knowledge (herbs) 1",
        feat1="First feat",
        feat2="Second feat",
        armor="Armor from the table (default none)",
        shield="Shield from the table (default none)",
        weapons="Up to 3, comma-separated, e.g. One-handed sword, Shortbow",
        positive="Positive specialisation, e.g. finesse: lockpicking",
        negative="Negative specialisation, e.g. social: lying",
        kind="pc (default); ally/antagonist NPCs: GM only",
    )
    @app_commands.autocomplete(
        armor=options.armor_choices,
        shield=options.shield_choices,
        weapons=options.weapon_list_choices,
    )
    async def character_create(
        self,
        ctx: Ctx,
        name: Name,
        background: Text,
        finesse: Score,
        strength: Score,
        toughness: Score,
        mind: Score,
        social: Score,
        background_skills: Text,
        extra_skills: Text,
        feat1: Text,
        feat2: Text,
        armor: Text = None,  # type: ignore[assignment]
        shield: Text = None,  # type: ignore[assignment]
        weapons: Text = None,  # type: ignore[assignment]
        positive: Text = None,  # type: ignore[assignment]
        negative: Text = None,  # type: ignore[assignment]
        kind: Kind = "pc",
    ) -> None:
        """Create a 2d10 character by the creation rules; the reply names any rule broken."""
        guild = guild_of(ctx)
        sheet_kind = TwoD10Kind(kind)
        character = build_character(
            name=clean_name(name),
            background=clean_text(background, what="The background", limit=60),
            attributes=(finesse, strength, toughness, mind, social),
            background_skills=options.parse_skill_points(
                background_skills, what="background skills"
            ),
            extra_skills=options.parse_skill_points(extra_skills, what="extra skills"),
            feats=(
                clean_text(feat1, what="A feat", limit=MAX_FEAT),
                clean_text(feat2, what="A feat", limit=MAX_FEAT),
            ),
            positive=options.parse_specialisation(positive, what="positive"),
            negative=options.parse_specialisation(negative, what="negative"),
            armor=options.parse_armor(armor),
            shield=options.parse_shield(shield),
            weapons=options.parse_weapons(weapons),
            npc=sheet_kind is not TwoD10Kind.PC,
        )
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            if sheet_kind is not TwoD10Kind.PC:
                require_gm(ctx.author, campaign, "create allies and antagonists (NPCs)")
            repo = TwoD10CharacterRepository(conn)
            sheet = await repo.create(
                guild_id=guild.id, owner_id=ctx.author.id, kind=sheet_kind, character=character
            )
            active = False
            if sheet_kind is TwoD10Kind.PC and await repo.active(guild.id, ctx.author.id) is None:
                await repo.set_active(guild.id, ctx.author.id, sheet.id)
                active = True
        log.info("2d10 character %s created by %s", sheet.id, ctx.author.id)
        text = f"Created **{safe(sheet.name)}**."
        if active:
            text += " It is now your active character."
        await send(ctx, text, embed=sheet_embed(sheet, active=active))

    @character.command(
        name="show", description="Show a 2d10 character", extras={"rulings": RULINGS["show"]}
    )
    @commands.guild_only()
    @app_commands.describe(name=NAME_HELP)
    @app_commands.autocomplete(name=options.character_names)
    async def character_show(self, ctx: Ctx, *, name: Name = None) -> None:  # type: ignore[assignment]
        """Show a character sheet: attributes, defenses, HP, skills, feats and equipment."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, name)
            active = await TwoD10CharacterRepository(conn).active(guild.id, sheet.owner_id)
            held = await TwoD10MagicRepository(conn).get(guild.id, sheet.id)
            hidden = not shows_state(ctx.author, campaign, sheet)
            load = None if hidden else await load_encumbrance(conn, sheet)
        is_active = active is not None and active.id == sheet.id
        focus = concentration_text(held) if held else ""
        embed = sheet_embed(sheet, active=is_active, hidden=hidden, concentration=focus)
        if load is not None:
            embed.add_field(name="Encumbrance", value=encumbrance_text(load), inline=False)
        await send(ctx, embed=embed)

    @character.command(
        name="list", description="List the server's 2d10 characters",
        extras={"rulings": RULINGS["list"]},
    )  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(player="Only this player's characters")
    async def character_list(self, ctx: Ctx, player: discord.Member | None = None) -> None:
        """List this server's characters with their owners; ★ marks active ones."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            repo = TwoD10CharacterRepository(conn)
            found = await repo.list(guild.id, owner_id=player.id if player else None)
            active_ids = set()
            for owner_id in {s.owner_id for s in found}:
                active = await repo.active(guild.id, owner_id)
                if active is not None:
                    active_ids.add(active.id)
        hidden = {s.id for s in found if not shows_state(ctx.author, campaign, s)}
        title = f"{player.display_name}'s characters" if player else f"Characters in {guild.name}"
        await send(
            ctx,
            embed=list_embed(found, title=safe(title), active_ids=active_ids, hidden_ids=hidden),
        )

    @character.command(
        name="select", description="Set your active 2d10 character",
        extras={"rulings": RULINGS["select"]},
    )  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(name="One of your characters")
    @app_commands.autocomplete(name=options.own_character_names)
    async def character_select(self, ctx: Ctx, *, name: Name) -> None:
        """Make one of your characters your active one (used when a command has no name)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            sheet = await find_sheet(conn, guild.id, ctx.author.id, name)
            if sheet.owner_id != ctx.author.id:
                raise UserError(
                    f"{safe(sheet.name)} isn't yours: you can only select your own characters"
                    " (the GM acts for others with the name option)."
                )
            await TwoD10CharacterRepository(conn).set_active(guild.id, ctx.author.id, sheet.id)
        await send(
            ctx,
            f"**{safe(sheet.name)}** is now your active character: commands without a name use it.",
            ephemeral=True,
        )

    @character.command(
        name="delete", description="Delete a 2d10 character for good",
        extras={"rulings": RULINGS["delete"]},
    )  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(name="Character to delete", confirm="True to delete for good")
    @app_commands.autocomplete(name=options.character_names)
    async def character_delete(self, ctx: Ctx, name: Name, confirm: bool) -> None:
        """Delete a character for good (owner or GM; needs confirm:True)."""
        guild = guild_of(ctx)
        if not confirm:
            raise UserError(
                "Deleting a character can't be undone: run it again with confirm:True to go ahead."
            )
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, name, "delete it")
            repo = TwoD10CharacterRepository(conn)
            active = await repo.active(guild.id, sheet.owner_id)
            left = await seated.leave_now(conn, self.bot, guild.id, ctx.author, sheet.id)
            await repo.delete(guild.id, sheet.id)
        log.info("2d10 character %s deleted by %s", sheet.id, ctx.author.id)
        text = f"Deleted **{safe(sheet.name)}**."
        if active is not None and active.id == sheet.id:
            text += " Its owner has no active character now: pick one with /character select."
        await send(ctx, text)
        seated.tell_soon(self.bot, guild.id, left)  # ruling seat-deleted


def build_character(
    *, attributes: tuple[int, int, int, int, int], npc: bool, **given: Any
) -> Character:
    """A new sheet by the creation rules (NPCs: final maxima only, ruling npc-build)."""
    finesse, strength, toughness, mind, social = attributes
    try:
        attrs = Attributes(
            finesse=finesse, strength=strength, toughness=toughness, mind=mind, social=social
        )
        if not npc:
            return create_character(attributes=attrs, **given)
        check_specialisations(given["positive"], given["negative"])
        ranks = combine(given.pop("background_skills"), given.pop("extra_skills"))
        skills = tuple(sorted(ranks.items(), key=lambda kv: kv[0].label))
        return Character(attributes=attrs, skills=skills, **given)
    except RulesError as exc:
        raise options.rules(exc) from None
