"""/campaign export and /campaign import: the campaign file (bot.campaign_file) in Discord.

Both answer privately, so both are slash-only: the file holds secret rolls and the GM's
hidden NPC state, and a message command's answer is public. An import into a server
that already has play data is held (``pending_imports``) until the GM presses a confirm
button, a ``DynamicItem`` (``campaign:import:<guild>:<pending id>``) that works after a
restart; taking the held file and writing it is one transaction, so a second press
finds nothing to take and writes nothing.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord.ext import commands

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import CampaignFile, dump
from bot.campaign_file.importing import (
    MAX_FILE_BYTES,
    CampaignHasData,
    Destination,
    ImportReport,
    counted,
    hold_import,
    import_campaign,
    import_held,
    read_campaign_file,
)
from bot.campaign_file.reading import too_big
from bot.delivery.replies import NO_PINGS
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.interactions.guild_context import guild_of
from bot.rulesets import RULESETS, Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.pending_imports import HOLD_MINUTES
from bot.tables.permissions import require_gm

log = logging.getLogger(__name__)

# What Discord takes as one attachment from a bot (a server's boost can raise it; the
# interaction says by how much, and the smaller of the two is used).
DISCORD_ATTACHMENT_BYTES = 10 * 1024 * 1024

EXPORT_RULINGS = [
    "The campaign file holds both rulesets' characters, the campaign's settings, its"
    " sessions, fights and running encounters, and the roll log unless log:False; it"
    " leaves out message ids (tracker pins, reply buttons), pending damage choices, the"
    " web pages' links and the members seen acting as GM.",
    "The file is answered privately, so only the slash command exports; a file over"
    " Discord's 10 MiB attachment limit is refused: export with log:False, or the bot's"
    " operator runs `python -m bot export-campaign`.",
]
IMPORT_RULINGS = [
    "A running fight moves to the channel where the import runs when its old channel"
    " isn't in this server; the GM role and GM channel are kept only if this server has them.",
    "A file of a newer format version than this bot reads is refused (update the bot"
    " first); the whole file is checked before anything is written, and a refused file"
    " changes nothing.",
    f"Importing into a server that has characters, sessions, rolls or fights replaces"
    f" them all, once the GM presses the confirm button (valid {HOLD_MINUTES} minutes,"
    f" pressed once).",
]

SLASH_ONLY = "Use the slash command /campaign {}: its answer is private, a channel's message isn't."
IMPORT_TEMPLATE = r"campaign:import:(?P<guild>[0-9]{1,20}):(?P<pending>[0-9]{1,20})"


def describe(file: CampaignFile) -> str:
    """What a file holds, in a few words: its ruleset and counts."""
    characters = len(file.hocs.characters) + len(file.twod10.characters)
    fights = len(file.hocs.encounters) + len(file.twod10.encounters)
    log_part = "no roll log" if file.log is None else counted(len(file.log), "logged roll")
    return (
        f"{RULESETS[Ruleset(file.ruleset)].title}: {counted(characters, 'character')},"
        f" {counted(len(file.sessions), 'session')}, {log_part},"
        f" {counted(fights, 'running fight')}"
    )


def file_name(guild_id: int, file: CampaignFile) -> str:
    return f"campaign-{guild_id}-{file.exported_at[:10]}.json"


async def _gm_check(bot: Any, member: discord.abc.User, guild_id: int, action: str) -> None:
    """``require_gm`` without writing: a server with no campaign row yet has no GM role."""
    async with bot.db.read() as conn:
        campaign = await CampaignRepository(conn).get_or_default(guild_id)
    require_gm(member, campaign, action)


async def export_command(bot: Any, ctx: commands.Context[Any], *, log_rows: bool) -> None:
    guild = guild_of(ctx)
    if ctx.interaction is None:
        raise UserError(SLASH_ONLY.format("export"))
    async with bot.db.transaction() as conn:  # (a server seen for the first time gets one)
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
    require_gm(ctx.author, campaign, "export the campaign")
    await ctx.defer(ephemeral=True)  # a long log takes a while to read
    file = await export_campaign(bot.db, guild.id, log=log_rows)
    raw = await asyncio.to_thread(dump, file)
    limit = min(DISCORD_ATTACHMENT_BYTES, ctx.interaction.filesize_limit)
    if len(raw) > limit:
        instead = "with log:False, or" if file.log is not None else "or"
        raise UserError(
            f"The campaign file is {len(raw) / 2**20:.1f} MiB, more than the"
            f" {limit / 2**20:.0f} MiB Discord takes: export it {instead} ask the bot's"
            " operator for `python -m bot export-campaign`."
        )
    log.info("campaign of guild %s exported: %d bytes", guild.id, len(raw))
    attached = discord.File(io.BytesIO(raw), filename=file_name(guild.id, file))
    await answer_deferred(ctx, f"The campaign file ({describe(file)}).", attachments=[attached])


async def answer_deferred(ctx: commands.Context[Any], content: str, **fields: Any) -> None:
    """The answer of a deferred command, in place of its "thinking…" message: the
    button or file is on the message Discord shows as the command's answer."""
    assert ctx.interaction is not None
    await ctx.interaction.edit_original_response(
        content=content, allowed_mentions=NO_PINGS, **fields
    )


def destination_of(interaction: discord.Interaction) -> Destination:
    """The import's channel, and this server's channels and roles (cached with the
    guilds intent alone, no privileged one)."""
    guild = interaction.guild
    assert guild is not None
    channels = {c.id for c in guild.channels} | {t.id for t in guild.threads}
    return Destination(
        channel_id=interaction.channel_id,
        channels=frozenset(channels),
        roles=frozenset(r.id for r in guild.roles),
    )


async def import_command(
    bot: Any, ctx: commands.Context[Any], attachment: discord.Attachment
) -> None:
    guild = guild_of(ctx)
    if ctx.interaction is None:
        raise UserError(SLASH_ONLY.format("import"))
    await _gm_check(bot, ctx.author, guild.id, "import a campaign")
    if attachment.size > MAX_FILE_BYTES:  # refused before a byte is downloaded
        raise too_big(attachment.size)
    await ctx.defer(ephemeral=True)
    try:
        raw = await attachment.read()
    except discord.HTTPException:
        raise UserError(
            "Discord didn't hand me the file: upload it again with /campaign import."
        ) from None
    file = await asyncio.to_thread(read_campaign_file, raw)
    try:
        report = await import_campaign(
            bot.db, guild.id, file, destination=destination_of(ctx.interaction)
        )
    except CampaignHasData:
        pending = await hold_import(bot.db, guild.id, ctx.author.id, raw)
        view = discord.ui.View(timeout=None)
        view.add_item(ImportConfirmButton(guild.id, pending))
        await answer_deferred(ctx, confirmation_text(file), view=view)
        return
    await answer_deferred(ctx, report.sentence())  # the GM hears first; the menu follows
    await imported(bot, guild.id, report)


def confirmation_text(file: CampaignFile) -> str:
    return (
        f"This server's campaign already has characters, sessions, rolls or fights, and"
        f" the file ({describe(file)}) replaces all of them: press the button within"
        f" {HOLD_MINUTES} minutes to confirm."
    )


async def imported(bot: Any, guild_id: int, report: ImportReport) -> None:
    """After the import is committed: a changed ruleset takes the menu along."""
    log.info("guild %s imported a campaign file: %s", guild_id, report)
    if report.old_ruleset != report.ruleset:
        await bot.ruleset_switched(guild_id)


class ImportConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=IMPORT_TEMPLATE):
    """The GM's confirmation that the held file replaces the server's campaign."""

    def __init__(self, guild_id: int, pending_id: int) -> None:
        self.guild_id, self.pending_id = guild_id, pending_id
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger,
                label="Replace this server's campaign",
                custom_id=f"campaign:import:{guild_id}:{pending_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ImportConfirmButton:
        return cls(int(match["guild"]), int(match["pending"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, f"button {self.item.custom_id}", self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        if interaction.guild is None or interaction.guild.id != self.guild_id:
            raise GuildOnly()
        bot: Any = interaction.client
        await _gm_check(bot, interaction.user, self.guild_id, "replace the campaign")
        await interaction.response.defer()  # (a big file takes more than 3 seconds)
        report = await import_held(
            bot.db, self.guild_id, self.pending_id, destination=destination_of(interaction)
        )
        await interaction.edit_original_response(
            content=report.sentence(), view=None, allowed_mentions=NO_PINGS
        )
        await imported(bot, self.guild_id, report)  # (the menu's sync may take a while)
