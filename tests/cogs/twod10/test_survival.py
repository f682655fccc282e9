"""/rest, /medicine and /dying in a 2d10 guild: scripted dice, the rest limits across
commands, supplies spent exactly once, dying outcomes and death at the threshold."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10Condition
from bot.storage.twod10.survival import TwoD10SurvivalRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    # Brann and Cora: toughness 1 (max HP 20, death at -2), mind 0, no medicine skill.
    assert not (await create(slash, "Brann")).ephemeral
    assert not (await create(slash, "Cora")).ephemeral


def script(bot: TableBot, *faces: int) -> None:
    bot.dice = ScriptedDice(faces)


async def set_hp(slash: SlashHarness, name: str, hp: int) -> None:
    result = await slash.run("character edit", name=name, hp=hp, **gm(slash))
    assert not result.ephemeral, result.content


async def supplies(bot: TableBot, name: str) -> int:
    sheet = await stored(bot, name)
    async with bot.db.read() as conn:
        row = await TwoD10SurvivalRepository(conn).get(sheet.guild_id, sheet.id)
    return row.supplies if row else 0


async def test_short_rest_needs_damage_and_keeps_its_cap(
    bot: TableBot, slash: SlashHarness
) -> None:
    refused(await slash.run("rest short", character="Brann", **player(slash)),
            "A short rest helps only after damage is taken again")  # fmt: skip
    await set_hp(slash, "Brann", 10)
    first = text(await slash.run("rest short", character="Brann", **player(slash)))
    assert "The rest offers 1 HP." in first and "HP 10 → **11** / 20" in first
    assert (await stored(bot, "Brann")).hp == 11
    # No damage since: refused, across commands.
    refused(await slash.run("rest short", character="Brann", **player(slash)),
            "A short rest helps only after damage is taken again")  # fmt: skip
    # Damage (the sheet's HP went down), then a rest with medicine: 1 + 2 would make 13,
    # but the cap is the 11 HP of the last short rest.
    await set_hp(slash, "Brann", 10)
    r = await slash.run("medicine supplies", character="Cora", units=1, **gm(slash))
    assert "Cora has 1 unit of medical supplies." in r.content
    script(bot, 10, 10)  # 20 + 0 mind + 0 medicine: +2
    second = text(await slash.run("rest short", character="Brann", medic="Cora", **player(slash)))
    assert "**20** = 20" in second and "Medicine: +2 HP." in second
    assert "Capped at 11 HP" in second and "HP 10 → **11** / 20" in second
    assert "One unit of medical supplies spent (0 left)." in second
    assert await supplies(bot, "Cora") == 0
    await dpytest.empty_queue()


async def test_long_rest_gains_and_clears_the_cap(bot: TableBot, slash: SlashHarness) -> None:
    await set_hp(slash, "Brann", 10)
    await slash.run("rest short", character="Brann", **player(slash))
    shown = text(await slash.run("rest long", character="Brann", **player(slash)))
    assert "The rest offers 3 HP." in shown and "HP 11 → **14** / 20" in shown
    await set_hp(slash, "Brann", 13)
    # The cap (11) is gone after the long rest: the short rest reaches 14.
    assert "HP 13 → **14**" in text(await slash.run("rest short", character="Brann",
                                                    **player(slash)))  # fmt: skip


async def test_short_rest_medicine_without_supplies_has_disadvantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await set_hp(slash, "Brann", 10)
    script(bot, 9, 8, 2)  # disadvantage drops the 9: 8 + 2 = 10, toughness 1: +0
    shown = text(await slash.run("rest short", character="Brann", medic="Cora", **player(slash)))
    assert "3d10 (disadvantage) [~~9~~, 8, 2] = 10" in shown
    assert "No medical supplies: the roll had disadvantage." in shown
    assert "Medicine: +0 HP." in shown and "HP 10 → **11**" in shown


async def test_supplies_spent_exactly_once_under_concurrency(
    bot: TableBot, slash: SlashHarness
) -> None:
    await set_hp(slash, "Brann", 10)
    await set_hp(slash, "Cora", 10)
    await slash.run("medicine supplies", character="Cora", units=1, **gm(slash))
    results = await asyncio.gather(
        slash.run("rest short", character="Brann", medic="Cora", **player(slash)),
        slash.run("rest short", character="Cora", medic="Cora", **player(slash)),
    )
    assert all(not r.ephemeral for r in results)
    # Both rested (the second is refused now), one unit spent, never below zero.
    assert await supplies(bot, "Cora") == 0
    for name in ("Brann", "Cora"):
        refused(await slash.run("rest short", character=name, **player(slash)),
                "A short rest helps only after damage")  # fmt: skip


async def test_players_cannot_set_supplies_or_rest_others(
    bot: TableBot, slash: SlashHarness
) -> None:
    refused(await slash.run("medicine supplies", character="Cora", units=3, **player(slash)),
            "GM")  # fmt: skip
    refused(await slash.run("rest long", character="Brann", **player(slash, 2)), "isn't yours")
    assert await supplies(bot, "Cora") == 0


async def test_dying_rolls_fall_unconscious_gain_and_wake(
    bot: TableBot, slash: SlashHarness
) -> None:
    await set_hp(slash, "Brann", 0)
    refused(await slash.run("rest short", character="Brann", **player(slash)),
            "can't rest; stabilise them first")  # fmt: skip
    script(bot, 2, 3)  # 5 + 1 toughness + 0 HP = 6: below 10
    first = text(await slash.run("dying roll", character="Brann", **player(slash)))
    assert "**6** = 5 +1 toughness" in first and "falls unconscious and loses 1 HP" in first
    sheet = await stored(bot, "Brann")
    assert sheet.hp == -1 and sheet.has(TwoD10Condition.UNCONSCIOUS)
    script(bot, 5, 5)  # 10 + 1 - 1 HP = 10: gains 1
    second = text(await slash.run("dying roll", character="Brann", **gm(slash)))
    assert "**10** = 10 +1 toughness -1 current HP" in second and "gains 1 HP" in second
    assert (await stored(bot, "Brann")).has(TwoD10Condition.UNCONSCIOUS)
    script(bot, 10, 9)
    third = text(await slash.run("dying roll", character="Brann", **player(slash)))
    assert "regains consciousness" in third
    sheet = await stored(bot, "Brann")
    assert sheet.hp == 1 and not sheet.conditions
    refused(await slash.run("dying roll", character="Brann", **player(slash)), "is not dying")
    refused(await slash.run("dying roll", character="Brann", **player(slash, 2)), "isn't yours")


async def test_death_at_the_threshold(bot: TableBot, slash: SlashHarness) -> None:
    await set_hp(slash, "Brann", -1)
    script(bot, 1, 2)  # 3 + 1 - 1 = 3: loses 1, reaching -2 = -2 x toughness
    shown = text(await slash.run("dying roll", character="Brann", **player(slash)))
    assert "**Dead.**" in shown and "HP -1 → **-2**" in shown
    sheet = await stored(bot, "Brann")
    assert sheet.hp == -2 and sheet.has(TwoD10Condition.DEAD)
    refused(await slash.run("dying roll", character="Brann", **player(slash)), "is dead")


async def test_stabilise_adds_hp_to_the_roll_and_advantage_to_the_next(
    bot: TableBot, slash: SlashHarness
) -> None:
    await set_hp(slash, "Brann", -1)
    script(bot, 6, 5)  # 11 + 0 mind + 0 medicine - 1 patient's HP = 10: advantage only
    shown = text(await slash.run("medicine stabilise", patient="Brann", medic="Cora",
                                 **player(slash)))  # fmt: skip
    assert "**10** = 11 -1 patient's HP" in shown
    assert "Stabilised: advantage on the next toughness roll." in shown
    script(bot, 2, 9, 8)  # advantage drops the 2: 17 + 1 - 1 = 17
    roll = text(await slash.run("dying roll", character="Brann", **player(slash)))
    assert "3d10 (advantage) [~~2~~, 9, 8] = 17" in roll and "HP -1 → **0**" in roll
    script(bot, 5, 5)  # the advantage was spent: two dice again
    assert "2d10 [5, 5] = 10" in text(
        await slash.run("dying roll", character="Brann", **player(slash))
    )
    again = await slash.run("medicine stabilise", patient="Brann", medic="Cora", **player(slash))
    refused(again, "Stabilise only a patient at 0 HP or below")


@pytest.mark.parametrize(
    ("faces", "change", "hp"),
    [((1, 1), -2, 8), ((2, 3), -1, 9), ((4, 4), 0, 10), ((5, 5), 0, 10), ((8, 7), 1, 11),
     ((10, 10), 2, 12), ((10, 10), 2, 12)],
)  # fmt: skip
async def test_daily_medicine_bands_once_a_day(
    bot: TableBot, slash: SlashHarness, faces: tuple[int, int], change: int, hp: int
) -> None:
    await set_hp(slash, "Brann", 10)
    script(bot, *faces)
    shown = text(await slash.run("medicine daily", patient="Brann", medic="Cora", **player(slash)))
    assert f"Change: {change:+d} HP." in shown and f"HP 10 → **{hp}**" in shown
    refused(await slash.run("medicine daily", patient="Brann", medic="Cora", **player(slash)),
            "daily medicine")  # fmt: skip


async def test_attribute_healing_spends_a_unit_once_a_day(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("medicine supplies", character="Cora", units=2, **gm(slash))
    script(bot, 9, 8)
    shown = text(await slash.run("medicine attribute", patient="Brann", needed=17, medic="Cora",
                                 **player(slash)))  # fmt: skip
    assert "One point of attribute damage heals." in shown and "(1 left)" in shown
    refused(await slash.run("medicine attribute", patient="Brann", medic="Cora", **player(slash)),
            "once a day")  # fmt: skip
    assert await supplies(bot, "Cora") == 1
