"""Import every module of the bot once a test process has collected its tests.

Hypothesis draws part of its inputs from the constants of the project's own modules
that are imported at the time (``hypothesis.internal.conjecture.providers``), so a
derandomized fuzz test draws different inputs depending on which modules the tests run
before it happened to import. Under pytest-xdist that order changes from run to run.
With every module imported up front, the fuzz tests draw the same inputs in every
worker, every run, in any order.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import bot
import cogs

ROOT = Path(__file__).resolve().parents[2]


def import_everything() -> None:
    for package in (bot, cogs):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module.name != "bot.__main__":  # (a script: runs only as python -m bot)
                importlib.import_module(module.name)
    # The emulator the end-to-end tests import, when it is beside the project.
    from tests.e2e.conftest import EMU_DIR, SPEC

    if (EMU_DIR / "discord_emu.py").is_file() and SPEC.is_file():
        if str(EMU_DIR) not in sys.path:
            sys.path.insert(0, str(EMU_DIR))
        importlib.import_module("discord_emu")
        importlib.import_module("emu_run")
