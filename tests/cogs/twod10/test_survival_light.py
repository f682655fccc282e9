"""/light and /explore in a 2d10 guild: the secret burn time reaches the GM only, the
party is warned before a light fails, drops and relights with scripted dice."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, text
from tests.support.slash import SlashHarness, SlashResult


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    slash.guild.owner_id = slash.members[0].id  # the GM gets secret rolls by DM
    assert not (await create(slash, "Brann")).ephemeral


def public(slash: SlashHarness, result: SlashResult) -> str:
    """What the channel (the players) sees of a command: its reply unless private."""
    sent = [m.payload.get("content") or "" for m in result.channel_messages
            if m.channel_id == slash.channel.id]  # fmt: skip
    return "\n".join([*sent, "" if result.ephemeral else text(result)])


def to_gm(slash: SlashHarness, result: SlashResult) -> str:
    return "\n".join(m.payload.get("content") or "" for m in result.channel_messages
                     if m.channel_id != slash.channel.id)  # fmt: skip


async def test_torch_burns_out_after_its_secret_turns_with_a_warning(
    bot: TableBot, slash: SlashHarness
) -> None:
    bot.dice = ScriptedDice([6, 2])  # 2d6 keep the highest: 6 turns
    added = await slash.run("light add", kind="torch", character="Brann", **player(slash))
    assert "Brann lights a torch (#1)" in public(slash, added)
    assert "2d6 [6, 2], highest **6** turns" in to_gm(slash, added)
    seen = [public(slash, added)]
    first = await slash.run("explore", turns=4, **gm(slash))
    assert "2 turns left" in to_gm(slash, first) and "gutters" not in public(slash, first)
    second = await slash.run("explore", turns=1, **gm(slash))
    assert "Brann's #1: The torch gutters: it is about to go out." in public(slash, second)
    listed = await slash.run("light list", **player(slash))
    assert "Brann's torch (#1): lit; the torch gutters" in public(slash, listed)
    gm_list = await slash.run("light list", **gm(slash))
    assert gm_list.ephemeral and "1 turn left" in text(gm_list)
    third = await slash.run("explore", **gm(slash))
    assert "The torch has gone out." in public(slash, third)
    seen += [public(slash, r) for r in (first, second, listed, third)]
    # The secret number and any count of turns left never reach the players.
    for shown in seen:
        assert "6" not in shown and "[6, 2]" not in shown
        assert "turn left" not in shown and "turns left" not in shown
    refused(await slash.run("light relight", character="Brann", **player(slash)),
            "A burned-out torch is spent")  # fmt: skip
    await dpytest.empty_queue()


async def test_lantern_drop_and_oil(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([3, 7, 5, 1, 8, 2, 4])
    added = await slash.run("light add", kind="lantern", **player(slash))
    assert "3d8 [3, 7, 5], highest **7** turns" in to_gm(slash, added)
    dropped = await slash.run("light drop", **player(slash))
    assert "d12 shows 1, it goes out" in public(slash, dropped)
    relit = await slash.run("light relight", **player(slash))
    assert "Brann relights the lantern (#1)." in public(slash, relit)
    assert to_gm(slash, relit) == ""  # a dropped light keeps its time: nothing new rolled
    await slash.run("explore", turns=7, **gm(slash))
    refused(await slash.run("light relight", **player(slash)), "needs a unit of oil")
    # Oil is counted: none carried, none spent, the lantern stays out.
    refused(await slash.run("light relight", oil=True, **player(slash)),
            "Brann has no oil: the GM sets it with /light oil.")  # fmt: skip
    refused(await slash.run("light oil", units=2, **player(slash)), "Only the GM")
    stocked = await slash.run("light oil", units=2, character="Brann", **gm(slash))
    assert text(stocked) == "Brann has 2 units of oil."
    oiled = await slash.run("light relight", oil=True, **player(slash))
    assert "Brann relights the lantern (#1) with a unit of oil (1 left)." in public(slash, oiled)
    assert "3d8 [8, 2, 4], highest **8** turns" in to_gm(slash, oiled)
    assert text(await slash.run("light oil", **player(slash))) == "Brann has 1 unit of oil."


async def test_only_the_gm_explores_and_players_light_only_their_own(
    bot: TableBot, slash: SlashHarness
) -> None:
    refused(await slash.run("explore", **player(slash)), "GM")
    refused(await slash.run("light add", kind="torch", character="Brann", **player(slash, 2)),
            "isn't yours")  # fmt: skip
    refused(await slash.run("light drop", **player(slash)), "There is no lit light")
