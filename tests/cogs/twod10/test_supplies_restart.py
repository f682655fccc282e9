"""Diseases, meals, the campaign day and items hold across a restart (a new process on
the same file), and /help shows the disease, rations and inventory rulings."""

from __future__ import annotations

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, text
from tests.support.slash import SlashHarness


async def test_infection_meal_day_and_items_survive_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await make_twod10(slash)
    await create(slash, "Brann")
    first.dice = ScriptedDice([1, 1])
    await slash.run("disease expose", character="Brann", disease="Ague", difficulty="0",
                    course="intermediate", severity="moderate", **gm(slash))  # fmt: skip
    await slash.run("rations day", **gm(slash))
    await slash.run("rations add", rations=2, character="Brann", **player(slash))
    await slash.run("rations eat", character="Brann", **player(slash))
    await slash.run("inventory add", item="Anvil", weight="12", character="Brann",
                    **player(slash))  # fmt: skip

    second, again = await restart.restart()
    second.dice = ScriptedDice([])  # nothing may be rolled
    refused(await again.run("rations eat", character="Brann", **player(again)),
            "Brann has already eaten on day 2")  # fmt: skip
    refused(await again.run("disease overcome", character="Brann", **player(again)),
            "is due on day 8 (today is day 2)")  # fmt: skip
    listed = await again.run("disease list", **gm(again))
    assert "Brann: Ague (moderate, intermediate, difficulty +0)" in listed.content
    # Anvil 12 + 1 ration (1/2) = 12 1/2 in the backpack: 2 EP, toughness 1 ignores #1.
    body = text(await again.run("inventory list", character="Brann", **player(again)))
    assert "Backpack: weight 12 1/2 → 2 EP" in body and "**1 EP**" in body


async def test_help_shows_the_supplies_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    expose = text(await slash.run("help", command="disease expose", **player(slash)))
    assert "Momentary contact eases the disease's difficulty by 5" in expose
    assert "A course counts campaign days" in expose
    eat = text(await slash.run("help", command="rations eat", **player(slash)))
    assert "On the nth day of half rations" in eat and "once a day" in eat
    items = text(await slash.run("help", command="inventory list", **player(slash)))
    assert "Rations (1/2 each) and medical supplies (1 a unit) ride in the backpack" in items
    task = text(await slash.run("help", command="task", **player(slash)))
    assert "Encumbrance penalises Athletics, Stealth and every Finesse roll" in task


def test_supplies_help_pages_fit_discords_limits(bot: TableBot) -> None:
    from bot.render.help import command_pages, walk_leaf_commands
    from bot.rulesets import Ruleset

    names = ("disease", "rations", "inventory", "task")
    seen = 0
    for command in walk_leaf_commands(bot, [Ruleset.TWOD10]):
        if not command.qualified_name.startswith(names):
            continue
        seen += 1
        pages = command_pages(command)
        for embed in pages:  # each page is one message: 6000 characters
            assert len(embed) <= 6000, command.qualified_name
            assert all(len(f.value or "") <= 1024 for f in embed.fields), command.qualified_name
        shown = "\n".join(f.value or "" for e in pages for f in e.fields)
        for ruling in command.extras.get("rulings", []):
            assert f"• {ruling}" in shown, (command.qualified_name, ruling)
    assert seen == 15  # 5 disease, 4 rations, 5 inventory, task
