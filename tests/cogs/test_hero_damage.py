"""/hero spend damage: 2d6 off the last hit received, in one transaction."""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.hocs.characters import Character
from bot.storage.roll_log import RollLogRepository
from tests.cogs.test_character_helpers import stored
from tests.cogs.test_combat_helpers import combat_state, gm, pc, player, refused, script, text
from tests.cogs.test_roll_buttons import fresh, set_points
from tests.support.slash import SlashHarness


async def mira(bot: TableBot, slash: SlashHarness, *, armor: int = 0, points: int = 1) -> Character:
    """Mira, player 1's character: STR 3, 12 HP."""
    await pc(slash, "Mira", armor=armor)
    found = await stored(bot, "Mira")
    assert found is not None
    await set_points(bot, found, hero_points=points)
    return found


async def test_nine_on_toughness_two_then_a_hero_point_of_five(
    bot: TableBot, slash: SlashHarness
) -> None:
    character = await mira(bot, slash, armor=2)
    script(bot, 9)
    hit = await slash.run("damage", dice="1d10", target="Mira", **gm(slash))
    assert "9 − 2 (toughness) = **7** received" in text(hit)
    assert (await combat_state(bot, "Mira")).vitals.hp == 5
    script(bot, 2, 3)
    result = await slash.run("hero spend", option="damage", **player(slash))
    assert not result.ephemeral
    body = text(result)
    assert "**2d6**: 2 + 3 = **5** (added, can't be modified)" in body
    assert "**Damage**: 9 → **4**" in body
    assert "**Received** after toughness/mettle: 7 → **2**" in body
    assert "**Given back**: 5 HP: 5/12 HP → **10/12 HP**" in body
    assert "Hero points left: 0." in body
    result.assert_no_pings()
    assert (await combat_state(bot, "Mira")).vitals.hp == 10
    assert (await fresh(bot, character)).state.hero_points == 0
    # The roll log has the 2d6, and the hit's entry is brought up to date.
    async with bot.db.read() as conn:
        hero, damage = (await RollLogRepository(conn).recent(bot.guilds[0].id))[:2]
    assert (hero.kind, hero.total, hero.character_id) == ("hero_damage", 5, character.id)
    assert hero.result["faces"] == [2, 3] and hero.result["hp_given_back"] == 5
    assert damage.kind == "damage" and damage.total == 2
    assert damage.result["hit"]["hero_reductions"] == [[2, 3]]
    assert damage.result["changes"] == [{"hero_reduction": [2, 3]}]
    await dpytest.empty_queue()


async def test_a_wound_from_10_plus_goes_when_the_damage_drops_below_10(
    bot: TableBot, slash: SlashHarness
) -> None:
    await mira(bot, slash)
    # d12 10 explodes 1 → 11; wound check 9 → wound d10 2 (max HP −2); recovery 2d4 3, 2.
    script(bot, 10, 1, 9, 2, 3, 2)
    hit = await slash.run("damage", dice="1d12", target="Mira", **gm(slash))
    assert "**Wound check**" in text(hit)
    state = await combat_state(bot, "Mira")
    assert len(state.wounds) == 1 and state.vitals.hp == 1
    script(bot, 1, 1)
    result = await slash.run("hero spend", option="damage", **player(slash))
    body = text(result)
    assert "**Damage**: 11 → **9**" in body and "**No wound**" in body
    assert "**No longer**: wounded." in body
    state = await combat_state(bot, "Mira")
    assert state.wounds == () and state.vitals.hp == 3
    assert "wounded" not in state.vitals.conditions.to_dict()
    await dpytest.empty_queue()


async def test_refusals_keep_the_point(bot: TableBot, slash: SlashHarness) -> None:
    character = await mira(bot, slash)
    script(bot)  # nothing may be rolled
    refused(await slash.run("hero spend", option="damage", **player(slash)), "no hit to reduce")
    refused(
        await slash.run("hero spend", option="damage", dice="1", **player(slash)),
        "only goes with reroll",
    )
    script(bot, 5)
    await slash.run("damage", dice="1d6", target="Mira", **gm(slash))
    await slash.run("hp", target="Mira", change="-1", **gm(slash))  # Mira changed since
    script(bot)
    refused(await slash.run("hero spend", option="damage", **player(slash)), "changed since")
    # Another player can't spend Mira's point.
    refused(
        await slash.run("hero spend", option="damage", character="Mira", **player(slash, 2)),
        "isn't yours",
    )
    # An old hit is no longer "just received".
    script(bot, 5)
    await slash.run("damage", dice="1d6", target="Mira", **gm(slash))
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE damage_choices SET expires_at = '2000-01-01T00:00:00.000000Z'")
    script(bot)
    refused(await slash.run("hero spend", option="damage", **player(slash)), "no hit to reduce")
    assert (await fresh(bot, character)).state.hero_points == 1
    assert (await combat_state(bot, "Mira")).vitals.hp == 12 - 5 - 1 - 5
    await dpytest.empty_queue()


async def test_a_reduction_to_nothing_then_nothing_left_to_reduce(
    bot: TableBot, slash: SlashHarness
) -> None:
    character = await mira(bot, slash, points=2)
    script(bot, 3)
    await slash.run("damage", dice="1d4", target="Mira", **gm(slash))
    script(bot, 6, 6)
    result = await slash.run("hero spend", option="damage", **player(slash))
    assert "**Damage**: 3 → **0**" in text(result)
    assert (await combat_state(bot, "Mira")).vitals.hp == 12
    script(bot)
    refused(await slash.run("hero spend", option="damage", **player(slash)), "nothing to reduce")
    assert (await fresh(bot, character)).state.hero_points == 1
    await dpytest.empty_queue()


async def test_twenty_simultaneous_spends_with_one_point_spend_it_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    character = await mira(bot, slash, armor=2)
    script(bot, 9)
    await slash.run("damage", dice="1d10", target="Mira", **gm(slash))
    script(bot, *([2, 3] * 20))
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.run("hero spend", option="damage", **player(slash)) for _ in range(20))
    )
    # Concurrent results share their recording window: count every response instead.
    answers = [r for r in slash.responses[first:] if r.carries_message]
    spent = [r for r in answers if not r.ephemeral]
    refusals = [r for r in answers if r.ephemeral]
    assert len(spent) == 1 and len(refusals) == 19
    assert all("no hero points left" in (r.content or "") for r in refusals)
    assert (await fresh(bot, character)).state.hero_points == 0
    assert (await combat_state(bot, "Mira")).vitals.hp == 10
    await dpytest.empty_queue()
