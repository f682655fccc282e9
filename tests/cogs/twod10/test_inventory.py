"""/inventory and encumbrance in a 2d10 guild: item weights worn and in the backpack,
rations and supplies in the backpack, toughness's ignored points, and the penalty
applied by itself to the rolls encumbrance affects."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10 import combat_helpers
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, text
from tests.support.slash import SlashHarness


def script(bot: TableBot, *faces: int) -> None:
    bot.dice = ScriptedDice(faces)


@pytest.fixture
async def brann(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    # Brann (player 1): finesse 1, strength 2, toughness 1 (ignores EP 1 and 3), athletics
    # 2, melee 2, defense (finesse) 2, no gear on the sheet. Cora: the same build.
    assert not (await create(slash, "Brann")).ephemeral
    assert not (await create(slash, "Cora")).ephemeral


async def add(slash: SlashHarness, **options: object) -> str:
    result = await slash.run("inventory add", character="Brann", **options, **player(slash))
    assert not result.ephemeral, result.content
    return result.content or ""


async def test_weights_to_points_and_the_rolls_they_touch(
    bot: TableBot, slash: SlashHarness, brann: None
) -> None:
    said = await add(slash, item="Rope", count=6)
    # 6 in the backpack is 1 EP, and toughness 1 ignores the first.
    assert said == "Brann carries 6 Rope in the backpack (weight 1 each): now 0 EP, movement 30 ft."
    said = await add(slash, item="Lantern", worn=True, count=4)
    # 4 worn is 1 more EP: the second counts.
    assert said.endswith("now 1 EP, movement 25 ft.")
    script(bot, 5, 5)
    shown = text(await slash.run("task", attribute="finesse", skill="stealth",
                                 character="Brann", **player(slash)))  # fmt: skip
    assert "**10** = 10 +1 finesse -1 encumbrance" in shown
    script(bot, 5, 5)
    shown = text(await slash.run("task", attribute="toughness", skill="athletics",
                                 character="Brann", **player(slash)))  # fmt: skip
    assert "**12** = 10 +1 toughness +2 athletics -1 encumbrance" in shown
    script(bot, 5, 5)
    shown = text(await slash.run("task", attribute="strength", skill="melee",
                                 character="Brann", **player(slash)))  # fmt: skip
    assert "**14** = 10 +2 strength +2 melee" in shown and "encumbrance" not in shown
    # Against Brann's finesse defense (1 + 2) the encumbrance takes 1 off.
    script(bot, 5, 5)
    shown = text(await slash.run("task", attribute="finesse", target="Brann",
                                 character="Cora", **player(slash)))  # fmt: skip
    assert "Brann's finesse defense 2 (encumbered -1)" in shown
    await dpytest.empty_queue()


async def test_rations_and_supplies_ride_in_the_backpack(
    bot: TableBot, slash: SlashHarness, brann: None
) -> None:
    await add(slash, item="Rope", count=6)
    await add(slash, item="Lantern", worn=True, count=4)
    await slash.run("rations add", rations=12, character="Brann", **player(slash))
    await slash.run("medicine supplies", character="Brann", units=6, **gm(slash))
    # Backpack 6 + 12 x 1/2 + 6 = 18: 3 EP; worn 4: 1 EP; 4 EP less the 1st and 3rd = 2.
    shown = await slash.run("inventory list", character="Brann", **player(slash, 2))
    body = text(shown)
    assert "1. Lantern x4 (weight 1 each)\n2. Rope x6 (weight 1 each)" in body
    assert "12 rations; 6 units of medical supplies" in body
    assert "Worn or readily accessible: weight 4 → 1 EP" in body
    assert "Backpack: weight 18 → 3 EP" in body
    assert "Toughness 1 ignores EP #1, #3: **2 EP**" in body
    assert "Movement 20 ft; -2 to Athletics, Stealth and Finesse rolls" in body
    sheet = text(await slash.run("character show", name="Brann", **player(slash)))
    assert "Encumbrance: Worn or readily accessible" in sheet and "**2 EP**" in sheet
    # Drawing from a backpack of 3 EP: a d8 on its top face, +1 on the second try.
    script(bot, 7)
    said = (await slash.run("inventory draw", item="rope", attempt=2, character="Brann",
                            **player(slash))).content  # fmt: skip
    assert said == "Brann digs for Rope: d8 shows 7 + 1 (try 2), needs 8: gets it out."
    removed = await slash.run("inventory remove", item="lantern", character="Brann",
                              **player(slash))  # fmt: skip
    # Backpack 3 EP alone: the 1st and 3rd ignored, 1 EP.
    assert removed.content == "Brann puts away 4 Lantern (0 left): now 1 EP, movement 25 ft."


async def test_bad_items_and_who_may_change_them(
    bot: TableBot, slash: SlashHarness, brann: None
) -> None:
    for weight in ("1/3", "abc", "21", "-1"):
        result = await slash.run("inventory add", item="Rock", weight=weight, character="Brann",
                                 **player(slash))  # fmt: skip
        refused(result, "Give the weight as a number from 0 to 20")
    refused(await slash.run("inventory add", item="Rock", character="Brann", **player(slash, 2)),
            "isn't yours")  # fmt: skip
    await add(slash, item="Dagger", weight="1")
    await add(slash, item="Dagger", weight="1", worn=True)
    refused(await slash.run("inventory remove", item="Dagger", character="Brann",
                            **player(slash)), "say which with worn:")  # fmt: skip
    result = await slash.run("inventory remove", item="Dagger", count=2, worn=True,
                             character="Brann", **player(slash))  # fmt: skip
    refused(result, "Brann has only 1 Dagger.")
    refused(await slash.run("inventory remove", item="Spoon", character="Brann",
                            **player(slash)), "carries no Spoon")  # fmt: skip
    said = await add(slash, item="dagger", weight="2 1/2", count=3)
    assert said.startswith("Brann carries 4 Dagger in the backpack (weight 1 each)")
    refused(await slash.run("inventory draw", item="Lantern", character="Brann",
                            **player(slash)), "no Lantern in the backpack")  # fmt: skip


async def test_a_finesse_attack_takes_the_attackers_encumbrance(
    bot: TableBot, slash: SlashHarness
) -> None:
    # Aria carries six weapons (weight 8 worn: 2 EP; toughness 0 ignores the first).
    await combat_helpers.table(bot, slash)
    combat_helpers.script(bot, 4, 4, 5)
    body = combat_helpers.text(await slash.run("attack", target="Gob", **player(slash)))
    assert "encumbrance" not in body  # a strength attack
    combat_helpers.script(bot, 4, 4, 3)  # 9: the light sword's d6 drops to a d4
    body = combat_helpers.text(await slash.run(
        "attack", target="Gob", weapon="Light sword", finesse=True, **player(slash),
    ))  # fmt: skip
    assert "natural 8 + 2 finesse + 2 melee − 2 finesse defense − 1 encumbrance = **9**" in body
    await dpytest.empty_queue()


async def test_over_twenty_damage_on_a_player_damages_an_item(
    bot: TableBot, slash: SlashHarness
) -> None:
    await combat_helpers.twod10(slash)
    await combat_helpers.store(
        bot, combat_helpers.make("Ogre", strength=3, melee=2, weapons=("Two-handed sword 2d6",)),
        slash.members[0].id, TwoD10Kind.ANTAGONIST,
    )  # fmt: skip
    # Pip (a player's): a light sword on the sheet, then a worn lantern and backpack rope.
    await combat_helpers.store(
        bot, combat_helpers.make("Pip", toughness=6, weapons=("Light sword",)),
        slash.members[1].id,
    )  # fmt: skip
    for item, worn in (("Rope", False), ("Lantern", True)):
        await slash.run("inventory add", item=item, worn=worn, character="Pip", **player(slash))
    # 15 + 3 + 2 + 10 = 30: the 2d6 rise to 2d12; 12 + 12 + 2 + 3 = 29 damage > 20; the
    # GM's d20 shows 2: the list is Light sword, Lantern (worn), Rope.
    dice = combat_helpers.script(bot, 10, 5, 12, 12, 2)
    body = combat_helpers.text(await slash.run(
        "attack", target="Pip", bonus=10, character="Ogre", **gm(slash),
    ))  # fmt: skip
    assert "Over 20 damage: d20 **2**, Lantern is damaged." in body
    assert dice.remaining == 0
    # An NPC (not a player) takes it without an item roll (no d20 is scripted).
    await combat_helpers.store(
        bot, combat_helpers.make("Troll", toughness=6), slash.members[0].id,
        TwoD10Kind.ANTAGONIST,
    )  # fmt: skip
    dice = combat_helpers.script(bot, 10, 5, 12, 12)
    body = combat_helpers.text(await slash.run(
        "attack", target="Troll", bonus=10, character="Ogre", **gm(slash),
    ))  # fmt: skip
    assert "Over 20 damage" not in body and dice.remaining == 0
    await dpytest.empty_queue()


async def test_items_are_removed_once_and_names_echo_inert(
    bot: TableBot, slash: SlashHarness, brann: None
) -> None:
    await add(slash, item="Torch", count=3)
    first = len(slash.responses)
    await asyncio.gather(*(
        slash.run("inventory remove", item="Torch", character="Brann",
                  **(gm(slash) if n % 2 else player(slash)))
        for n in range(4)
    ))  # fmt: skip
    answers = [r for r in slash.responses[first:] if r.carries_message]
    assert sum(not r.ephemeral for r in answers) == 1
    body = text(await slash.run("inventory list", character="Brann", **player(slash)))
    assert "Torch" not in body
    said = await add(slash, item="**@everyone** _x_")
    assert "\\*\\*@\u200beveryone\\*\\* \\_x\\_" in said
