"""A concentration survives a restart (a new process on the same file): the sheet, the
list and the damage that ends it all see it; /help shows the magic rulings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import discord.ext.test as dpytest
import pytest
from discord.ext.test import factories

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_combat_restart import configure, start_bot
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, text
from tests.support.slash import SlashHarness


async def test_concentration_survives_a_restart(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    first = await start_bot(settings, path)
    world: list[int] = []
    original_make_id = factories.make_id

    def recording() -> int:
        world.append(original_make_id())
        return world[-1]

    configure(first, recording)
    slash = SlashHarness(first)
    await make_twod10(slash)
    await create(slash, "Brann")
    first.dice = ScriptedDice([10, 10])  # 20 + 0 mind + 0 mysteries - 10 = 10
    cast = await slash.run("cast", tier=1, category="light", concentrate="a floating lamp",
                           **player(slash))  # fmt: skip
    assert "🔮 Concentrating on a floating lamp." in text(cast)
    await dpytest.empty_queue()
    await first.db.close()  # the process ends

    replay: Iterator[int] = iter(world)

    def replaying() -> int:
        return next(replay, None) or original_make_id()

    second = await start_bot(settings, path)
    configure(second, replaying)
    try:
        again = SlashHarness(second)
        second.dice = ScriptedDice([])  # nothing may be rolled
        shown = text(await again.run("character show", name="Brann", **player(again)))
        assert "Concentration: a floating lamp (tier 1 spell)" in shown
        listed = text(await again.run("concentration list", **gm(again)))
        assert "**Brann**: a floating lamp (tier 1 spell)" in listed
        await again.run("init begin", **gm(again))
        await again.run("init add", name="Brann", **gm(again))
        hurt = text(await again.run("hp", target="Brann", change="-1", **gm(again)))
        assert "concentration on a floating lamp is lost to the damage" in hurt
        assert "Nobody is concentrating" in text(await again.run("concentration list",
                                                                 **gm(again)))  # fmt: skip
    finally:
        await dpytest.empty_queue()
        await second.db.close()


async def test_help_shows_the_magic_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    cast = text(await slash.run("help", command="cast", **player(slash)))
    assert "The text has no table of random magical effects" in cast
    assert "A failed total of 8 or 9 is only a random magical effect" in cast
    ritual = text(await slash.run("help", command="ritual", **player(slash)))
    assert "casting for the tier's maximum (an hour, a day) gives advantage" in ritual
    ended = text(await slash.run("help", command="concentration end", **player(slash)))
    assert "An attack's damage is damage in combat" in ended


@pytest.fixture(autouse=True)
def _restore_make_id() -> Iterator[None]:
    original = factories.make_id
    yield
    factories.make_id = original
