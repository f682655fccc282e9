"""The rest and medicine limits hold across a restart (a new process on the same file),
and /help shows the survival rulings."""

from __future__ import annotations

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


async def test_short_rest_limit_and_daily_medicine_survive_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await make_twod10(slash)
    await create(slash, "Brann")
    await create(slash, "Cora")
    await slash.run("character edit", name="Brann", hp=10, **gm(slash))
    assert "HP 10 → **11**" in text(await slash.run("rest short", character="Brann",
                                                    **player(slash)))  # fmt: skip
    first.dice = ScriptedDice([8, 7])  # 15: +1 (toughness 1)
    daily = await slash.run("medicine daily", patient="Brann", medic="Cora", **player(slash))
    assert "HP 11 → **12**" in text(daily)

    second, again = await restart.restart()
    second.dice = ScriptedDice([])  # nothing may be rolled
    refused(await again.run("rest short", character="Brann", **player(again)),
            "A short rest helps only after damage is taken again")  # fmt: skip
    refused(await again.run("medicine daily", patient="Brann", medic="Cora",
                            **player(again)), "daily medicine")  # fmt: skip
    assert (await stored(second, "Brann")).hp == 12


async def test_help_shows_the_survival_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    short = text(await slash.run("help", command="rest short", **player(slash)))
    assert "A short rest gains toughness or 1 HP, whichever is higher." in short
    assert "The sheet's HP is the truth" in short
    dying = text(await slash.run("help", command="dying roll", **player(slash)))
    assert "the owner or the GM rolls it" in dying
