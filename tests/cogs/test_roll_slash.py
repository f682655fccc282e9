"""/roll through the slash harness: display, limits, secret delivery, the roll log."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.campaigns import CampaignRepository
from bot.storage.roll_log import RollLogRepository
from tests.support.slash import DiscordWouldRefuse, SlashHarness

ABUSIVE = {
    "10000d10000": "That roll asks for 10000 dice; roll at most 100 at once.",
    "1d99999999": "A die needs between 1 and 1000 sides",
    # Past the declared 200 characters: the command tree refuses before /roll runs.
    "(" * 500 + "1" + ")" * 500: "`expression` must be at most 200 characters",
    "+".join(["1"] * 2000): "`expression` must be at most 200 characters",
    "@everyone 1d6": "Start with the dice or a number",
    "1d1e1": "would explode forever",
    "100d6e6": "more than 100 dice",
}


async def log_rows(bot: TableBot) -> list:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).recent(bot.guilds[0].id)


async def test_roll_shows_every_die_and_total(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([1, 4, 6, 3])
    result = await slash.run("roll", expression="4d6kh3 stats")
    assert not result.ephemeral
    content = result.content
    assert "~~**1**~~" in content or "~~1~~" in content  # dropped minimum struck through
    assert "**6**" in content
    assert content.endswith("= **13**")
    assert "stats" in content
    result.assert_no_pings()
    (logged,) = await log_rows(bot)
    assert logged.total == 13 and logged.kind == "roll" and not logged.secret
    await dpytest.empty_queue()


@pytest.mark.parametrize("expression", list(ABUSIVE))
async def test_abusive_expressions_answer_privately(
    bot: TableBot, slash: SlashHarness, expression: str
) -> None:
    result = await slash.run("roll", expression=expression, client_checks=False)
    assert result.ephemeral
    assert ABUSIVE[expression] in result.content
    assert "error code" not in result.content
    result.assert_no_pings()
    assert await log_rows(bot) == []
    await dpytest.empty_queue()


async def test_discord_itself_refuses_overlong_and_empty(slash: SlashHarness) -> None:
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("roll", expression="1" * 201)
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("roll", expression="")
    await dpytest.empty_queue()


async def test_empty_expression_forged_past_discord(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("roll", expression="", client_checks=False)
    assert result.ephemeral
    assert "error code" not in result.content
    await dpytest.empty_queue()


async def test_secret_roll_goes_to_gm_channel(bot: TableBot, slash: SlashHarness) -> None:
    gm_channel = slash.channel
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_channel_id=gm_channel.id)
    bot.dice = ScriptedDice([17])
    result = await slash.run("roll", expression="1d20 stealth", secret=True)
    assert result.ephemeral
    assert "= **17**" in result.content
    assert f"<#{gm_channel.id}>" in result.content
    gm_posts = [m for m in result.channel_messages if "Secret roll" in (m.content or "")]
    assert len(gm_posts) == 1 and "= **17**" in gm_posts[0].content
    (logged,) = await log_rows(bot)
    assert logged.secret
    await dpytest.empty_queue()


async def test_secret_roll_without_gm_channel_is_dmed(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([9])
    result = await slash.run("roll", expression="1d20", secret=True)
    assert result.ephemeral
    assert "= **9**" in result.content
    assert "Secret:" in result.content
    # The public channel never sees it.
    assert not [m for m in result.channel_messages if m.channel_id == slash.channel.id]
    await dpytest.empty_queue()


async def test_roll_in_direct_messages(bot: TableBot, slash: SlashHarness) -> None:
    bot.dice = ScriptedDice([5])
    result = await slash.run("roll", expression="1d6", dm=True)
    assert result.content.endswith("= **5**")
    async with bot.db.read() as conn:
        assert len(await RollLogRepository(conn).recent(None)) == 1
    await dpytest.empty_queue()
