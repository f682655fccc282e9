"""The "keep another die" buttons still work after a restart.

A first TableBot rolls damage; its database connection is closed and a new
TableBot is started on the same database file, in a Discord world with the same
ids (dpytest's id factory replays the ones the first world got), as after a real
restart. Only the button's custom_id is known to the new process.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord.ext.test as dpytest
import discord.ext.test.factories as factories
import pytest

from bot.config import Settings
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_combat_helpers import buttons, combat_state, npc, player, text
from tests.support.restart import configure, start_bot
from tests.support.slash import SlashHarness


async def test_die_choice_survives_a_restart(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    first = await start_bot(settings, path)
    world: list[int] = []

    def recording() -> int:
        world.append(original_make_id())
        return world[-1]

    original_make_id = factories.make_id
    configure(first, recording)
    slash = SlashHarness(first)
    await npc(slash, "Gob")
    first.dice = ScriptedDice([4, 7, 4, 3])
    rolled = await slash.run("damage", dice="1d10 1d8 2d6", target="Gob", **player(slash))
    assert "**7 damage**" in text(rolled)
    [button] = [b for b in buttons(rolled) if b["label"] == "d10 source: 4"]
    custom_id = button["custom_id"]
    assert custom_id.startswith("dmg:pick:") and len(custom_id) <= 100
    await dpytest.empty_queue()
    await first.db.close()  # the process ends

    replay: Iterator[int] = iter(world)

    def replaying() -> int:
        return next(replay, None) or original_make_id()

    second = await start_bot(settings, path)
    configure(second, replaying)
    try:
        assert second.guilds[0].id == first.guilds[0].id
        again = SlashHarness(second)
        assert [m.id for m in again.members] == [m.id for m in slash.members]
        assert (await combat_state(second, "Gob")).vitals.hp == 5
        second.dice = ScriptedDice([])  # nothing new is rolled
        clicked = await again.click(custom_id=custom_id, user=again.members[1])
        assert not clicked.ephemeral
        body = text(clicked)
        assert "**4 damage**" in body and "HP 12 → **8**" in body
        assert "rolls damage (1d10 + 1d8 + 2d6) against Gob" in clicked.embeds[0]["title"]
        assert (await combat_state(second, "Gob")).vitals.hp == 8
    finally:
        await dpytest.empty_queue()
        await second.db.close()


@pytest.fixture(autouse=True)
def _restore_make_id() -> Iterator[None]:
    original = factories.make_id
    yield
    factories.make_id = original
