"""The command tree is synced only when its payload changed, unless forced or skipped."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.interactions.command_sync import SyncMode, command_payload, payload_hash, sync_if_changed
from bot.storage.database import Database


class CountingTree(app_commands.CommandTree):
    def __init__(self, client: discord.Client) -> None:
        super().__init__(client)
        self.synced: list[Any] = []

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.synced.append(guild.id if guild else None)
        return []


def make_tree(description: str = "Roll dice") -> CountingTree:
    client = discord.Client(intents=discord.Intents.none())
    tree = CountingTree(client)

    @app_commands.command(name="roll", description=description)
    async def roll(interaction: discord.Interaction, expression: str) -> None: ...

    tree.add_command(roll)
    return tree


async def test_unchanged_payload_is_not_synced_twice(db: Database) -> None:
    tree = make_tree()
    assert await sync_if_changed(tree, db, dev_guild_id=None, mode=SyncMode.AUTO)
    assert not await sync_if_changed(tree, db, dev_guild_id=None, mode=SyncMode.AUTO)
    assert tree.synced == [None]


async def test_changed_payload_is_synced(db: Database) -> None:
    await sync_if_changed(make_tree("Roll dice"), db, dev_guild_id=None, mode=SyncMode.AUTO)
    changed = make_tree("Roll some dice")
    assert await sync_if_changed(changed, db, dev_guild_id=None, mode=SyncMode.AUTO)


async def test_force_and_skip(db: Database) -> None:
    tree = make_tree()
    await sync_if_changed(tree, db, dev_guild_id=None, mode=SyncMode.AUTO)
    assert await sync_if_changed(tree, db, dev_guild_id=None, mode=SyncMode.FORCE)
    assert not await sync_if_changed(tree, db, dev_guild_id=None, mode=SyncMode.SKIP)
    assert tree.synced == [None, None]


async def test_dev_guild_gets_its_own_sync(db: Database) -> None:
    tree = make_tree()
    assert await sync_if_changed(tree, db, dev_guild_id=1234, mode=SyncMode.AUTO)
    assert tree.synced == [1234]
    assert [c["name"] for c in command_payload(tree, discord.Object(1234))] == ["roll"]


def test_hash_ignores_key_order() -> None:
    assert payload_hash([{"a": 1, "b": 2}]) == payload_hash([{"b": 2, "a": 1}])
