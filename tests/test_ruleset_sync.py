"""Per-guild sync of the rulesets' commands: hashed like the global sync, sent when a
guild's payload changed (startup, join, ruleset switch), never under tests' dpytest."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import (
    SyncMode,
    command_payload,
    payload_hash,
    sync_guild_if_changed,
    sync_if_changed,
)
from bot.rulesets import PLATFORM_EXTENSIONS, RULESETS, Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.meta import MetaRepository
from tests.support.discord_schema import command_limit_errors

GUILD = 4242


async def make_bot(settings: Settings, db: Database, mode: SyncMode = SyncMode.AUTO) -> Any:
    bot = TableBot(settings, db, sync_mode=mode, intents=discord.Intents.default())
    await bot.load_cogs()
    bot._connection.application_id = 99  # as after login; dpytest leaves it None
    bot.synced = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        bot.synced.append(guild.id if guild else None)
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    return bot


async def test_a_guild_is_synced_once_and_a_restart_skips_it(
    settings: Settings, db: Database
) -> None:
    bot = await make_bot(settings, db)
    assert await bot.sync_guild(GUILD)
    assert not await bot.sync_guild(GUILD)
    assert bot.synced == [GUILD]
    names = {c["name"] for c in command_payload(bot.tree, discord.Object(GUILD))}
    assert {"hero", "check", "character", "init"} <= names and "roll" not in names
    restarted = await make_bot(settings, db)
    assert not await restarted.sync_guild(GUILD)
    assert restarted.synced == []


async def test_joining_a_guild_syncs_it_even_with_a_stored_hash(
    settings: Settings, db: Database
) -> None:
    bot = await make_bot(settings, db)
    await bot.sync_guild(GUILD)
    await bot.on_guild_join(discord.Object(GUILD))  # type: ignore[arg-type]
    assert bot.synced == [GUILD, GUILD]


async def test_a_ruleset_switch_re_registers_and_syncs_the_guild(
    settings: Settings, db: Database
) -> None:
    bot = await make_bot(settings, db)
    await bot.sync_guild(GUILD)
    async with db.transaction() as conn:
        repo = CampaignRepository(conn)
        await repo.get_or_create(GUILD)
        assert await repo.switch_ruleset(GUILD, Ruleset.HOCS, Ruleset.TWOD10)
    await bot.ruleset_switched(GUILD)
    assert bot.synced == [GUILD, GUILD]
    # The guild's menu is 2d10's: the HOCS commands are gone from the guild.
    names = {c["name"] for c in command_payload(bot.tree, discord.Object(GUILD))}
    assert "task" in names and "hero" not in names


async def test_no_sync_when_skipped_or_without_an_application(
    settings: Settings, db: Database
) -> None:
    skipped = await make_bot(settings, db, SyncMode.SKIP)
    assert not await skipped.sync_guild(GUILD)
    offline = await make_bot(settings, db)
    offline._connection.application_id = None  # dpytest: never logged in
    assert not await offline.sync_guild(GUILD)
    await offline.on_ready()
    assert skipped.synced == [] and offline.synced == []


async def test_dev_guild_mode_syncs_only_the_dev_guild_with_globals_and_ruleset(
    tmp_path: Path, db: Database
) -> None:
    settings = Settings(
        _env_file=None, discord_token=None, database_path=tmp_path / "x.sqlite3", dev_guild_id=77
    )
    bot = await make_bot(settings, db)
    assert not await bot.sync_guild(GUILD)
    assert await bot.sync_guild(77)
    names = {c["name"] for c in command_payload(bot.tree, discord.Object(77))}
    assert {"roll", "help", "campaign", "hero", "character"} <= names
    assert bot.synced == [77]


async def test_the_global_payload_is_the_platform_only(settings: Settings, db: Database) -> None:
    bot = await make_bot(settings, db)
    assert {c["name"] for c in command_payload(bot.tree, None)} == {
        "help",
        "campaign",
        "roll",
        "web",
    }
    assert PLATFORM_EXTENSIONS == ("cogs.meta", "cogs.campaign", "cogs.rolling", "cogs.web")


async def test_every_rulesets_commands_stay_within_discords_limits(
    settings: Settings, db: Database
) -> None:
    bot = await make_bot(settings, db)
    for ruleset in RULESETS:
        payload = bot.command_sets.catalogues[ruleset].payload(bot.tree)
        assert len(payload) <= 100  # Discord's per-guild command limit
        for entry in payload:
            assert command_limit_errors(entry) == [], entry["name"]


async def test_hash_helper_alone(db: Database) -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    sent: list[int] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        sent.append(guild.id if guild else 0)
        return []

    tree.sync = fake_sync  # type: ignore[method-assign]

    @app_commands.command(name="probe", description="A probe")
    async def probe(interaction: discord.Interaction) -> None: ...

    tree.add_command(probe, guild=discord.Object(5))
    assert await sync_guild_if_changed(tree, db, 5)
    assert not await sync_guild_if_changed(tree, db, 5)
    assert await sync_guild_if_changed(tree, db, 5, force=True)
    probe.description = "Another probe"
    assert await sync_guild_if_changed(tree, db, 5)
    assert sent == [5, 5, 5]


def test_the_dispatch_hook_matches_the_installed_discord_py() -> None:
    # bot.client.TableTree._call registers a guild's ruleset commands before lookup: it
    # relies on CommandTree._from_interaction awaiting self._call(interaction).
    assert inspect.iscoroutinefunction(app_commands.CommandTree._call)
    assert "self._call(interaction)" in inspect.getsource(
        app_commands.CommandTree._from_interaction
    )
    assert list(inspect.signature(app_commands.CommandTree._call).parameters) == [
        "self",
        "interaction",
    ]


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_the_registry_describes_every_ruleset(ruleset: Ruleset) -> None:
    spec = RULESETS[ruleset]
    assert spec.key is ruleset and spec.title == ruleset.title and spec.help_blurb
    assert not set(spec.extensions) & set(PLATFORM_EXTENSIONS)
    assert Ruleset.TWOD10.value == "2d10" and Ruleset.TWOD10.title == "the 2d10 system"


async def test_the_old_global_layout_is_overwritten_once(settings: Settings, db: Database) -> None:
    bot = await make_bot(settings, db)
    # What the previous layout synced globally: the platform and HOCS's commands.
    old = command_payload(bot.tree, None) + bot.command_sets.catalogues[Ruleset.HOCS].payload(
        bot.tree
    )
    async with db.transaction() as conn:
        await MetaRepository(conn).set("command_sync:global", payload_hash(old))
    assert await sync_if_changed(bot.tree, db, dev_guild_id=None, mode=SyncMode.AUTO)
    assert not await sync_if_changed(bot.tree, db, dev_guild_id=None, mode=SyncMode.AUTO)
    assert bot.synced == [None]  # one bulk overwrite, with the platform commands only


def test_ruleset_cogs_override_the_installed_cog_hooks() -> None:
    # bot.rulesets.RulesetCog replaces Cog._inject/_eject (discord.py 2.7) and reads the
    # cog's __cog_commands__, __cog_app_commands__ and __cog_listeners__.
    from discord.ext import commands

    assert list(inspect.signature(commands.Cog._inject).parameters) == [
        "self", "bot", "override", "guild", "guilds",
    ]  # fmt: skip
    assert list(inspect.signature(commands.Cog._eject).parameters) == ["self", "bot", "guild_ids"]
    source = inspect.getsource(commands.Cog._inject)
    for name in ("__cog_commands__", "__cog_app_commands__", "__cog_listeners__"):
        assert name in source
