"""2d10 /attack: natural 2 and 20, extra dice, axes, armor and its floor, armor piercing."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import player, script, sheet, table, text
from tests.support.slash import SlashHarness


async def test_natural_two_always_misses(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # 1 + 1 + 5 + 10 = 15 would be a hit; a natural 2 misses and rolls no damage die.
    scripted = script(bot, 1, 1)
    body = text(await slash.run("attack", target="Gob", bonus=10, **player(slash)))
    assert "**Natural 2**: always a miss, no damage." in body
    assert scripted.requests == [10, 10]
    assert (await sheet(bot, "Gob")).hp == 15
    await dpytest.empty_queue()


async def test_natural_twenty_adds_two_dice(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # 20 + 5 − 2 = 23: +6 categories, d8 capped at d12; three d12: 1 + 2 + 3, +2 +3.
    scripted = script(bot, 10, 10, 1, 2, 3)
    body = text(await slash.run("attack", target="Gob", **player(slash)))
    assert "**natural 20**: two extra damage dice" in body
    assert "Rolled [1, 2 extra, 3 extra] + 2 weapon + 3 strength = 11" in body
    assert "(extra dice: 2 for the natural 20)" in body
    assert scripted.requests == [10, 10, 12, 12, 12]
    assert (await sheet(bot, "Gob")).hp == 4
    await dpytest.empty_queue()


async def test_two_handed_axe_extra_die_on_eighteen(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # 18 + 5 − 1 = 22 against the Knight (armored: no second axe throw); 6 + 4 + 3 − 7.
    scripted = script(bot, 9, 9, 6, 4)
    body = text(
        await slash.run("attack", target="Knight", weapon="Two-handed axe", **player(slash))
    )
    assert "1 for the weapon's high roll (from 18)" in body
    assert "Damage reduction 7 = 7" in body and "**6 damage**" in body
    assert scripted.requests == [10, 10, 12, 12]
    assert (await sheet(bot, "Knight")).hp == 19
    await dpytest.empty_queue()


async def test_axe_against_unarmored_keeps_the_higher_throw(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # 8 + 5 − 2 = 11: the light axe's d6 unmoved, thrown twice against unarmored Gob.
    scripted = script(bot, 4, 4, 2, 5)
    body = text(await slash.run("attack", target="Gob", weapon="Light axe", **player(slash)))
    assert "[5 (axe vs unarmored: 5 and 2, higher kept)] + 3 strength = 8" in body
    assert scripted.requests == [10, 10, 6, 6]
    assert (await sheet(bot, "Gob")).hp == 7
    await dpytest.empty_queue()


async def test_armor_reduces_but_a_hit_deals_at_least_one(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # 6 + 5 − 1 = 10: d8 shows 1, + 2 + 3 = 6, less reduction 7: still 1 damage.
    script(bot, 3, 3, 1)
    body = text(await slash.run("attack", target="Knight", **player(slash)))
    assert "Damage reduction 7 = 7" in body and "**1 damage** (at least 1)" in body
    assert (await sheet(bot, "Knight")).hp == 24
    await dpytest.empty_queue()


async def test_armor_piercing_lowers_the_reduction(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # One-handed blunt (3): 6 + 5 − 1 = 10, d8 shows 4, + 3 = 7, reduction 7 − 3 = 4.
    script(bot, 3, 3, 4)
    body = text(
        await slash.run("attack", target="Knight", weapon="One-handed blunt", **player(slash))
    )
    assert "Damage reduction 7 − 3 armor piercing = 4" in body and "**3 damage**" in body
    assert (await sheet(bot, "Knight")).hp == 22
    await dpytest.empty_queue()


async def test_hard_cover_can_stop_the_attack(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    scripted = script(bot, 2)
    body = text(await slash.run("attack", target="Gob", situation="hard cover 2", **player(slash)))
    assert "Hard cover 2/4: d4 **2** → stopped by the cover." in body
    assert scripted.requests == [4]
    script(bot, 3, 4, 4, 5)
    body = text(await slash.run("attack", target="Gob", situation="hard cover 2", **player(slash)))
    assert "past the cover" in body and "**10 damage**" in body
    await dpytest.empty_queue()


async def test_a_stray_shot_into_melee_hits_another(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # Longbow: finesse 2 + ranged 1, and -1 encumbrance (six weapons, weight 8 worn: 2 EP,
    # toughness 0 ignores the first); into melee: disadvantage, 3d10 keep the lowest two.
    # 9 + 3 − 1 − 2 = 9 misses Gob; d8 1 picks the Knight: 9 + 3 − 1 − 1 = 10 hits,
    # d8 6 − 7 → 1.
    scripted = script(bot, 4, 5, 9, 1, 6)
    result = await slash.run(
        "attack", target="Gob", weapon="Longbow", situation="into melee",
        melee_with="Knight", **player(slash),
    )  # fmt: skip
    body = text(result)
    assert "Disadvantage: firing into melee." in body
    assert "Stray shot d8 **1**: it flies into Knight instead" in body
    assert "1 encumbrance" in body
    assert scripted.requests == [10, 10, 10, 8, 8]
    assert (await sheet(bot, "Gob")).hp == 15
    assert (await sheet(bot, "Knight")).hp == 24
    await dpytest.empty_queue()


async def test_a_natural_twenty_that_misses_adds_no_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    # The look through soft cover comes first: 3 + 3 − Gob's finesse 1 = 5, below 10:
    # all 4 points stay and the attack has disadvantage (3d10, the highest dropped).
    # 20 + 5 − 2 − 10 − 4 (soft cover) = 9: a miss, d8 → d6, and no extra dice.
    scripted = script(bot, 3, 3, 10, 10, 10, 3)
    body = text(await slash.run("attack", target="Gob", bonus=-10, situation="soft cover 4",
                                **player(slash)))  # fmt: skip
    assert "below 10: soft cover 4 stays, and the attack has disadvantage" in body
    assert "a natural 20, but no hit: no extra dice" in body
    assert "Rolled [3] + 2 weapon + 3 strength = 8" in body
    assert scripted.requests == [10, 10, 10, 10, 10, 6]
    await dpytest.empty_queue()


async def test_melee_with_cannot_name_the_attacker_or_target(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    result = await slash.run(
        "attack", target="Gob", weapon="Longbow", situation="into melee",
        melee_with="Knight, Gob", **player(slash),
    )  # fmt: skip
    assert result.ephemeral and "not you or the target" in (result.content or "")
    await dpytest.empty_queue()
