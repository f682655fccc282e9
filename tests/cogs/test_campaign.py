"""/campaign show and /campaign set: slash path (harness) and prefix path (dpytest)."""

from __future__ import annotations

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.campaigns import Campaign, CampaignRepository, Ruleset
from tests.support.slash import DiscordWouldRefuse, SlashHarness, SlashResult

NOT_GM = (
    "Only the GM can change the campaign: ask someone with Manage Server or the campaign's GM role."
)


async def stored(bot: TableBot, guild: discord.Guild) -> Campaign | None:
    async with bot.db.read() as conn:
        return await CampaignRepository(conn).get(guild.id)


def one_sentence(text: str | None) -> bool:
    assert text is not None
    body = text.rstrip(".!")
    return text.endswith(".") and ". " not in body and "\n" not in text


def refused(result: SlashResult, text: str) -> None:
    assert result.ephemeral
    assert result.content == text
    assert one_sentence(result.content)
    assert not result.embeds


async def test_show_creates_the_default_campaign(bot: TableBot, slash: SlashHarness) -> None:
    assert await stored(bot, slash.guild) is None
    result = await slash.run("campaign show")
    campaign = await stored(bot, slash.guild)
    assert campaign is not None
    assert (campaign.ruleset, campaign.gm_role_id, campaign.gm_channel_id) == (
        Ruleset.HOCS,
        None,
        None,
    )
    assert not result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == f"Campaign of {slash.guild.name}"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Ruleset"] == "Heroes of Countless Stories"
    assert fields["GM role"] == "none (Manage Server only)"
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_set_by_a_non_gm_is_refused_and_writes_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("GM")
    result = await slash.run("campaign set", gm_role=role, manage_guild=False)
    refused(result, NOT_GM)
    campaign = await stored(bot, slash.guild)
    assert campaign is None or campaign.gm_role_id is None
    await dpytest.empty_queue()


async def test_manage_server_sets_the_gm_role_then_that_role_is_gm(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("GM")
    owner, player = slash.members[0], slash.members[1]
    result = await slash.run("campaign set", user=owner, gm_role=role, manage_guild=True)
    assert result.content == "Campaign updated." and not result.ephemeral
    fields = {f["name"]: f["value"] for f in result.embeds[0]["fields"]}
    assert fields["GM role"] == role.mention
    result.assert_no_pings()  # the embed names the role: it must not ping it
    campaign = await stored(bot, slash.guild)
    assert campaign is not None and campaign.gm_role_id == role.id

    # Without the role the player is refused; with it (no Manage Server) accepted.
    refused(await slash.run("campaign set", user=player, gm_channel=slash.channel), NOT_GM)
    await dpytest.add_role(player, role)
    accepted = await slash.run(
        "campaign set", user=player, gm_channel=slash.channel, manage_guild=False
    )
    assert accepted.content == "Campaign updated."
    campaign = await stored(bot, slash.guild)
    assert campaign is not None and campaign.gm_channel_id == slash.channel.id

    cleared = await slash.run("campaign set", user=player, clear="gm_channel")
    assert cleared.content == "Campaign updated."
    campaign = await stored(bot, slash.guild)
    assert campaign is not None and campaign.gm_channel_id is None
    await dpytest.empty_queue()


async def test_a_role_given_for_one_interaction_counts(bot: TableBot, slash: SlashHarness) -> None:
    role = slash.make_role("GM")
    await slash.run("campaign set", gm_role=role, manage_guild=True)
    player = slash.members[2]
    result = await slash.run("campaign set", user=player, roles=[role], ruleset="hocs")
    assert result.content == "Campaign updated."
    await dpytest.empty_queue()


async def test_user_mistakes_are_answered_privately(bot: TableBot, slash: SlashHarness) -> None:
    everyone = slash.guild.default_role
    refused(
        await slash.run("campaign set", gm_role=everyone, manage_guild=True),
        "@everyone can't be the GM role: pick a role only GMs have.",
    )
    refused(
        await slash.run("campaign set", manage_guild=True),
        "Nothing to change: give a GM role, ruleset, GM channel or clear.",
    )
    role = slash.make_role("GM")
    refused(
        await slash.run("campaign set", gm_role=role, clear="gm_role", manage_guild=True),
        "You both set and cleared gm_role: do one or the other.",
    )
    campaign = await stored(bot, slash.guild)
    assert campaign is None or campaign.gm_role_id is None
    await dpytest.empty_queue()


async def test_choices_are_enforced_by_discord(bot: TableBot, slash: SlashHarness) -> None:
    with pytest.raises(DiscordWouldRefuse, match="choices"):
        await slash.run("campaign set", ruleset="dnd5e", manage_guild=True)
    with pytest.raises(DiscordWouldRefuse, match="choices"):
        await slash.run("campaign set", clear="everything", manage_guild=True)
    # Should a forged payload get through anyway, the command tree refuses it privately
    # before the command runs (bot.interactions.option_check), and nothing is written.
    result = await slash.run(
        "campaign set", ruleset="dnd5e", manage_guild=True, client_checks=False
    )
    refused(
        result, "`dnd5e` isn't one of the offered choices for `ruleset`: pick one from the list."
    )
    result = await slash.run(
        "campaign set", clear="everything", manage_guild=True, client_checks=False
    )
    refused(
        result, "`everything` isn't one of the offered choices for `clear`: pick one from the list."
    )
    campaign = await stored(bot, slash.guild)
    assert campaign is None or campaign.ruleset is Ruleset.HOCS
    await dpytest.empty_queue()


async def test_campaign_in_dms_is_refused(slash: SlashHarness) -> None:
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("campaign set", dm=True, ruleset="hocs")
    result = await slash.run("campaign set", dm=True, ruleset="hocs", client_checks=False)
    refused(result, "That command only works in a server, where your campaign lives.")
    await dpytest.empty_queue()


# --- prefix path --------------------------------------------------------------------------


async def test_prefix_campaign_shows_the_campaign(bot: TableBot, slash: SlashHarness) -> None:
    await dpytest.message("!campaign")
    embed = dpytest.get_embed()
    assert embed.title == f"Campaign of {slash.guild.name}"
    assert await stored(bot, slash.guild) is not None
    assert slash.channel_sends and all(sent.pings_nobody for sent in slash.channel_sends)
    await dpytest.empty_queue()


async def test_prefix_set_by_non_gm_then_by_manage_server(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("GM")
    player, admin = slash.members[0], slash.members[1]
    await dpytest.message(f"!campaign set {role.mention}", member=player)
    assert dpytest.verify().message().content(NOT_GM)
    campaign = await stored(bot, slash.guild)
    assert campaign is None or campaign.gm_role_id is None

    managers = slash.make_role("Managers", permissions=discord.Permissions(manage_guild=True))
    await dpytest.add_role(admin, managers)
    await dpytest.message(f"!campaign set {role.mention}", member=admin)
    message = dpytest.get_message()
    assert message.content == "Campaign updated."
    campaign = await stored(bot, slash.guild)
    assert campaign is not None and campaign.gm_role_id == role.id

    await dpytest.add_role(player, role)
    await dpytest.message("!campaign set hocs", member=player)
    assert dpytest.get_message().content == "Campaign updated."
    # Every reply, including the one naming the role, pings nobody.
    assert len(slash.channel_sends) == 3
    for sent in slash.channel_sends:
        assert sent.pings_nobody, sent.allowed_mentions
    await dpytest.empty_queue()


async def test_prefix_user_mistake_is_one_sentence_reply(
    bot: TableBot, slash: SlashHarness
) -> None:
    await dpytest.message("!campaign set")
    message = dpytest.get_message()
    assert message.content == "Nothing to change: give a GM role, ruleset, GM channel or clear."
    assert one_sentence(message.content)
    assert all(sent.pings_nobody for sent in slash.channel_sends)
    await dpytest.empty_queue()
