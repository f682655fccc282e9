"""The odds an encumbered character is shown are the odds of the roll it makes: /odds
task, /odds attack and the odds:True line of /task and /attack take the same
encumbrance penalties as the dice (ruling encumbrance-rolls), computed here by hand
through the rules package with the penalty written out."""

from __future__ import annotations

from dataclasses import replace

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.render.text import percent
from bot.render.twod10.odds import attack_preview_line, task_preview_line
from bot.rules.twod10.attack_inputs import Situation, attacker_stats, target_stats
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.odds import task_odds
from bot.rules.twod10.odds_attack import attack_odds
from bot.rules.twod10.tasks import Modifier
from bot.rules.twod10.wielding import wield
from tests.cogs.twod10 import combat_helpers
from tests.cogs.twod10.helpers import create, gm, make_twod10, player
from tests.support.slash import SlashHarness

ENCUMBERED = (Modifier(label="encumbrance", value=-1),)


async def test_task_odds_for_an_encumbered_character_are_the_penalised_rolls(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    # Brann and Cora: finesse 1, toughness 1 (ignores EP 1 and 3), defense (finesse) 2.
    assert not (await create(slash, "Brann")).ephemeral
    assert not (await create(slash, "Cora")).ephemeral
    for item, worn in (("Rope", False), ("Lantern", True)):
        said = await slash.run("inventory add", item=item, worn=worn, count=6 if not worn else 4,
                               character="Brann", **player(slash))  # fmt: skip
        assert not said.ephemeral, said.content
    # 6 in the backpack and 4 worn: 2 EP less the ignored first: 1 EP.
    penalised = task_odds(attribute=1, skill=0, difficulty=-5, extra=ENCUMBERED)
    unburdened = task_odds(attribute=1, skill=0, difficulty=-5)
    assert penalised.success != unburdened.success  # the penalty changes the figure
    combat_helpers.script(bot)  # nothing may be rolled
    shown = await slash.run("odds task", attribute="finesse", difficulty="difficult",
                            character="Brann", **player(slash))  # fmt: skip
    [embed] = shown.embeds
    assert "2d10 -5 against difficulty Difficult (-5)" in embed["description"]
    assert f"Success: **{percent(penalised.success)}**" in embed["description"]
    combat_helpers.script(bot, 5, 5)
    rolled = await slash.run("task", attribute="finesse", difficulty="difficult", odds=True,
                             character="Brann", **player(slash))  # fmt: skip
    assert rolled.content == task_preview_line(penalised)
    assert "-1 encumbrance" in rolled.embeds[0]["description"]
    # Against Brann's finesse defense 3, lowered to 2 by the same EP, Cora's odds and roll.
    against = task_odds(attribute=1, skill=0, difficulty=-2)
    shown = await slash.run("odds task", attribute="finesse", target="Brann",
                            character="Cora", **player(slash))  # fmt: skip
    [embed] = shown.embeds
    assert "Brann's finesse defense 2 (encumbered -1)" in embed["description"]
    assert f"Success: **{percent(against.success)}**" in embed["description"]
    combat_helpers.script(bot, 5, 5)
    rolled = await slash.run("task", attribute="finesse", target="Brann", odds=True,
                             character="Cora", **player(slash))  # fmt: skip
    assert rolled.content == task_preview_line(against)
    await dpytest.empty_queue()


async def test_attack_odds_for_encumbered_fighters_are_the_penalised_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    # Aria carries six weapons (weight 8 worn: 2 EP, toughness 0 ignores the first: 1 EP).
    await combat_helpers.table(bot, slash)
    # Gob (toughness 0) carries 8 worn too: 1 EP, its finesse defense 2 drops to 1.
    said = await slash.run("inventory add", item="Plate", weight="2", worn=True, count=4,
                           character="Gob", **gm(slash))  # fmt: skip
    assert not said.ephemeral, said.content
    aria = await combat_helpers.sheet(bot, "Aria")
    gob = await combat_helpers.sheet(bot, "Gob")
    sword = wield(next(w for w in aria.character.weapons if w.name == "Light sword"))
    aimed = target_stats(gob.character, Attribute.FINESSE)
    penalised = attack_odds(
        sword, attacker_stats(aria.character), replace(aimed, defense=aimed.defense - 1),
        use_finesse=True, situation=Situation(encumbrance=1),
    )  # fmt: skip
    # Either penalty alone gives other figures (both together cancel out on the dice, so
    # the text of the embed proves both are there).
    attacker_only = attack_odds(
        sword, attacker_stats(aria.character), aimed, use_finesse=True,
        situation=Situation(encumbrance=1),
    )  # fmt: skip
    target_only = attack_odds(
        sword, attacker_stats(aria.character), replace(aimed, defense=aimed.defense - 1),
        use_finesse=True, situation=Situation(),
    )  # fmt: skip
    assert penalised.hit not in (attacker_only.hit, target_only.hit)
    combat_helpers.script(bot)  # nothing may be rolled
    shown = await slash.run("odds attack", target="Gob", weapon="Light sword", finesse=True,
                            **player(slash))  # fmt: skip
    [embed] = shown.embeds
    assert "-1 encumbrance" in embed["description"]
    assert "Against Gob's finesse defense 1" in embed["description"]
    assert f"Hit: **{percent(penalised.hit)}**" in embed["description"]
    combat_helpers.script(bot, 4, 4, 3)
    rolled = await slash.run("attack", target="Gob", weapon="Light sword", finesse=True,
                             odds=True, **player(slash))  # fmt: skip
    assert rolled.content == attack_preview_line(penalised)
    body = combat_helpers.text(rolled)
    assert "− 1 finesse defense − 1 encumbrance" in body
    await dpytest.empty_queue()
