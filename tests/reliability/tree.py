"""Every leaf slash command, read from the bot's real command tree at collection time."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from typing import Any

import discord

from bot.client import TableBot
from bot.command_sync import SyncMode, command_payload
from bot.config import Settings
from bot.storage.database import Database


@dataclass(frozen=True)
class Leaf:
    """One invocable command (``"init next"``) and its options as Discord receives them."""

    name: str
    options: tuple[dict[str, Any], ...]

    def __str__(self) -> str:
        return self.name


def _leaves(command: dict[str, Any], prefix: list[str]) -> list[Leaf]:
    options = command.get("options", [])
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        return [Leaf(" ".join(prefix), tuple(options))]
    return [leaf for sub in subs for leaf in _leaves(sub, [*prefix, sub["name"]])]


async def _load() -> list[Leaf]:
    settings = Settings(_env_file=None, discord_token=None, database_path=":memory:")
    db = await Database.open(":memory:")
    try:
        bot = TableBot(settings, db, sync_mode=SyncMode.SKIP, intents=discord.Intents.default())
        await bot.load_cogs()
        # Global (platform) commands, then every ruleset's guild commands.
        payload = command_payload(bot.tree, None)
        for catalogue in bot.command_sets.catalogues.values():
            payload += catalogue.payload(bot.tree)
    finally:
        await db.close()
    return [leaf for command in payload for leaf in _leaves(command, [command["name"]])]


@functools.cache
def leaf_commands() -> tuple[Leaf, ...]:
    """Every leaf command of the tree (cached; built on a private event loop)."""
    return tuple(asyncio.run(_load()))
