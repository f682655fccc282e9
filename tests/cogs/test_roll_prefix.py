"""/roll on the message path (dpytest): `!roll`, `!r`, mention prefix, abuse."""

from __future__ import annotations

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import RollLogRepository


def pings_nobody(allowed_mentions: dict[str, object]) -> bool:
    return allowed_mentions.get("parse") == [] and not allowed_mentions.get("replied_user")


async def last_reply(bot: TableBot) -> discord.Message:
    message = dpytest.get_message()
    assert pings_nobody(bot.sent_payloads[-1]["allowed_mentions"])
    return message


async def test_bang_roll_shows_dice_and_total(bot: TableBot) -> None:
    bot.dice = ScriptedDice([3, 20])
    await dpytest.message("!roll 2d20kh1+5 attack")
    reply = await last_reply(bot)
    assert "~~3~~" in reply.content  # dropped die struck through
    assert "**20**" in reply.content  # maximum face in bold
    assert reply.content.endswith("= **25**")
    assert "attack" in reply.content


async def test_short_alias_and_leading_number(bot: TableBot) -> None:
    # "1" must not be swallowed as the secret flag on the message path.
    bot.dice = ScriptedDice([4])
    await dpytest.message("!r 1 + 1d6")
    reply = await last_reply(bot)
    assert reply.content.endswith("= **5**")


async def test_mention_prefix_works(bot: TableBot) -> None:
    bot.dice = ScriptedDice([6])
    await dpytest.message(f"<@{bot.user.id}> roll 1d6")
    reply = await last_reply(bot)
    assert reply.content.endswith("= **6**")


async def test_roll_is_logged_with_full_result(bot: TableBot) -> None:
    bot.dice = ScriptedDice([2, 5, 6, 1])
    await dpytest.message("!roll 4d6kh3 stats")
    dpytest.get_message()
    async with bot.db.read() as conn:
        (logged,) = await RollLogRepository(conn).recent(bot.guilds[0].id)
    assert logged.kind == "roll"
    assert logged.total == 13
    assert logged.expression.endswith("stats")
    assert not logged.secret
    assert "dice" in str(logged.result) or logged.result


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("10000d10000", "at most 100"),
        ("1d99999999", "1000"),
        ("(" * 50 + "1" + ")" * 50, "bracket"),
        ("@everyone 1d6", "dice"),
        ("1d1e1", "forever"),
    ],
)
async def test_abusive_expressions_get_one_sentence(
    bot: TableBot, expression: str, expected: str
) -> None:
    await dpytest.message(f"!roll {expression}")
    reply = await last_reply(bot)
    assert expected.lower() in reply.content.lower()
    assert "@everyone" not in reply.content or "@\u200beveryone" in reply.content
    assert "error code" not in reply.content
    async with bot.db.read() as conn:
        assert await RollLogRepository(conn).recent(bot.guilds[0].id) == []


async def test_overlong_expression_on_message_path(bot: TableBot) -> None:
    await dpytest.message("!roll " + "+".join(["1"] * 2000))
    reply = await last_reply(bot)
    assert "at most 200 characters" in reply.content


async def test_empty_expression(bot: TableBot) -> None:
    await dpytest.message("!roll")
    reply = await last_reply(bot)
    assert "missing" in reply.content


async def test_label_cannot_ping(bot: TableBot) -> None:
    bot.dice = ScriptedDice([3])
    await dpytest.message("!roll 1d6 @everyone look")
    reply = await last_reply(bot)
    assert "@everyone" not in reply.content
    assert reply.content.endswith("= **3**") or "**3**" in reply.content
