"""/character on the message path (dpytest) and a new player's first session."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_character_helpers import assert_refused, create, fields, stored
from tests.support.slash import SlashHarness


def pings_nobody(allowed_mentions: dict[str, object]) -> bool:
    return allowed_mentions.get("parse") == [] and not allowed_mentions.get("replied_user")


async def test_prefix_create_then_show(bot: TableBot) -> None:
    await dpytest.message("!character create Mira 3 2 2 1")
    created = dpytest.get_message()
    assert created.content == "Created **Mira**. It is now your active character."
    assert pings_nobody(bot.sent_payloads[-1]["allowed_mentions"])
    await dpytest.message("!character show")
    shown = dpytest.get_message()
    embed = shown.embeds[0].to_dict()
    values = {f["name"]: f["value"] for f in embed["fields"]}
    assert embed["title"] == "Mira"
    assert values["Hit points"] == "12/12"
    assert values["Attributes"].startswith("STR 3 (1d8)")
    await dpytest.message("!character show Nobody")
    assert "no character called Nobody" in dpytest.get_message().content
    await dpytest.empty_queue()


async def test_prefix_bounds_and_hostile_name(bot: TableBot) -> None:
    await dpytest.message("!character create Mira 9 2 2 1")
    assert "at most 5" in dpytest.get_message().content
    await dpytest.message(f"!character create {'x' * 70} 1 1 1 1")
    assert "at most 64 characters" in dpytest.get_message().content
    await dpytest.message("!character create @everyone 1 1 1 1")
    reply = dpytest.get_message()
    assert "@\u200beveryone" in reply.content
    assert pings_nobody(bot.sent_payloads[-1]["allowed_mentions"])
    assert await stored(bot, "@everyone") is not None
    await dpytest.empty_queue()


async def test_new_player_flow(bot: TableBot, slash: SlashHarness) -> None:
    veteran, newcomer = slash.members[0], slash.members[1]
    await create(slash, "Oskar", user=veteran)
    # The newcomer creates a character, looks at it, trains a skill, adds traits.
    created = await create(slash, "Lia", user=newcomer, strength=2, agility=3, mind=1, presence=2)
    assert "now your active character" in created.content
    sheet = fields(await slash.run("character show", user=newcomer))
    assert sheet["Hit points"] == "10/10" and sheet["Determination"] == "3/3"
    trained = await slash.run("character skill", user=newcomer, skill="Stealth", training=1)
    assert "• Stealth skill value: 3 → 4" in trained.content
    await slash.run("character trait add", user=newcomer, trait="curious")
    # Then tries to change the veteran's sheet: refused, privately, nothing written.
    before = await stored(bot, "Oskar")
    refused = await slash.run(
        "character edit", user=newcomer, name="Oskar", strength=1, manage_guild=False
    )
    assert_refused(refused, "Oskar isn't yours")
    gone = await slash.run(
        "character delete", user=newcomer, name="Oskar", confirm=True, manage_guild=False
    )
    assert_refused(gone, "Oskar isn't yours")
    assert await stored(bot, "Oskar") == before
    # Viewing it is fine: sheets are table knowledge.
    seen = await slash.run("character show", user=newcomer, name="Oskar")
    assert seen.embeds[0]["title"] == "Oskar" and not seen.ephemeral
    await dpytest.empty_queue()
