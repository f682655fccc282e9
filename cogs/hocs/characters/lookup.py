"""Finding the character a /character subcommand is about, and saving a change to it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import aiosqlite
from discord.ext import commands

from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.interactions.guild_context import guild_of
from bot.render.hocs.character import changes_message, derived_changes
from bot.rules.hocs.effective import overload_conditions
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import NoActiveCharacter, UnknownCharacter
from cogs.hocs.access import resolve_character
from cogs.hocs.characters.edits import Outcome
from cogs.hocs.characters.options import NameTaken

log = logging.getLogger(__name__)

Ctx = commands.Context[Any]


async def resolve(
    conn: aiosqlite.Connection, ctx: Ctx, campaign: Campaign, name: str | None, action: str
) -> Character:
    """resolve_character for the author of ``ctx`` (its refusals escape the name)."""
    return await resolve_character(
        conn, campaign=campaign, member=ctx.author, name=name, action=action
    )


async def find_for_viewing(
    repo: CharacterRepository, guild_id: int, user_id: int, name: str | None
) -> Character:
    """A character by name, or the user's active one, for viewing (anyone may view)."""
    if name is None or not name.strip():
        character = await repo.get_active(guild_id, user_id)
        if character is None:
            raise NoActiveCharacter()
        return character
    character = await repo.find(guild_id, name)
    if character is None:
        raise UnknownCharacter(name)
    return character


async def change_sheet(
    bot: Any, ctx: Ctx, name: str | None, action: str, apply: Callable[[Character], Outcome]
) -> None:
    """Load, check the owner-or-GM rule, apply, save: one transaction; then reply.

    ``apply`` raises a UserError or RulesError to refuse; nothing is written then.
    """
    guild = guild_of(ctx)
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        before = await resolve(conn, ctx, campaign, name, action)
        outcome = apply(before)
        repo = CharacterRepository(conn)
        if outcome.sheet.name != before.name:
            clash = await repo.find(guild.id, outcome.sheet.name)
            if clash is not None and clash.id != before.id:
                raise NameTaken(outcome.sheet.name)
        after = await repo.update_sheet(before, outcome.sheet, outcome.details)
        notes = outcome.notes + await _follow_overload(conn, before, after)
    log.info("character %s changed by %s: %s", after.id, ctx.author.id, action)
    if notes != outcome.notes:
        notify_characters_changed(bot, guild.id, [after.id])
    changes = [*outcome.changes, *derived_changes(before, after)]
    await send(ctx, changes_message(after.name, changes, notes))


async def _follow_overload(
    conn: aiosqlite.Connection, before: Character, after: Character
) -> tuple[str, ...]:
    """Gain or lose the overloaded conditions when the load or capacity crossed over."""
    was, now = before.effective.overloaded, after.effective.overloaded
    if was == now:
        return ()
    await CharacterVitalsRepository(conn).update_conditions(
        after.id, lambda c: overload_conditions(c, was=was, now=now)
    )
    values = after.effective
    if now:
        return (
            f"Overloaded (load {values.load} > capacity {values.carrying_capacity}): 3 banes"
            " on strength and agility rolls; now hindered, slow and defenseless.",
        )
    return ("No longer overloaded: hindered, slow and defenseless are gone.",)
