"""/character: the group and create, show, list, select, edit, delete.

Skills, traits and fundamentals are in ``skills_traits``; weapons, defenses and wounds
in ``combat_sheet``: each adds its subcommands to this group in a subclass.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import clean_name
from bot.render.hocs.character import list_embed, sheet_embed
from bot.render.text import safe
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import CharacterSheet, SizeCategory
from bot.rules.hocs.meta_currencies import MAX_HERO_POINTS
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.sessions import SessionRepository
from bot.tables.character_access import UnknownCharacter
from bot.tables.permissions import require_gm
from cogs.hocs.characters import edits, options, seated
from cogs.hocs.characters.edits import Outcome
from cogs.hocs.characters.lookup import change_sheet, find_for_viewing, resolve
from cogs.hocs.characters.options import (
    Armor,
    AttributeValue,
    Exp,
    Kind,
    Name,
    NameTaken,
    Size,
    Spirit,
    Tier,
)
from cogs.hocs.characters.rulings import RULINGS
from cogs.hocs.visibility import shows_state

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
# The slash menu shows ``description=`` and the option descriptions; /help shows the
# docstring's first line, the options and the rulings. Everything sent to Discord for the
# whole /character group (names, descriptions, choices) counts towards one 4000-character
# limit, so what is sent stays short and the detail lives in the docstrings and rulings.
NAME_HELP = "Default: your active character"
ATTRIBUTE_HELP = "1–5"


class CharactersCog(RulesetCog, name="Characters"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _edit(
        self,
        ctx: Ctx,
        name: str | None,
        action: str,
        edit: Callable[..., Outcome],
        *args: Any,
        **given: Any,
    ) -> None:
        """``change_sheet`` with ``edit(sheet, details, *args, **given)`` (from ``edits``)."""
        await change_sheet(
            self.bot, ctx, name, action, lambda c: edit(c.sheet, c.details, *args, **given)
        )

    @commands.hybrid_group(
        name="character", invoke_without_command=True, description="Character sheets"
    )
    @commands.guild_only()
    async def character(self, ctx: Ctx) -> None:
        """Character sheets: create, show, list, select, edit, skills, traits."""
        raise UserError("Add a subcommand, e.g. /character show or /character create (see /help).")

    @character.command(
        name="create", description="Create a character sheet", extras={"rulings": RULINGS["create"]}
    )
    @commands.guild_only()
    @app_commands.describe(
        name="Character name",
        strength="1–5 (new characters: 1–3)",
        agility=ATTRIBUTE_HELP,
        mind=ATTRIBUTE_HELP,
        presence=ATTRIBUTE_HELP,
        kind="pc (default); ally/antagonist NPCs: GM only",
        tier="1–3 (default 1)",
        size="Default medium",
        spirit_attribute="Mettle attribute (default mind)",
        armor="Armor toughness (default 0)",
        instinct="Mind is Instinct (animals, monsters)",
    )
    async def character_create(
        self,
        ctx: Ctx,
        name: Name,
        strength: AttributeValue,
        agility: AttributeValue,
        mind: AttributeValue,
        presence: AttributeValue,
        kind: Kind = "pc",
        tier: Tier = 1,
        size: Size = "medium",
        spirit_attribute: Spirit = "mind",
        armor: Armor = 0,
        instinct: bool = False,
    ) -> None:
        """Create a character sheet; your first player character becomes your active one."""
        guild = guild_of(ctx)
        sheet = CharacterSheet(
            name=clean_name(name),
            strength=strength,
            agility=agility,
            mind=mind,
            presence=presence,
            tier=tier,
            size=SizeCategory(size),
            spirit_attribute=Attribute(spirit_attribute),
            uses_instinct=instinct,
        )
        character_kind = CharacterKind(kind)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            if character_kind is not CharacterKind.PC:
                require_gm(ctx.author, campaign, "create allies and antagonists (NPCs)")
            repo = CharacterRepository(conn)
            if await repo.find(guild.id, sheet.name) is not None:
                raise NameTaken(sheet.name)
            character = await repo.create(
                guild_id=guild.id,
                owner_id=ctx.author.id,
                kind=character_kind,
                sheet=sheet,
                details=CharacterDetails(armor=armor),
            )
            active = False
            if character_kind is CharacterKind.PC and not await repo.get_active(
                guild.id, ctx.author.id
            ):
                await repo.set_active(guild.id, ctx.author.id, character.id)
                active = True
            hero_point = character_kind is CharacterKind.PC and (
                await SessionRepository(conn).running(guild.id) is not None
            )
            if hero_point:  # it missed the point every PC got at /session start
                points = await repo.give_hero_points(character.id, 1, MAX_HERO_POINTS)
                state = replace(character.state, hero_points=points or 0)
                character = replace(character, state=state)
        log.info("character %s created by %s", character.id, ctx.author.id)
        text = f"Created **{safe(character.name)}**."
        if active:
            text += " It is now your active character."
        if hero_point:
            text += " A session is running: it gets its hero point."
        await send(ctx, text, embed=sheet_embed(character, active=active))

    @character.command(
        name="show", description="Show a character sheet", extras={"rulings": RULINGS["show"]}
    )
    @commands.guild_only()
    @app_commands.describe(name=NAME_HELP)
    @app_commands.autocomplete(name=options.character_names)
    async def character_show(
        self,
        ctx: Ctx,
        *,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Show a character sheet with its attributes, derived values, skills and traits."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            repo = CharacterRepository(conn)
            character = await find_for_viewing(repo, guild.id, ctx.author.id, name)
            active = await repo.get_active(guild.id, character.owner_id)
            shown = await shows_state(conn, ctx.author, character, channel_id=ctx.channel.id)
        is_active = active is not None and active.id == character.id
        await send(ctx, embed=sheet_embed(character, active=is_active, hidden=not shown))

    @character.command(
        name="list", description="List the server's characters", extras={"rulings": RULINGS["list"]}
    )
    @commands.guild_only()
    @app_commands.describe(player="Only this player's characters")
    async def character_list(self, ctx: Ctx, player: discord.Member | None = None) -> None:
        """List this server's characters with their owners; ★ marks active ones."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            repo = CharacterRepository(conn)
            found = await repo.list(guild.id, owner_id=player.id if player else None)
            active_ids = set()
            for owner_id in {c.owner_id for c in found}:
                active = await repo.get_active(guild.id, owner_id)
                if active is not None:
                    active_ids.add(active.id)
        whose = f"{player.display_name}'s characters" if player else f"Characters in {guild.name}"
        whose = safe(whose)
        await send(ctx, embed=list_embed(found, title=whose, active_ids=active_ids))

    @character.command(
        name="select",
        description="Set your active character",
        extras={"rulings": RULINGS["select"]},
    )
    @commands.guild_only()
    @app_commands.describe(name="One of your characters")
    @app_commands.autocomplete(name=options.own_character_names)
    async def character_select(self, ctx: Ctx, *, name: Name) -> None:
        """Make one of your characters your active one (used when a command has no name)."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            repo = CharacterRepository(conn)
            character = await repo.find(guild.id, name)
            if character is None:
                raise UnknownCharacter(name)
            if character.owner_id != ctx.author.id:
                raise UserError(
                    f"{safe(character.name)} isn't yours: you can only select your own"
                    " characters (the GM acts for others with the name option)."
                )
            await repo.set_active(guild.id, ctx.author.id, character.id)
        await send(
            ctx,
            f"**{safe(character.name)}** is now your active character:"
            " commands without a name use it.",
            ephemeral=True,
        )

    @character.command(
        name="edit", description="Change a sheet's values", extras={"rulings": RULINGS["edit"]}
    )
    @commands.guild_only()
    @app_commands.describe(
        name=NAME_HELP,
        strength=ATTRIBUTE_HELP,
        agility=ATTRIBUTE_HELP,
        mind=ATTRIBUTE_HELP,
        presence=ATTRIBUTE_HELP,
        tier="1–3",
        exp="Experience points",
        size="Size category",
        spirit_attribute="Mettle attribute",
        armor="Armor toughness",
        instinct="Mind is Instinct (animals, monsters)",
        new_name="Rename the character",
        load="Item slots carried (regular 1, bulky 2, 3 superlight 1)",
    )
    @app_commands.autocomplete(name=options.character_names)
    async def character_edit(
        self,
        ctx: Ctx,
        name: Name = None,  # type: ignore[assignment]
        strength: AttributeValue = None,  # type: ignore[assignment]
        agility: AttributeValue = None,  # type: ignore[assignment]
        mind: AttributeValue = None,  # type: ignore[assignment]
        presence: AttributeValue = None,  # type: ignore[assignment]
        tier: Tier = None,  # type: ignore[assignment]
        exp: Exp = None,  # type: ignore[assignment]
        size: Size | None = None,
        spirit_attribute: Spirit | None = None,
        armor: Armor = None,  # type: ignore[assignment]
        instinct: bool | None = None,
        new_name: Name = None,  # type: ignore[assignment]
        load: commands.Range[int, 0, 99] = None,  # type: ignore[assignment]
    ) -> None:
        """Change sheet values; current values are kept within the new maxima."""
        values = dict(
            strength=strength, agility=agility, mind=mind, presence=presence, tier=tier,
            exp=exp, size=size, spirit_attribute=spirit_attribute, armor=armor,
            instinct=instinct, new_name=new_name, load=load,
        )  # fmt: skip
        await self._edit(ctx, name, "edit its sheet", edits.edit_sheet, **values)

    @character.command(
        name="delete",
        description="Delete a character for good",
        extras={"rulings": RULINGS["delete"]},
    )
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
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            character = await resolve(conn, ctx, campaign, name, "delete it")
            repo = CharacterRepository(conn)
            active = await repo.get_active(guild.id, character.owner_id)
            left = await seated.leave_now(conn, self.bot, guild.id, ctx.author, character.id)
            await repo.delete(character.id)
        log.info("character %s deleted by %s", character.id, ctx.author.id)
        text = f"Deleted **{safe(character.name)}**."
        if active is not None and active.id == character.id:
            text += " Its owner has no active character now: pick one with /character select."
        await send(ctx, text)
        seated.tell_soon(self.bot, guild.id, left)  # ruling seat-deleted
