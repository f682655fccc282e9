"""Sync the slash command tree only when what Discord would receive has changed.

Global syncs are rate limited, so the bot hashes the exact payload and keeps the
hash in the database; a restart with the same commands sends nothing.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage.database import Database
from bot.storage.meta import MetaRepository

log = logging.getLogger(__name__)


class SyncMode(enum.StrEnum):
    AUTO = "auto"  # sync when the payload differs from the last one synced
    FORCE = "force"  # always sync
    SKIP = "skip"  # never sync


def command_payload(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The list of commands exactly as ``tree.sync(guild=…)`` would send it."""
    return [command.to_dict(tree) for command in tree._get_all_commands(guild=guild)]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _meta_key(guild_id: int | None) -> str:
    return f"command_sync:{guild_id if guild_id else 'global'}"


async def sync_if_changed(
    tree: app_commands.CommandTree,
    db: Database,
    *,
    dev_guild_id: int | None,
    mode: SyncMode,
) -> bool:
    """Sync to the dev guild (or globally); return whether a sync was sent."""
    if mode is SyncMode.SKIP:
        log.info("command sync skipped (--no-sync)")
        return False
    guild = discord.Object(id=dev_guild_id) if dev_guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = payload_hash(command_payload(tree, guild))
    key = _meta_key(dev_guild_id)
    async with db.read() as conn:
        previous = await MetaRepository(conn).get(key)
    if mode is SyncMode.AUTO and previous == digest:
        log.info("slash commands unchanged since the last sync; not syncing")
        return False
    synced = await tree.sync(guild=guild)
    async with db.transaction() as conn:
        await MetaRepository(conn).set(key, digest)
    where = f"guild {dev_guild_id}" if dev_guild_id else "all guilds (may take up to an hour)"
    log.info("synced %d slash commands to %s", len(synced), where)
    return True


async def sync_guild_if_changed(
    tree: app_commands.CommandTree,
    db: Database,
    guild_id: int,
    *,
    force: bool = False,
) -> bool:
    """Sync one guild's commands (its ruleset's, registered in the tree by the caller)
    when their payload differs from the one last synced there; return whether it was sent.

    The per-guild hash lives in bot_meta beside the global one, so a restart does not
    re-sync the guilds whose ruleset commands did not change.
    """
    guild = discord.Object(id=guild_id)
    digest = payload_hash(command_payload(tree, guild))
    key = _meta_key(guild_id)
    async with db.read() as conn:
        previous = await MetaRepository(conn).get(key)
    if not force and previous == digest:
        log.info("guild %s: slash commands unchanged; not syncing", guild_id)
        return False
    synced = await tree.sync(guild=guild)
    async with db.transaction() as conn:
        await MetaRepository(conn).set(key, digest)
    log.info("guild %s: synced %d slash commands", guild_id, len(synced))
    return True
