"""The slash harness's files: an attachment option as Discord sends it, its bytes served
to ``Attachment.read()``, and the files a bot's answer carries. A throwaway command is
added to the test bot's tree; it does not ship."""

from __future__ import annotations

import io

import discord
import discord.ext.test as dpytest
import pytest
from discord import app_commands

from bot.client import TableBot
from tests.support.slash import AttachmentFile, DiscordWouldRefuse, SlashHarness


def add_echo(bot: TableBot) -> None:
    @app_commands.command(name="echo-file", description="Send a file back")
    async def echo_file(interaction: discord.Interaction, upload: discord.Attachment) -> None:
        data = await upload.read()
        cached = await upload.read(use_cached=True)
        text = f"{upload.filename} {upload.size} {upload.content_type} {data == cached}"
        back = discord.File(fp=io.BytesIO(data[::-1]), filename="back.bin")
        await interaction.response.send_message(text, file=back, ephemeral=True)

    bot.tree.add_command(echo_file)


async def test_an_attachment_option_is_sent_as_discord_does(
    bot: TableBot, slash: SlashHarness
) -> None:
    add_echo(bot)
    result = await slash.run("echo-file", upload=AttachmentFile("notes.txt", b"abc", "text/plain"))
    [option] = result.interaction["data"]["options"]
    assert option["type"] == 11 and option["name"] == "upload"
    described = result.interaction["data"]["resolved"]["attachments"][option["value"]]
    assert described["filename"] == "notes.txt" and described["size"] == 3
    assert described["content_type"] == "text/plain"
    assert described["url"].startswith("https://cdn.discordapp.com/ephemeral-attachments/")
    assert described["proxy_url"].startswith("https://media.discordapp.net/")
    assert result.content == "notes.txt 3 text/plain True"
    assert slash.cdn.downloads == [described["url"], described["proxy_url"]]
    assert result.uploads == {"back.bin": b"cba"} and result.message.files == ["back.bin"]  # type: ignore[union-attr]
    [sent] = result.message.message["attachments"]  # type: ignore[union-attr,index]
    assert (sent["filename"], sent["size"]) == ("back.bin", 3)  # as Discord answers
    assert result.ephemeral
    await dpytest.empty_queue()


async def test_only_a_file_goes_in_an_attachment_option(bot: TableBot, slash: SlashHarness) -> None:
    add_echo(bot)
    with pytest.raises(DiscordWouldRefuse, match="not a file"):
        await slash.run("echo-file", upload=b"abc")
    with pytest.raises(DiscordWouldRefuse, match="required"):
        await slash.run("echo-file")
    await dpytest.empty_queue()
