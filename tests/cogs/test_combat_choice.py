"""The "keep another die" buttons: who may press them, and when they stop working."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.test_combat_helpers import (
    buttons,
    combat_state,
    gm,
    npc,
    player,
    refused,
    script,
    text,
)
from tests.support.slash import DiscordWouldRefuse, SlashHarness


async def roll_on_gob(bot: TableBot, slash: SlashHarness):  # type: ignore[no-untyped-def]
    await npc(slash, "Gob")  # 12 HP, armor 0
    script(bot, 4, 7, 4, 3)
    result = await slash.run("damage", dice="1d10 1d8 2d6", target="Gob", **player(slash))
    assert "**7 damage**" in text(result)
    assert (await combat_state(bot, "Gob")).vitals.hp == 5
    return result


async def test_roller_keeps_another_die_and_the_hit_is_redone(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await roll_on_gob(bot, slash)
    script(bot)  # no new dice: the faces are already rolled
    clicked = await slash.click(result, label="d10 source: 4", **player(slash))
    assert not clicked.ephemeral
    body = text(clicked)
    assert "picked by the player" in body and "**4 damage**" in body
    assert "HP 12 → **8**" in body
    kept = [b["label"] for b in buttons(clicked) if b.get("disabled")]
    assert kept == ["d10 source: 4"]
    assert (await combat_state(bot, "Gob")).vitals.hp == 8
    # And back to the suggested die.
    again = await slash.click(clicked, label="d8 source: 7", **player(slash))
    assert "**7 damage**" in text(again)
    assert (await combat_state(bot, "Gob")).vitals.hp == 5
    await dpytest.empty_queue()


async def test_gm_may_switch_but_another_player_may_not(bot: TableBot, slash: SlashHarness) -> None:
    result = await roll_on_gob(bot, slash)
    other = await slash.click(result, label="d6 source: 4", **player(slash, 2))
    refused(other, "attacker's owner or the GM")
    assert (await combat_state(bot, "Gob")).vitals.hp == 5
    by_gm = await slash.click(result, label="d6 source: 4", **gm(slash))
    assert "**4 damage**" in text(by_gm)
    assert (await combat_state(bot, "Gob")).vitals.hp == 8
    await dpytest.empty_queue()


async def test_no_switch_once_the_target_changed(bot: TableBot, slash: SlashHarness) -> None:
    result = await roll_on_gob(bot, slash)
    await slash.run("hp", target="Gob", change="+2", **gm(slash))
    late = await slash.click(result, label="d10 source: 4", **player(slash))
    refused(late, "changed since this hit")
    assert (await combat_state(bot, "Gob")).vitals.hp == 7
    await dpytest.empty_queue()


async def test_no_switch_after_fifteen_minutes(bot: TableBot, slash: SlashHarness) -> None:
    result = await roll_on_gob(bot, slash)
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE damage_choices SET expires_at = '2000-01-01T00:00:00.000000Z'")
    late = await slash.click(result, label="d10 source: 4", **player(slash))
    refused(late, "15 minutes")
    assert (await combat_state(bot, "Gob")).vitals.hp == 5
    await dpytest.empty_queue()


async def test_the_kept_die_is_disabled_and_refused_anyway(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await roll_on_gob(bot, slash)
    with pytest.raises(DiscordWouldRefuse):
        await slash.click(result, label="d8 source: 7", **player(slash))
    forced = await slash.click(result, label="d8 source: 7", client_checks=False, **player(slash))
    refused(forced, "already the one kept")
    await dpytest.empty_queue()


async def test_switching_a_plain_roll_without_target(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 10, 3, 2)  # d10 10, d6 3; the kept d10 explodes: 2
    result = await slash.run("damage", dice="1d10 1d6", **player(slash))
    assert "10 + 2 = 12" in text(result) and "**12 damage**" in text(result)
    clicked = await slash.click(result, label="d6 source: 3", **player(slash))
    assert "**4 damage**" in text(clicked)  # 3 + 1 for the d10 at its maximum
    await dpytest.empty_queue()
