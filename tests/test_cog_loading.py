"""The test suite's fast cog loading (tests/support/cog_loading.py) changes nothing the
bot does: the whole command tree, every ruleset's catalogue, every parameter, check and
callback come out the same as from discord.py untouched, in a clean interpreter."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.client import COGS, TableBot
from bot.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]


def _name(thing: Any) -> str:
    """A stable name for a converter, transformer, check or callback (no addresses)."""
    if thing is None:
        return "None"
    for attribute in ("__qualname__", "__name__"):
        found = getattr(thing, attribute, None)
        if isinstance(found, str):
            return f"{getattr(thing, '__module__', '')}.{found}"
    kind = type(thing)
    return f"{kind.__module__}.{kind.__qualname__}"


def _prefix(command: commands.Command[Any, ..., Any]) -> dict[str, Any]:
    return {
        "name": command.qualified_name,
        "aliases": list(command.aliases),
        "help": command.help,
        "brief": command.brief,
        "usage": command.usage,
        "signature": command.signature,
        "cog": command.cog_name,
        "callback": _name(command.callback),
        "checks": [_name(check) for check in command.checks],
        "params": [
            [name, str(p.kind), _name(p.converter), repr(p.default), p.required, p.description]
            for name, p in command.clean_params.items()
        ],
        "app": _app(command.app_command) if getattr(command, "app_command", None) else None,  # type: ignore[attr-defined]
    }


def _app(command: Any) -> dict[str, Any]:
    described: dict[str, Any] = {
        "name": command.qualified_name,
        "description": command.description,
        "checks": [_name(check) for check in getattr(command, "checks", ())],
        "binding": _name(type(getattr(command, "binding", None))),
        "parent": getattr(command.parent, "qualified_name", None),
    }
    if isinstance(command, app_commands.Group):
        described["children"] = [_app(child) for child in command.commands]
        return described
    described["callback"] = _name(command.callback)
    described["params"] = [
        [p.name, p.display_name, str(p.type), p.required, repr(p.default), p.description,
         [c.value for c in p.choices], _name(p.autocomplete), p.min_value, p.max_value,
         sorted(str(t) for t in p.channel_types)]
        for p in command.parameters
    ]  # fmt: skip
    return described


def describe(bot: TableBot) -> dict[str, Any]:
    """Everything discord.py built from the cogs, as plain JSON."""
    tree = bot.tree
    catalogues = bot.command_sets.catalogues
    prefix_roots = sorted(bot.commands, key=lambda c: c.name)  # (a set)
    prefix_roots += [c for catalogue in catalogues.values() for c in catalogue.roots()]
    walked: list[commands.Command[Any, ..., Any]] = []
    for root in prefix_roots:
        walked.append(root)
        if isinstance(root, commands.Group):
            walked.extend(sorted(root.walk_commands(), key=lambda c: c.qualified_name))
    return {
        "extensions": sorted(bot.extensions),
        "cogs": sorted(bot.cogs),
        "global_payload": [c.to_dict(tree) for c in tree.get_commands()],
        "global": [_app(c) for c in tree.get_commands()],
        "rulesets": {
            ruleset.value: {
                "payload": catalogues[ruleset].payload(tree),
                "app": [_app(c) for c in catalogues[ruleset].app.values()],
            }
            for ruleset in RULESETS
        },
        "prefix": [_prefix(c) for c in walked],
        "listeners": sorted(
            f"{event}:{_name(listener)}"
            for event, listeners in bot.extra_events.items()
            for listener in listeners
        ),
        "views": sorted(_name(type(v)) for v in bot.persistent_views),
    }


async def _loaded_bot(folder: Path) -> TableBot:
    import discord

    from bot.config import Settings
    from bot.interactions.command_sync import SyncMode
    from bot.storage.database import Database

    db = await Database.open(folder / "describe.sqlite3")
    await db.migrate()
    settings = Settings(
        _env_file=None, discord_token=None, database_path=folder / "describe.sqlite3",
        command_prefix="!", message_content_intent=True,
    )  # fmt: skip
    bot = TableBot(settings, db, sync_mode=SyncMode.SKIP, intents=discord.Intents.default())
    await bot._async_setup_hook()
    await bot.load_cogs()
    return bot


async def _describe_fresh() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        bot = await _loaded_bot(Path(folder))
        try:
            return describe(bot)
        finally:
            await bot.db.close()


def _untouched_description() -> dict[str, Any]:
    """The same description from a new interpreter in which nothing was patched."""
    script = (
        "import asyncio, json\n"
        "from tests.test_cog_loading import _describe_fresh\n"
        "print(json.dumps(asyncio.run(_describe_fresh())))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_the_fast_loading_builds_the_same_bot_as_discord_py_untouched() -> None:
    import discord.ext.commands.bot as bot_impl

    from tests.support import cog_loading

    assert bot_impl.BotBase._load_from_module_spec is cog_loading._load_from_module_spec
    fast = await _describe_fresh()
    again = await _describe_fresh()  # the second load in this process reuses every module
    untouched = await asyncio.to_thread(_untouched_description)
    assert fast["extensions"] == sorted(COGS)
    assert len(fast["prefix"]) > 100 and fast["rulesets"]["hocs"]["payload"]
    assert fast == untouched
    assert again == untouched


async def test_a_reused_module_is_the_one_the_bot_loaded_before(tmp_path: Path) -> None:
    first = await _loaded_bot(tmp_path / "a")
    module = first.extensions["cogs.rolling"]
    second = await _loaded_bot(tmp_path / "b")
    try:
        assert second.extensions["cogs.rolling"] is module is sys.modules["cogs.rolling"]
        # Each bot still has cogs (and commands) of its own.
        assert first.get_cog("Rolling") is not second.get_cog("Rolling")
        assert first.get_command("roll") is not second.get_command("roll")
    finally:
        await first.db.close()
        await second.db.close()
