"""/damage: the text's worked examples with scripted dice, bad input, simultaneous hits."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_combat_helpers import (
    arm,
    buttons,
    choice_count,
    combat_state,
    gm,
    npc,
    pc,
    player,
    refused,
    script,
    text,
)
from tests.support.slash import SlashHarness


async def test_many_dice_example_keeps_the_7(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 4, 7, 4, 3)
    result = await slash.run("damage", dice="1d10 1d8 2d6", **player(slash))
    assert not result.ephemeral
    assert "**7 damage**" in text(result)
    assert "d8 source (7)" in text(result) and "best expected total" in text(result)
    labels = [b["label"] for b in buttons(result)]
    assert labels == ["d10 source: 4", "d8 source: 7", "d6 source: 4", "d6 source: 3"]
    kept = [b for b in buttons(result) if b.get("disabled")]
    assert [b["label"] for b in kept] == ["d8 source: 7"]
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_many_dice_example_with_two_sixes_is_9(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 4, 7, 6, 6)
    result = await slash.run("damage", dice="1d10 1d8 2d6", **player(slash))
    assert "+2 for other dice at their maximum" in text(result)
    assert "**9 damage**" in text(result)
    await dpytest.empty_queue()


async def test_greatsword_example_with_the_sheets_weapon(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Warrior", strength=3)
    await arm(slash, player(slash), "Warrior", "Greatsword", "1d12", damage_type="slash")
    script(bot, 10, 7, 5, 4)  # d12 10, lethality d10 7, STR d8 5; the kept d12 explodes: 4
    result = await slash.run("damage", dice="Greatsword", **player(slash))
    body = text(result)
    assert "d12 source, d10 lethality, d8 attribute" in body
    assert "10 + 4 = 14" in body and "**14 damage**" in body
    await dpytest.empty_queue()


async def test_toughness_4_against_8_and_3(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Knight", armor=4)  # STR 3: 12 HP
    script(bot, 8)
    first = await slash.run("damage", dice="1d8", target="Knight", **gm(slash))
    assert "8 − 4 (toughness) = **4** received" in text(first)
    assert (await combat_state(bot, "Knight")).vitals.hp == 8
    script(bot, 3)
    second = await slash.run("damage", dice="1d8", target="Knight", **gm(slash))
    assert "at least 1: **1** received" in text(second)
    assert "HP 8 → **7**" in text(second)
    assert (await combat_state(bot, "Knight")).vitals.hp == 7
    assert buttons(second) == []  # one die: nothing to choose
    await dpytest.empty_queue()


async def test_weakness_and_resistance_together(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Troll", armor=2)
    defenses = await slash.run(
        "character defenses", name="Troll", resistances="slash", weaknesses="cold", **gm(slash)
    )
    assert not defenses.ephemeral, defenses.content
    script(bot, 3, 9)  # d8 3, the weakness d10 (cold) 9
    result = await slash.run(
        "damage", dice="1d8", target="Troll", damage_type="slash, cold", **gm(slash)
    )
    body = text(result)
    assert "d8 source, d10 weakness (cold)" in body
    assert "**9 damage**" in body
    assert "9 − 4 (toughness including +2 resistance) = **5** received" in body
    assert (await combat_state(bot, "Troll")).vitals.hp == 12 - 5
    await dpytest.empty_queue()


async def test_immune_target_loses_nothing(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Golem")
    await slash.run("character defenses", name="Golem", immunities="poison", **gm(slash))
    script(bot)
    result = await slash.run(
        "damage", dice="2d6", target="Golem", damage_type="poison", **gm(slash)
    )
    assert "immune" in text(result)
    assert (await combat_state(bot, "Golem")).vitals.hp == 12
    await dpytest.empty_queue()


async def test_nonlethal_damage_is_recorded_separately(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Drunk", strength=1)  # 8 HP
    script(bot, 5)
    result = await slash.run("damage", dice="1d6", target="Drunk", nonlethal=True, **gm(slash))
    assert "(non-lethal)" in text(result)
    state = await combat_state(bot, "Drunk")
    assert (state.vitals.hp, state.vitals.nonlethal) == (3, 5)
    await dpytest.empty_queue()


async def test_bad_inputs_are_refused_and_nothing_is_written(
    bot: TableBot, slash: SlashHarness
) -> None:
    await npc(slash, "Gob")
    script(bot)
    cases = [
        ({"dice": "1d7x", "target": "Gob"}, "1d12"),
        ({"dice": "1d7", "target": "Gob"}, "d4, d6"),
        ({"dice": "13d6", "target": "Gob"}, "at most 12"),
        ({"dice": "1d6", "target": "Nobody"}, "no character called"),
        ({"dice": "1d6", "target": "Gob", "damage_type": "lava"}, "not a damage type"),
        ({"dice": "sword", "target": "Gob"}, "damage dice"),
    ]
    for options, words in cases:
        result = await slash.run("damage", **player(slash), **options)
        refused(result, words)
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == 12 and await choice_count(bot) == 0
    await dpytest.empty_queue()


async def test_twenty_simultaneous_hits_all_count(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Giant", strength=5)  # 16 HP
    await slash.run("hp", target="Giant", change="temp 10", **gm(slash))
    script(bot, *([1] * 20))
    results = await asyncio.gather(
        *(slash.run("damage", dice="1d4", target="Giant", **player(slash)) for _ in range(20))
    )
    assert all(not r.ephemeral for r in results)
    state = await combat_state(bot, "Giant")
    assert (state.vitals.temp_hp, state.vitals.hp) == (0, 26 - 20 - 0)
    await dpytest.empty_queue()
