"""Sync the slash command tree only when what Discord would receive has changed.

Global syncs are rate limited, so the bot hashes the exact payload and keeps the
hash in the database; a restart with the same commands sends nothing.
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from typing import Any

import discord
from discord import app_commands

from bot.storage.database import Database
from bot.storage.meta import MetaRepository

log = logging.getLogger(__name__)

# Longer than a sync takes (one REST call, rate limits included); a lease left by a
# killed process blocks the others' sync of that payload only this long.
SYNC_LEASE_SECONDS = 120.0


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
    synced = await _sync_once(
        tree, db, guild, key=_meta_key(dev_guild_id), force=mode is SyncMode.FORCE
    )
    if synced is None:
        return False
    where = f"guild {dev_guild_id}" if dev_guild_id else "all guilds (may take up to an hour)"
    log.info("synced %d slash commands to %s", synced, where)
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
    synced = await _sync_once(
        tree, db, discord.Object(id=guild_id), key=_meta_key(guild_id), force=force
    )
    if synced is None:
        return False
    log.info("guild %s: synced %d slash commands", guild_id, synced)
    return True


async def _sync_once(
    tree: app_commands.CommandTree,
    db: Database,
    guild: discord.abc.Snowflake | None,
    *,
    key: str,
    force: bool,
) -> int | None:
    """Send the sync unless the stored hash matches or another process is sending it;
    return how many commands were synced, or None when nothing was sent.

    Shard processes share the database, so "once, not once per process" is a lease:
    the process whose conditional upsert takes ``lease:<key>`` syncs and stores the
    hash; one that finds the lease held skips (the holder stores the same hash). The
    lease expires, so a process killed mid-sync leaves the hash unstored and the next
    start syncs again.
    """
    where = f"guild {guild.id}" if guild is not None else "global"
    digest = payload_hash(command_payload(tree, guild))
    async with db.read() as conn:  # the common case, unchanged, costs no write lock
        previous = await MetaRepository(conn).get(key)
    if not force and previous == digest:
        log.info("%s: slash commands unchanged since the last sync; not syncing", where)
        return None
    lease, holder = f"lease:{key}", _holder()
    async with db.transaction() as conn:
        meta = MetaRepository(conn)
        # Checked again under the write lock: another process may have just synced it.
        unchanged = not force and await meta.get(key) == digest
        claimed = not unchanged and await meta.claim(
            lease, holder, now=time.time(), seconds=SYNC_LEASE_SECONDS
        )
    if unchanged:
        log.info("%s: slash commands already synced by another process", where)
        return None
    if not claimed:
        log.info("%s: another process is syncing these slash commands; not syncing", where)
        return None
    try:
        synced = await tree.sync(guild=guild)
    except Exception:
        async with db.transaction() as conn:
            await MetaRepository(conn).release(lease, holder)
        raise
    async with db.transaction() as conn:
        meta = MetaRepository(conn)
        await meta.set(key, digest)
        await meta.release(lease, holder)
    return len(synced)


def _holder() -> str:
    """Who holds a sync lease: this process, and this call within it."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
