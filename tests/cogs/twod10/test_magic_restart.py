"""A concentration survives a restart (a new process on the same file): the sheet, the
list and the damage that ends it all see it; /help shows the magic rulings."""

from __future__ import annotations

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, text
from tests.support.slash import SlashHarness


async def test_concentration_survives_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await make_twod10(slash)
    await create(slash, "Brann")
    first.dice = ScriptedDice([10, 10])  # 20 + 0 mind + 0 mysteries - 10 = 10
    cast = await slash.run("cast", tier=1, category="light", concentrate="a floating lamp",
                           **player(slash))  # fmt: skip
    assert "🔮 Concentrating on a floating lamp." in text(cast)

    second, again = await restart.restart()
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


async def test_help_shows_the_magic_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    cast = text(await slash.run("help", command="cast", **player(slash)))
    assert "The text has no table of random magical effects" in cast
    assert "A failed total of 8 or 9 is only a random magical effect" in cast
    ritual = text(await slash.run("help", command="ritual", **player(slash)))
    assert "casting for the tier's maximum (an hour, a day) gives advantage" in ritual
    ended = text(await slash.run("help", command="concentration end", **player(slash)))
    assert "An attack's damage is damage in combat" in ended
