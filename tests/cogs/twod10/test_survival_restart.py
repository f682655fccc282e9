"""The rest and medicine limits hold across a restart (a new process on the same file),
and /help shows the survival rulings."""

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
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


async def test_short_rest_limit_and_daily_medicine_survive_a_restart(
    settings: Settings, tmp_path: Path
) -> None:
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
    await create(slash, "Cora")
    await slash.run("character edit", name="Brann", hp=10, **gm(slash))
    assert "HP 10 → **11**" in text(await slash.run("rest short", character="Brann",
                                                    **player(slash)))  # fmt: skip
    first.dice = ScriptedDice([8, 7])  # 15: +1 (toughness 1)
    daily = await slash.run("medicine daily", patient="Brann", medic="Cora", **player(slash))
    assert "HP 11 → **12**" in text(daily)
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
        refused(await again.run("rest short", character="Brann", **player(again)),
                "A short rest helps only after damage is taken again")  # fmt: skip
        refused(await again.run("medicine daily", patient="Brann", medic="Cora",
                                **player(again)), "daily medicine")  # fmt: skip
        assert (await stored(second, "Brann")).hp == 12
    finally:
        await dpytest.empty_queue()
        await second.db.close()


async def test_help_shows_the_survival_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    short = text(await slash.run("help", command="rest short", **player(slash)))
    assert "A short rest gains toughness or 1 HP, whichever is higher." in short
    assert "The sheet's HP is the truth" in short
    dying = text(await slash.run("help", command="dying roll", **player(slash)))
    assert "the owner or the GM rolls it" in dying


@pytest.fixture(autouse=True)
def _restore_make_id() -> Iterator[None]:
    original = factories.make_id
    yield
    factories.make_id = original
