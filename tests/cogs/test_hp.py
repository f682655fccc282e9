"""/hp: the GM's manual hit point adjustments."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.hocs.conditions import Condition
from tests.cogs.test_combat_helpers import combat_state, gm, npc, pc, player, refused, text
from tests.support.slash import SlashHarness


async def test_gm_heals_takes_away_and_sets(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Gob")  # 12 HP
    lost = await slash.run("hp", target="Gob", change="-5", **gm(slash))
    assert "Lost 5: 12/12 HP → **7/12 HP**" in text(lost) and not lost.ephemeral
    temp = await slash.run("hp", target="Gob", change="temp 4", **gm(slash))
    assert "**7/12 HP (+4 temp)**" in text(temp)
    healed = await slash.run("hp", target="Gob", change="+20", **gm(slash))
    assert "**12/12 HP (+4 temp)**" in text(healed)
    down = await slash.run("hp", target="Gob", change="set -3", **gm(slash))
    assert "0 HP or below" in text(down)
    beyond = await slash.run("hp", target="Gob", change="-5", **gm(slash))
    assert "beyond the threshold" in text(beyond)
    state = await combat_state(bot, "Gob")
    assert (state.vitals.hp, state.vitals.temp_hp) == (-8, 4)
    await dpytest.empty_queue()


async def test_healing_to_one_clears_staggered(bot: TableBot, slash: SlashHarness) -> None:
    await npc(slash, "Gob")
    await slash.run("hp", target="Gob", change="set 0", **gm(slash))
    await slash.run("condition add", target="Gob", condition="staggered", **gm(slash))
    await slash.run("hp", target="Gob", change="+1", **gm(slash))
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == 1 and Condition.STAGGERED not in state.vitals.conditions
    await dpytest.empty_queue()


async def test_a_player_cannot_use_hp(bot: TableBot, slash: SlashHarness) -> None:
    await pc(slash, "Bram")
    result = await slash.run("hp", target="Bram", change="+5", **player(slash))
    refused(result, "Only the GM")
    assert (await combat_state(bot, "Bram")).vitals.hp == 12
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("change", "words"),
    [("5", "+5 to heal"), ("heal lots", "+5 to heal"), ("temp -2", "can't be negative"),
     ("set 40", "maximum is 12"), ("-5000", "at most 999"), ("+1000", "at most 999")],
)  # fmt: skip
async def test_bad_changes_are_refused(
    bot: TableBot, slash: SlashHarness, change: str, words: str
) -> None:
    await npc(slash, "Gob")
    refused(await slash.run("hp", target="Gob", change=change, **gm(slash)), words)
    assert (await combat_state(bot, "Gob")).vitals.hp == 12
    await dpytest.empty_queue()


async def test_unknown_target(bot: TableBot, slash: SlashHarness) -> None:
    refused(await slash.run("hp", target="Nobody", change="+1", **gm(slash)), "no character called")
    await dpytest.empty_queue()
