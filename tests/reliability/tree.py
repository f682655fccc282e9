"""Every leaf slash command, read from the bot's real command tree at collection time."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from typing import Any

import discord

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode, command_payload
from bot.storage.database import Database


@dataclass(frozen=True)
class Leaf:
    """One invocable command (``"init next"``) and its options as Discord receives them."""

    name: str
    options: tuple[dict[str, Any], ...]
    ruleset: str = "hocs"  # the ruleset whose guilds have it (platform commands: hocs)

    def __str__(self) -> str:
        return self.name if self.ruleset == "hocs" else f"{self.name} [{self.ruleset}]"


def _leaves(command: dict[str, Any], prefix: list[str], ruleset: str = "hocs") -> list[Leaf]:
    options = command.get("options", [])
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        return [Leaf(" ".join(prefix), tuple(options), ruleset)]
    return [leaf for sub in subs for leaf in _leaves(sub, [*prefix, sub["name"]], ruleset)]


async def _load() -> list[Leaf]:
    settings = Settings(_env_file=None, discord_token=None, database_path=":memory:")
    db = await Database.open(":memory:")
    try:
        bot = TableBot(settings, db, sync_mode=SyncMode.SKIP, intents=discord.Intents.default())
        await bot.load_cogs()
        # Global (platform) commands, then every ruleset's guild commands.
        tagged = [(command, "hocs") for command in command_payload(bot.tree, None)]
        for ruleset, catalogue in bot.command_sets.catalogues.items():
            tagged += [(command, ruleset.value) for command in catalogue.payload(bot.tree)]
    finally:
        await db.close()
    return [leaf for command, key in tagged for leaf in _leaves(command, [command["name"]], key)]


@functools.cache
def leaf_commands() -> tuple[Leaf, ...]:
    """Every leaf command of the tree (cached; built on a private event loop)."""
    return tuple(asyncio.run(_load()))
