"""/init add and /init set: every member rolls unless the GM asks for group initiative,
and the GM's other bonuses (dice and boons) join the initiative pool."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rulesets import Ruleset
from tests.cogs.test_init_commands import assert_tracker_matches, gm, stored
from tests.support.slash import SlashHarness


async def order(bot: TableBot, slash: SlashHarness) -> list[list[str]]:
    state = (await stored(bot, slash.channel.id)).state
    return [[state.participant(i).name for i in slot] for slot in state.order]


async def test_each_member_of_a_group_rolls_unless_group_initiative(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Goblin", count=2, group=True, **gm(slash))
    await slash.run(
        "init add", name="Wolf", count=2, group=True, group_initiative=True, **gm(slash)
    )
    # Goblin 1: 0, Goblin 2: 2, the wolves once: 1 (two dice each).
    bot.dice = ScriptedDice([1, 1, 5, 6, 4, 1])
    turn = await slash.run("init next", **gm(slash))
    assert await order(bot, slash) == [["Goblin 2"], ["Wolf 1", "Wolf 2"], ["Goblin 1"]]
    assert "it's **Goblin 2**'s turn" in turn.content
    rolls = turn.embeds[0]["fields"][0]["value"].splitlines()
    assert rolls[:3] == ["**2** — Goblin 2 (5 6)", "**1** — Wolf (4 1)", "**0** — Goblin 1 (1 1)"]
    turn = await slash.run("init next", **gm(slash))
    assert "it's **Wolf ×2**'s turn" in turn.content
    # The group's name still reaches every goblin.
    removed = await slash.run("init remove", name="Goblin", **gm(slash))
    assert "Goblin 1 leaves" in removed.embeds[0]["description"]
    assert await order(bot, slash) == [["Wolf 1", "Wolf 2"]]
    refused = await slash.run("init add", name="Rat", group_initiative=True, **gm(slash))
    assert refused.ephemeral and "add group:True" in (refused.content or "")
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_the_gm_adds_other_bonuses_to_initiative(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("init begin", **gm(slash))
    added = await slash.run("init add", name="Scout", bonus=1, boons=1, **gm(slash))
    assert not added.ephemeral
    await slash.run("init add", name="Brute", **gm(slash))
    # Scout: 2 + 1 bonus die + the boon die = 4 dice; Brute: 2 dice.
    bot.dice = ScriptedDice([4, 4, 4, 1, 6, 6])
    turn = await slash.run("init next", **gm(slash))
    assert "**Round 1**, initiative 3: it's **Scout**'s turn." in turn.content
    result = await slash.run("init set", name="Brute", bonus=2, **gm(slash))
    assert result.embeds[0]["description"] == (
        "Brute: initiative rolls with 2 bonus dice and 0 boons from the next roll."
    )
    state = (await stored(bot, slash.channel.id)).state
    assert state.participant(2).stats.bonus == 2
    bot.dice = ScriptedDice([1, 1, 1, 1, 6, 6, 6, 1])  # Scout 4 dice, Brute 2 + 2 bonus dice
    await slash.run("init next", **gm(slash))
    turn = await slash.run("init next", **gm(slash))
    assert "**Round 2**, initiative 3: it's **Brute**'s turn." in turn.content
    nothing = await slash.run("init set", name="Brute", **gm(slash))
    assert nothing.ephemeral and "Give successes, bonus or boons" in (nothing.content or "")
    player = await slash.run("init set", name="Brute", bonus=1, user=slash.members[0])
    assert player.ephemeral and "Only the GM" in (player.content or "")
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_wording_the_summary_the_legend_and_the_group_description(
    bot: TableBot, slash: SlashHarness
) -> None:
    tree_init = bot.command_sets.catalogues[Ruleset.HOCS].app.get("init")  # a guild command
    assert tree_init is not None
    listing = tree_init.get_command("list")  # type: ignore[union-attr]
    assert listing is not None and listing.description.startswith("Show this channel")
    assert tree_init.description.startswith("The initiative tracker")
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Guard", side="ally", **gm(slash))
    await slash.run("init add", name="Orc", **gm(slash))
    bot.dice = ScriptedDice([4, 1, 1, 1])
    await slash.run("init next", **gm(slash))
    footer = (await assert_tracker_matches(bot, slash.channel)).embeds[0].footer.text or ""
    assert "set by" not in footer  # no result set by hand: no legend
    await slash.run("init set", name="Orc", successes=3, **gm(slash))
    footer = (await assert_tracker_matches(bot, slash.channel)).embeds[0].footer.text or ""
    assert footer.splitlines()[1] == "* result set by the GM, not rolled"
    ended = await slash.run("init end", **gm(slash))
    assert [f["name"] for f in ended.embeds[0]["fields"]] == ["Allies", "Antagonists"]
    await dpytest.empty_queue()
