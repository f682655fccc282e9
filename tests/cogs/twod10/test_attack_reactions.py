"""2d10 /attack: shield blocks (counted until the shield breaks), parry, maneuvers."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.twod10.characters import TwoD10Condition
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.support.slash import SlashHarness


async def blunt_block(slash: SlashHarness) -> str:
    return text(
        await slash.run(
            "attack", target="Knight", weapon="One-handed blunt", block=True, **player(slash)
        )
    )


async def test_shield_blocks_halve_until_the_shield_breaks(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    script(bot, 1, 1)  # a natural 2 deals nothing: the block is not spent
    assert "Block with" not in await blunt_block(slash)
    # 10 + 5 − 1 = 14: d8 +2 → d12 shows 12, + 3 = 15, halved 7, reduction 7 − 3: 3.
    script(bot, 5, 5, 12)
    body = await blunt_block(slash)
    assert "Shield block halves it: 7" in body and "**3 damage**" in body
    assert "Block with the heavy round shield: 2 blocks left." in body
    script(bot, 5, 5, 12)
    assert "1 block left" in await blunt_block(slash)
    script(bot, 5, 5, 12)
    assert "it breaks (no blocks left)" in await blunt_block(slash)
    assert (await sheet(bot, "Knight")).hp == 25 - 9
    scripted = script(bot, 5, 5, 12)
    refused(
        await slash.run(
            "attack", target="Knight", weapon="One-handed blunt", block=True, **player(slash)
        ),
        "is broken and can't block",
    )
    assert scripted.requests == []  # refused before any die
    refused(await slash.run("shield repair", target="Knight", **player(slash)), "Only the GM")
    repaired = await slash.run("shield repair", target="Knight", **gm(slash))
    assert "can block 3 times again" in (repaired.content or "")
    script(bot, 5, 5, 12)
    assert "2 blocks left" in await blunt_block(slash)
    await dpytest.empty_queue()


async def test_no_shield_no_block(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    refused(await slash.run("attack", target="Gob", block=True, **player(slash)), "has no shield")
    await dpytest.empty_queue()


async def test_parry_subtracts_the_targets_finesse_and_melee(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # 12 + 5 − 1 − 3 (Knight: finesse 1 + melee 2) = 13: d8 +1 → d10 shows 5, + 5 − 7 = 3.
    script(bot, 6, 6, 5)
    body = text(await slash.run("attack", target="Knight", parry="melee", **player(slash)))
    assert "− 3 parry = **13**" in body and "**3 damage**" in body
    assert (await sheet(bot, "Knight")).hp == 22
    refused(
        await slash.run(
            "attack", target="Knight", weapon="Longbow", parry="melee", **player(slash)
        ),
        "can't be parried",
    )
    await dpytest.empty_queue()


async def test_a_trip_knocks_prone_and_the_next_attack_has_advantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # Disadvantage: 3d10, the 9 dropped; 10 + 5 − 2 = 13: prone; d8 +1 −1 = d8 shows 3, + 5.
    script(bot, 5, 5, 9, 3)
    body = text(await slash.run("attack", target="Gob", maneuver="trip", **player(slash)))
    assert "Disadvantage: trip maneuver." in body
    assert "2d10 (disadvantage) [5, 5, ~~9~~]" in body
    assert "Trip: knocked prone (marked prone)." in body
    assert "Damage die d8 no change → d8" in body
    gob = await sheet(bot, "Gob")
    assert gob.hp == 7 and gob.conditions == (TwoD10Condition.PRONE,)
    # Prone on the sheet: advantage without saying so; the 2 is dropped.
    script(bot, 2, 5, 5, 1)
    body = text(await slash.run("attack", target="Gob", **player(slash)))
    assert "Advantage: target prone." in body and "[~~2~~, 5, 5]" in body
    assert (await sheet(bot, "Gob")).hp == 1
    await dpytest.empty_queue()


async def test_a_bluff_targets_mind_and_adds_damage(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    refused(
        await slash.run("attack", target="Gob", maneuver="bluff", defense="finesse",
                        **player(slash)),
        "Bluff targets mind",
    )  # fmt: skip
    refused(
        await slash.run("attack", target="Gob", maneuver="pin", **player(slash)),
        "brawl maneuver",
    )
    # Against mind 0: 9 + 9 + 5 = 23 (3d10 with the 10 dropped): 3 steps above 10, +9 damage.
    script(bot, 9, 9, 10, 2)
    body = text(await slash.run("attack", target="Gob", maneuver="bluff", **player(slash)))
    assert "− 0 mind defense" not in body and "= **23**" in body
    assert "Bluff: disadvantage on its defense roll, +9 damage." in body
    assert "+ 9 bluff" in body
    gob = await sheet(bot, "Gob")  # 2 + 2 + 3 + 9 = 16: past the death threshold
    assert gob.hp == -1 and gob.conditions == (TwoD10Condition.DEAD,)
    assert "Gob: 15/15 HP → **-1/15 HP, dead**" in body
    await dpytest.empty_queue()
