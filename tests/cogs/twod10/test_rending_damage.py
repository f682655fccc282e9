"""Rending's extra damage die through /attack (rules text: "On a critical hit, rending may
be attempted on an opponent who has not yet been slain. If successful, the attack does an
extra dice of damage"): the die is rolled after the natural 20's, added to that attack's
damage before armor, named in the reply's damage line and kept in the roll log row."""

from __future__ import annotations

import json
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import player, script, sheet, table, text
from tests.support.slash import SlashHarness


async def latest_log(bot: TableBot) -> dict[str, Any]:
    async with bot.db.read() as conn:
        cur = await conn.execute("SELECT result FROM roll_log ORDER BY id DESC LIMIT 1")
        row = await cur.fetchone()
    assert row is not None
    return json.loads(row[0])


async def rend(bot: TableBot, slash: SlashHarness, target: str, *faces: int) -> str:
    script(bot, *faces)
    return text(
        await slash.run("attack", target=target, weapon="Unarmed", rend=True, **player(slash))
    )


async def test_a_torn_foe_takes_the_extra_die_past_its_armor(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # Fists (brawl 2: 1d2) on the Knight (defense 1): 20 + 3 + 2 − 1 = 24, up to the d12
    # cap. Rending 6 + 4 + 3 + 2 = 15 tears. Dice 5, the natural 20's 6 and 2, the
    # rending's 9: 22 + 3 strength = 25, less the Knight's reduction 7 = 18.
    said = await rend(bot, slash, "Knight", 10, 10, 6, 4, 5, 6, 2, 9)
    assert "Rending: 2d10 [6, 4] natural 10 + 3 strength + 2 brawl = **15**" in said, said
    assert (
        "Rolled [5, 6 extra, 2 extra, 9 extra] + 3 strength = 25"
        " (extra dice: 2 for the natural 20, 1 for the rending)"
    ) in said, said
    assert "**18 damage**" in said
    assert "Knight: 25/25 HP → **7/25 HP**" in said
    assert (await sheet(bot, "Knight")).hp == 7
    logged = await latest_log(bot)
    assert logged["damage_faces"] == [5, 6, 2, 9]
    assert logged["rending_dice"] == 1
    assert logged["damage"] == 18 and logged["hp"] == [25, 7]
    assert logged["damage_roll"]["sides"] == [12, 12, 12, 12]
    assert logged["rending"] == [
        {"living": True, "faces": [6, 4], "dropped": None, "total": 15, "succeeded": True}
    ]
    await dpytest.empty_queue()


async def test_a_failed_rending_adds_no_die(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # Rending 1 + 2 + 3 + 2 = 8: no grip. Dice 5, 3, 2: 10 + 3 = 13 on unarmored Gob.
    said = await rend(bot, slash, "Gob", 10, 10, 1, 2, 5, 3, 2)
    assert "→ no grip." in said, said
    assert (
        "Rolled [5, 3 extra, 2 extra] + 3 strength = 13 (extra dice: 2 for the natural 20)"
    ) in said, said
    assert "for the rending" not in said
    logged = await latest_log(bot)
    assert logged["damage_faces"] == [5, 3, 2] and logged["rending_dice"] == 0
    assert logged["damage"] == 13 and logged["hp"] == [15, 2]
    await dpytest.empty_queue()


async def test_no_natural_twenty_no_rending_and_no_die(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # 9 + 9 + 5 − 2 = 21: a hit up to the d12, but no critical: rend: rolls nothing.
    said = await rend(bot, slash, "Gob", 9, 9, 4)
    assert "Rending" not in said and "extra dice" not in said, said
    logged = await latest_log(bot)
    assert logged["rending"] == [] and logged["rending_dice"] == 0
    assert logged["damage_faces"] == [4] and logged["damage"] == 7
    await dpytest.empty_queue()
