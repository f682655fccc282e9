"""End to end on the emulator: a server's slash menu follows its campaign's ruleset.

The GM switches a HOCS server to the 2d10 system: the guild's menu changes within
seconds, without a restart; a restart re-syncs nothing unchanged; switching back finds
the HOCS sheet. (The 2d10 system has no cogs yet, so its menu is the platform's.)
"""

from __future__ import annotations

import time
from typing import Any

from bot.interactions.error_handler import STALE_COMMAND

PLATFORM = {"help", "campaign", "roll", "web"}


def names(commands: list[dict[str, Any]]) -> set[str]:
    return {command["name"] for command in commands}


def button_ids(rec: dict[str, Any]) -> list[str]:
    data = (rec.get("callback") or {}).get("data") or {}
    return [b["custom_id"] for row in data.get("components") or [] for b in row["components"]]


async def test_the_menu_follows_a_ruleset_switch_and_restarts_skip_unchanged_guilds(
    table: Any,
) -> None:
    emu, bot = table
    guild = emu.guild_id
    # Startup: platform commands global, HOCS's as the guild's commands.
    assert names(emu.global_commands) == PLATFORM
    assert {"hero", "check", "character", "init"} <= names(emu.guild_commands[guild])
    assert not names(emu.global_commands) & names(emu.guild_commands[guild])
    rec = await emu.slash("character create", who="p1", name="Mira", strength=3, agility=2,
                          mind=2, presence=1)  # fmt: skip
    assert "Mira" in emu.texts(rec)

    # A restart with nothing changed sends no bulk overwrite at all.
    syncs = len(emu.sync_log)
    await bot.restart()
    assert len(emu.sync_log) == syncs

    # The GM switches: a confirmation (the campaign has a sheet), then the menu changes.
    rec = await emu.slash("campaign set", who="gm", ruleset="2d10")
    (custom_id,) = button_ids(rec)
    started = time.monotonic()
    await emu.click(rec["message_id"], custom_id, who="gm")
    assert time.monotonic() - started < 5
    synced_guild, synced = emu.sync_log[-1]
    assert synced_guild == guild and {"character", "task"} <= set(synced) and "hero" not in synced
    menu = names(emu.commands)  # what the table's menu shows now
    assert PLATFORM <= menu and "task" in menu and "hero" not in menu
    stale = await emu.slash("hero give", who="gm")  # a client that hasn't refreshed yet
    assert emu.ephemeral(stale) and STALE_COMMAND in emu.texts(stale)

    syncs = len(emu.sync_log)
    await bot.restart()
    assert len(emu.sync_log) == syncs

    # Switching back finds the HOCS sheet intact.
    rec = await emu.slash("campaign set", who="gm", ruleset="hocs")
    (custom_id,) = button_ids(rec)
    await emu.click(rec["message_id"], custom_id, who="gm")
    assert "hero" in names(emu.commands)
    sheet = await emu.slash("character show", who="p1")
    assert "Mira" in emu.texts(sheet)
    assert emu.double_answers == []
    assert emu.problems == []
