"""Interaction payloads no Discord client sends, dispatched over the emulator's gateway:
``emu.slash`` builds only valid options, so these are built here from its pieces."""

from __future__ import annotations

import copy
import time
from typing import Any


async def dispatch(emu: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """Send an interaction as Discord would; its record once answered and the bot quiet."""
    emu.interactions[payload["id"]]["t_dispatch"] = time.monotonic()
    await emu.dispatch("INTERACTION_CREATE", payload)
    await emu.answered(payload["id"])
    await emu.settle()
    return emu.interactions[payload["id"]]


async def forged_slash(emu: Any, path: str, who: str, forge: Any, **options: Any) -> dict[str, Any]:
    """``/path`` with ``options`` as the emulator builds them, then ``forge(options, resolved)``
    changes the leaf options (a list of dicts) and the resolved data in place."""
    names = path.split()
    opts, resolved = emu._options(names, options)
    leaf = opts
    while leaf and leaf[0].get("type") in (1, 2):  # down through subcommand (groups)
        leaf = leaf[0]["options"]
    forge(leaf, resolved)
    command = next(c for c in emu.commands if c["name"] == names[0])
    data: dict[str, Any] = {"id": command["id"], "name": names[0], "type": 1, "options": opts,
                            "guild_id": emu.guild_id}  # fmt: skip
    if resolved:
        data["resolved"] = resolved
    return await dispatch(emu, emu._interaction_base(2, who, 0, data))


def with_button(message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    """A copy of ``message`` whose first button carries ``custom_id``: what a client that
    forged the message it presses on sends along."""
    forged = copy.deepcopy(message)
    forged["components"][0]["components"][0]["custom_id"] = custom_id
    return forged
