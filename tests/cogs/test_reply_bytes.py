"""The exact bytes of representative /attack, /damage and /clash replies.

The reply path is tuned for speed (rendering, buttons, the send); these pin what goes
on the wire so such work can't change a byte of it: every payload's JSON, key order
included, as discord.py hands it to the webhook adapter.
"""

from __future__ import annotations

import json
from pathlib import Path

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_combat_helpers import arm, gm, npc, pc, player, script
from tests.support.slash import SlashHarness, SlashResult

# One reply a line: its name, a space, its JSON (recorded from the code before the tuning).
PINNED = dict(
    line.split(" ", 1)
    for line in (Path(__file__).parent / "reply_bytes.txt").read_text("utf-8").splitlines()
)


def wire(result: SlashResult) -> str:
    assert len(result.responses) == 1
    return json.dumps(result.responses[0].payload, ensure_ascii=False)


async def setup_duel(slash: SlashHarness) -> None:
    # Names with markdown and a mention-like text: the escaping is part of the bytes.
    await pc(slash, "Bram_the Bold", strength=3, agility=2)
    await arm(slash, player(slash), "Bram_the Bold", "Great*sword", "1d12", damage_type="slash")
    await npc(slash, "Gob @here", strength=2, agility=2)  # 10 HP


async def combat_replies(bot: TableBot, slash: SlashHarness) -> dict[str, str]:
    """Two attacks and two damage rolls, in the order the pins were recorded (roll and
    choice ids are part of the bytes)."""
    await setup_duel(slash)
    wires = {}
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit: 4 damage, three dice to choose from
    wires["HIT"] = wire(await slash.run("attack", target="Gob @here", **player(slash)))
    script(bot, 1, 2, 5, 6)  # a miss by 2: counter
    wires["MISS"] = wire(await slash.run("attack", target="Gob @here", **player(slash)))
    script(bot, 1, 2)  # applied to a target
    result = await slash.run("damage", dice="2d4", target="Gob @here", **gm(slash))
    wires["DMG"] = wire(result)
    script(bot, 2, 5)  # no target: rolled only
    wires["DMG0"] = wire(await slash.run("damage", dice="2d6", **gm(slash)))
    return wires


async def test_attack_and_damage_replies_keep_their_bytes(
    bot: TableBot, slash: SlashHarness
) -> None:
    wires = await combat_replies(bot, slash)
    for name in ("HIT", "MISS", "DMG", "DMG0"):
        assert wires[name] == PINNED[name], name
    await dpytest.empty_queue()


async def test_clash_reply_keeps_its_bytes(bot: TableBot, slash: SlashHarness) -> None:
    await combat_replies(bot, slash)
    script(bot, 5, 6, 1, 2, 3, 6)
    result = await slash.run("clash", skill="Strength", opponent="2", **player(slash))
    assert wire(result) == PINNED["CLASH"]
    await dpytest.empty_queue()
