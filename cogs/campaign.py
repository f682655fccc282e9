"""/campaign show, /campaign set, and the campaign file's /campaign export and import."""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import SECRET_ROLL_RULING
from bot.errors import GuildOnly, UserError
from bot.render.campaign import campaign_embed
from bot.storage.campaigns import CampaignRepository, Ruleset
from bot.tables.permissions import require_gm
from cogs.campaign_switch import (
    RulesetSwitchButton,
    announce_switch,
    confirmation_text,
    refuse_during_encounter,
)
from cogs.campaign_transfer import (
    EXPORT_RULINGS,
    IMPORT_RULINGS,
    ImportConfirmButton,
    export_command,
    import_command,
)

log = logging.getLogger(__name__)

# The ruleset option's choices come from the registry (a new ruleset is one line there).
RulesetChoice = Literal[tuple(ruleset.value for ruleset in Ruleset)]  # type: ignore[valid-type]


class CampaignCog(commands.Cog, name="Campaign"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="campaign", fallback="show")
    @commands.guild_only()
    async def campaign(self, ctx: commands.Context[TableBot]) -> None:
        """Show this server's campaign: ruleset, GM role, where secret rolls go."""
        await self.campaign_show(ctx)

    async def campaign_show(self, ctx: commands.Context[TableBot]) -> None:
        assert ctx.guild is not None
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
        await send(ctx, embed=campaign_embed(campaign, ctx.guild.name))

    @campaign.command(
        name="set",
        extras={
            "rulings": [
                "A member is GM with Manage Server or the campaign's GM role.",
                SECRET_ROLL_RULING,
                "one_shot: each player character gets a single hero point per adventure, at"
                " its first /session start; session ends don't drop it (see /help session start).",
                "ruleset: switching is refused while an encounter runs in the server; with"
                " characters, logged rolls or sessions the GM confirms with a button first;"
                " nothing is deleted, switching back finds every sheet.",
            ]
        },
    )
    @commands.guild_only()
    @app_commands.describe(
        gm_role="Members with this role are GMs (Manage Server always is)",
        ruleset="The rule system this campaign plays",
        gm_channel="Channel where secret rolls are shown to the GM",
        clear="Remove the GM role or the GM channel setting",
        one_shot="One hero point per adventure (given at its first session) instead of per session",
        show_npc_hp="The initiative tracker shows NPC hit points instead of a status word",
    )
    async def campaign_set(
        self,
        ctx: commands.Context[TableBot],
        gm_role: discord.Role | None = None,
        ruleset: RulesetChoice | None = None,
        gm_channel: discord.TextChannel | None = None,
        clear: Literal["gm_role", "gm_channel"] | None = None,
        one_shot: bool | None = None,
        show_npc_hp: bool | None = None,
    ) -> None:
        """Change the campaign (GM only): GM role, ruleset, GM channel for secret rolls."""
        if ctx.guild is None:
            raise GuildOnly()
        changes: dict[str, object] = {}
        if gm_role is not None:
            if gm_role.is_default():
                raise UserError("@everyone can't be the GM role: pick a role only GMs have.")
            changes["gm_role_id"] = gm_role.id
        # A declared choice: the tree refuses any other value. Applied below, apart.
        wanted = Ruleset(ruleset) if ruleset is not None else None
        if gm_channel is not None:
            changes["gm_channel_id"] = gm_channel.id
        if clear is not None:
            if f"{clear}_id" in changes:
                raise UserError(f"You both set and cleared {clear}: do one or the other.")
            changes[f"{clear}_id"] = None
        settings: dict[str, object] = {}
        if one_shot is not None:
            settings["one_shot"] = one_shot
        if show_npc_hp is not None:
            settings["show_npc_hp"] = show_npc_hp
        if not changes and not settings and wanted is None:
            raise UserError("Nothing to change: give a GM role, ruleset, GM channel or clear.")
        confirm: RulesetSwitchButton | None = None
        async with self.bot.db.transaction() as conn:
            repo = CampaignRepository(conn)
            campaign = await repo.get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "change the campaign")
            old = campaign.ruleset
            if wanted is not None and wanted is not old:
                refuse_during_encounter(await repo.running_encounter_channel(ctx.guild.id))
                if await repo.has_play_data(ctx.guild.id):
                    confirm = RulesetSwitchButton(ctx.guild.id, old, wanted)
                else:
                    await repo.switch_ruleset(ctx.guild.id, old, wanted)
            if settings:
                changes["settings"] = campaign.settings.model_copy(update=settings)
            campaign = await repo.update(ctx.guild.id, **changes)
        log.info("campaign of guild %s changed: %s", ctx.guild.id, sorted(changes))
        if campaign.ruleset is not old:
            await announce_switch(self.bot, campaign, ctx.guild.name)
        text = "Campaign updated." if changes or campaign.ruleset is not old else ""
        if confirm is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(confirm)
            prompt = confirmation_text(old, confirm.new)
            await send(
                ctx,
                f"{text} {prompt}".strip(),
                embed=campaign_embed(campaign, ctx.guild.name),
                view=view,
            )
            return
        await send(ctx, "Campaign updated.", embed=campaign_embed(campaign, ctx.guild.name))

    @campaign.command(name="export", extras={"rulings": EXPORT_RULINGS})
    @commands.guild_only()
    @app_commands.describe(log="Include the roll log (a long one makes a big file)")
    async def campaign_export(self, ctx: commands.Context[TableBot], log: bool = True) -> None:
        """The campaign as a file, answered privately (GM only): keep it, or import it elsewhere."""
        await export_command(self.bot, ctx, log_rows=log)

    @campaign.command(name="import", extras={"rulings": IMPORT_RULINGS})
    @commands.guild_only()
    @app_commands.describe(file="A campaign file made by /campaign export (JSON, at most 10 MiB)")
    async def campaign_import(
        self, ctx: commands.Context[TableBot], file: discord.Attachment
    ) -> None:
        """Load a campaign file into this server (GM only); replacing data needs a confirm."""
        await import_command(self.bot, ctx, file)


async def setup(bot: TableBot) -> None:
    bot.add_dynamic_items(RulesetSwitchButton, ImportConfirmButton)
    await bot.add_cog(CampaignCog(bot))


async def teardown(bot: TableBot) -> None:
    bot.remove_dynamic_items(RulesetSwitchButton, ImportConfirmButton)
