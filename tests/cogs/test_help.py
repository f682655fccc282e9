"""/help through the slash harness and the prefix path."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.support.slash import SlashHarness


def field_values(embed: dict) -> str:
    return "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))


async def test_help_lists_every_command_privately(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("help")
    assert result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Commands"
    listing = field_values(embed)
    assert "`/campaign` export · import · set · show" in listing
    assert "`/help` — List the commands" in listing
    assert "`/roll` — " in listing
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_help_for_campaign_set_shows_options_and_rulings(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await slash.run("help", command="campaign set")
    assert result.ephemeral
    [embed] = result.embeds
    assert embed["title"].startswith("/campaign set")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    for option in ("gm_role", "ruleset", "gm_channel", "clear"):
        assert f"`{option}`" in fields["Options"]
    assert "hocs" in fields["Options"]  # the ruleset's choices
    assert "Manage Server or the campaign's GM role" in fields["Rulings"]
    await dpytest.empty_queue()


async def test_help_for_an_unknown_command_says_what_to_do(slash: SlashHarness) -> None:
    result = await slash.run("help", command="fireball")
    assert result.ephemeral and not result.embeds
    assert result.content == "I don't know that command: use `/help` alone to see them all."
    await dpytest.empty_queue()


async def test_help_autocomplete_offers_matching_commands(slash: SlashHarness) -> None:
    names = [choice["name"] for choice in await slash.autocomplete("help", "command", "CAMP")]
    assert names == ["campaign export", "campaign import", "campaign set", "campaign show"]
    assert await slash.autocomplete("help", "command", "zzz") == []
    await dpytest.empty_queue()


async def test_prefix_help_replies_without_pinging(bot: TableBot, slash: SlashHarness) -> None:
    await dpytest.message("!help")
    message = dpytest.get_message()
    assert message.embeds[0].title == "Commands"
    [sent] = slash.channel_sends
    assert sent.pings_nobody
    await dpytest.empty_queue()


async def test_prefix_help_for_one_command(bot: TableBot, slash: SlashHarness) -> None:
    await dpytest.message("!help campaign set")
    embed = dpytest.get_embed()
    assert embed.title is not None and embed.title.startswith("/campaign set")
    assert any(field.name == "Rulings" for field in embed.fields)
    assert all(sent.pings_nobody for sent in slash.channel_sends)
    await dpytest.empty_queue()


async def test_prefix_help_unknown_command_replies_with_the_user_error(
    bot: TableBot, slash: SlashHarness
) -> None:
    await dpytest.message("!help fireball")  # a user error: answered, not raised
    assert (
        dpytest.verify()
        .message()
        .content("I don't know that command: use `/help` alone to see them all.")
    )
    assert all(sent.pings_nobody for sent in slash.channel_sends)
    await dpytest.empty_queue()
