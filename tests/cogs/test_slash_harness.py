"""The slash harness itself: payloads, dispatch, recording, waiting, buttons, checks.

Throwaway commands are added to the test bot's tree here; none of them ship.
"""

from __future__ import annotations

import asyncio
import re

import discord
import discord.ext.test as dpytest
import pytest
from discord import app_commands

from bot.client import TableBot
from tests.support.slash import DiscordWouldRefuse, HarnessError, SlashHarness

MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def add_command(bot: TableBot, command: app_commands.Command) -> None:  # type: ignore[type-arg]
    bot.tree.add_command(command)


async def test_command_payload_has_discords_shape(bot: TableBot, slash: SlashHarness) -> None:
    role = slash.make_role("GM")
    result = await slash.run(
        "campaign set",
        user=slash.members[1],
        gm_role=role,
        ruleset="hocs",
        gm_channel=slash.channel,
        manage_guild=True,
    )
    payload = result.interaction
    assert payload["type"] == 2
    assert payload["application_id"] == str(bot.application_id)
    assert payload["token"] and payload["id"].isdigit()
    assert payload["guild_id"] == str(slash.guild.id)
    assert payload["member"]["user"]["id"] == str(slash.members[1].id)
    assert int(payload["member"]["permissions"]) & MANAGE_GUILD
    data = payload["data"]
    assert data["name"] == "campaign" and data["type"] == 1
    [sub] = data["options"]
    assert (sub["type"], sub["name"]) == (1, "set")
    types = {option["name"]: (option["type"], option["value"]) for option in sub["options"]}
    assert types == {
        "gm_role": (8, str(role.id)),
        "ruleset": (3, "hocs"),
        "gm_channel": (7, str(slash.channel.id)),
    }
    assert data["resolved"]["roles"][str(role.id)]["name"] == "GM"
    assert data["resolved"]["channels"][str(slash.channel.id)]["type"] == 0
    await dpytest.empty_queue()


async def test_without_manage_guild_the_permissions_string_lacks_it(slash: SlashHarness) -> None:
    result = await slash.run("campaign show", manage_guild=False)
    assert not int(result.interaction["member"]["permissions"]) & MANAGE_GUILD
    await dpytest.empty_queue()


async def test_option_types_and_member_resolution(bot: TableBot, slash: SlashHarness) -> None:
    seen: dict[str, object] = {}

    @app_commands.command(name="harness-types", description="test only")
    async def types(
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 6],
        loud: bool,
        who: discord.Member,
        note: str = "none",
    ) -> None:
        seen.update(count=count, loud=loud, who=who, note=note)
        await interaction.response.send_message("ok", ephemeral=True)

    add_command(bot, types)
    target = slash.members[2]
    result = await slash.run("harness-types", count=3, loud=True, who=target)
    assert seen == {"count": 3, "loud": True, "who": target, "note": "none"}
    assert isinstance(seen["who"], discord.Member)
    options = {o["name"]: o["type"] for o in result.interaction["data"]["options"]}
    assert options == {"count": 4, "loud": 5, "who": 6}
    assert str(target.id) in result.interaction["data"]["resolved"]["members"]
    assert result.content == "ok" and result.ephemeral

    # What Discord's client refuses never reaches the bot.
    with pytest.raises(DiscordWouldRefuse, match="maximum 6"):
        await slash.run("harness-types", count=9, loud=True, who=target)
    with pytest.raises(DiscordWouldRefuse, match="required"):
        await slash.run("harness-types", count=2, who=target)
    with pytest.raises(DiscordWouldRefuse, match="not an integer"):
        await slash.run("harness-types", count="2", loud=True, who=target)
    with pytest.raises(TypeError, match="no option"):
        await slash.run("harness-types", count=2, loud=True, who=target, colour="red")
    await dpytest.empty_queue()


async def test_defer_then_edit_and_followup_are_recorded_in_order(
    bot: TableBot, slash: SlashHarness
) -> None:
    originals: list[discord.InteractionMessage] = []

    @app_commands.command(name="harness-slow", description="test only")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        for _ in range(20):  # work that takes many turns of the loop: the harness waits
            await asyncio.sleep(0)
        await interaction.edit_original_response(content="first")
        originals.append(await interaction.original_response())
        sent = await interaction.followup.send("second", wait=True)
        assert sent.content == "second"

    add_command(bot, slow)
    result = await slash.run("harness-slow")
    assert [(r.kind, r.type) for r in result.responses] == [
        ("callback", 5),
        ("edit", None),
        ("followup", None),
    ]
    assert result.deferred
    assert result.responses[1].message is not None
    assert result.responses[1].message["content"] == "first"
    assert originals[0].content == "first"
    assert result.content == "second" and not result.ephemeral
    await dpytest.empty_queue()


class CounterView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.clicks = 0

    @discord.ui.button(label="Add one", custom_id="harness:add")
    async def add(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.clicks += 1
        await interaction.response.edit_message(content=f"clicks: {self.clicks}", view=self)

    @discord.ui.button(label="Off", custom_id="harness:off", disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise AssertionError("a disabled button can't be clicked")


async def test_buttons_on_a_response_dispatch_through_the_view(
    bot: TableBot, slash: SlashHarness
) -> None:
    view = CounterView()

    @app_commands.command(name="harness-view", description="test only")
    async def with_view(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("clicks: 0", view=view)

    add_command(bot, with_view)
    result = await slash.run("harness-view")
    assert result.custom_ids == ["harness:add", "harness:off"]
    assert result.components[0]["type"] == 1

    clicked = await slash.click(result, label="Add one", user=slash.members[1])
    assert clicked.interaction["type"] == 3
    assert clicked.interaction["data"] == {"custom_id": "harness:add", "component_type": 2}
    assert clicked.interaction["message"]["id"] == str(result.message.message_id)  # type: ignore[union-attr]
    assert [(r.kind, r.type) for r in clicked.responses] == [("callback", 7)]
    assert clicked.content == "clicks: 1"

    again = await slash.click(result, custom_id="harness:add")
    assert again.content == "clicks: 2" and view.clicks == 2
    with pytest.raises(DiscordWouldRefuse, match="disabled"):
        await slash.click(result, custom_id="harness:off")
    await dpytest.empty_queue()


async def test_ephemeral_buttons_only_for_their_user(bot: TableBot, slash: SlashHarness) -> None:
    @app_commands.command(name="harness-private", description="test only")
    async def private(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("yours", view=CounterView(), ephemeral=True)

    add_command(bot, private)
    result = await slash.run("harness-private", user=slash.members[0])
    with pytest.raises(DiscordWouldRefuse, match="ephemeral"):
        await slash.click(result, custom_id="harness:add", user=slash.members[1])
    clicked = await slash.click(result, custom_id="harness:add", user=slash.members[0])
    assert clicked.content == "clicks: 1" and clicked.ephemeral
    await dpytest.empty_queue()


class PersistentView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="harness:join:42")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(
            f"joined 42 as {interaction.user.id}", ephemeral=True
        )


async def test_persistent_view_registered_with_add_view(bot: TableBot, slash: SlashHarness) -> None:
    bot.add_view(PersistentView())
    member = slash.members[2]
    # No message in hand: as after a restart, only the custom_id is known.
    result = await slash.click(custom_id="harness:join:42", user=member)
    assert result.content == f"joined 42 as {member.id}" and result.ephemeral
    await dpytest.empty_queue()


async def test_buttons_on_channel_messages_too(bot: TableBot, slash: SlashHarness) -> None:
    view = CounterView()

    @app_commands.command(name="harness-post", description="test only")
    async def post(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("board", view=view)
        await interaction.response.send_message("posted", ephemeral=True)

    add_command(bot, post)
    result = await slash.run("harness-post")
    [board] = result.channel_messages
    assert board.content == "board" and board.custom_ids == ["harness:add", "harness:off"]
    assert board.pings_nobody  # the client's default allowed_mentions applies
    assert dpytest.verify().message().content("board")
    clicked = await slash.click(board, label="Add one")
    assert clicked.content == "clicks: 1"
    await dpytest.empty_queue()


async def test_unexpected_exception_answers_with_an_error_code(
    bot: TableBot, slash: SlashHarness
) -> None:
    @app_commands.command(name="harness-crash", description="test only")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    add_command(bot, crash)
    result = await slash.run("harness-crash")
    assert result.ephemeral
    assert re.search(r"error code `[0-9A-F]{6}`", result.content or "")
    assert "boom" not in (result.content or "")
    result.assert_no_pings()
    await dpytest.empty_queue()


class Even(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: int) -> int:
        if value % 2:
            raise ValueError("odd")
        return value

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer


async def test_transformer_error_is_answered_ephemerally(
    bot: TableBot, slash: SlashHarness
) -> None:
    @app_commands.command(name="harness-even", description="test only")
    async def even(interaction: discord.Interaction, n: app_commands.Transform[int, Even]) -> None:
        await interaction.response.send_message(f"{n} is even")

    add_command(bot, even)
    assert (await slash.run("harness-even", n=4)).content == "4 is even"
    result = await slash.run("harness-even", n=3)
    assert result.ephemeral
    assert result.content == "`3` isn't a valid value there: pick one of the offered choices."
    await dpytest.empty_queue()


async def test_payloads_discord_would_refuse_fail_the_test(
    bot: TableBot, slash: SlashHarness
) -> None:
    @app_commands.command(name="harness-long", description="test only")
    async def long(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(title="x" * 300))

    add_command(bot, long)
    with pytest.raises(HarnessError, match="title"):
        await slash.run("harness-long")
    await dpytest.empty_queue()


async def test_autocomplete_returns_the_choices(slash: SlashHarness) -> None:
    choices = await slash.autocomplete("help", "command", "camp")
    assert {"name": "campaign show", "value": "campaign show"} in choices
    assert all("camp" in choice["name"] for choice in choices)
    await dpytest.empty_queue()


async def test_dms_send_a_user_and_guild_only_commands_are_hidden(
    bot: TableBot, slash: SlashHarness
) -> None:
    with pytest.raises(DiscordWouldRefuse, match="context"):
        await slash.run("campaign show", dm=True)
    result = await slash.run("campaign show", dm=True, client_checks=False)
    assert "member" not in result.interaction and "guild_id" not in result.interaction
    assert result.interaction["user"]["id"] == str(slash.members[0].id)
    assert result.ephemeral
    assert result.content == "That command only works in a server, where your campaign lives."
    help_result = await slash.run("help", dm=True)
    assert help_result.embeds[0]["title"] == "Commands"
    await dpytest.empty_queue()
