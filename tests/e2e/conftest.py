"""End-to-end fixture: ``python -m bot``, unmodified, against the loopback Discord emulator.

The emulator lives beside the project (``../shared/discord-emulator``), not in it: a clone
without it skips these tests. In a worktree the project's parent may not hold ``shared/``,
so ``DISCORD_SHARED_DIR`` (or the machine-wide ``/work/shared``) is tried after it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]  # the project root


def _shared_dir() -> Path:
    candidates = [ROOT.parent / "shared"]
    if os.environ.get("DISCORD_SHARED_DIR"):
        candidates.append(Path(os.environ["DISCORD_SHARED_DIR"]))
    candidates.append(Path("/work/shared"))
    for folder in candidates:
        if (folder / "discord-emulator" / "discord_emu.py").is_file():
            return folder
    return candidates[0]


SHARED = _shared_dir()
EMU_DIR = SHARED / "discord-emulator"
SPEC = SHARED / "discord-api-spec" / "openapi.json"


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[tuple[Any, Any]]:
    if not (EMU_DIR / "discord_emu.py").is_file() or not SPEC.is_file():
        pytest.skip("../shared/discord-emulator or ../shared/discord-api-spec is absent")
    if str(EMU_DIR) not in sys.path:
        sys.path.insert(0, str(EMU_DIR))
    os.environ.setdefault("DISCORD_SPEC_PATH", str(SPEC))
    from discord_emu import DiscordEmu  # type: ignore[import-not-found]
    from emu_run import BotProcess, bot_env  # type: ignore[import-not-found]

    emu = DiscordEmu()
    port = await emu.start()
    env = bot_env(port, str(tmp_path))  # token, DATABASE_PATH, DISCORD_EMU_BASE, PYTHONPATH
    bot = BotProcess(emu, env, log_path=str(tmp_path / "bot.log"), cwd=str(ROOT))
    try:
        await bot.start()  # back once READY and GUILD_CREATE are through and the bot is quiet
        yield emu, bot
    finally:
        await bot.kill()
        bot.log.close()
        await emu.stop()
