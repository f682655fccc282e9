"""What /campaign import refuses: hostile files, a press from elsewhere, the message
commands; each answer is one private sentence and the database is unchanged. Plus the
rulings /help and docs/campaign.md show for both commands."""

from __future__ import annotations

import json
from pathlib import Path

import discord.ext.test as dpytest
import pytest

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import dump
from bot.client import TableBot
from cogs.campaign_transfer import EXPORT_RULINGS, IMPORT_RULINGS
from tests.cogs.campaign_transfer_support import (
    GM,
    NOT_GM,
    attachment,
    empty_file,
    everything,
    refused,
    seed,
)
from tests.support.slash import AttachmentFile, SlashHarness

DOCS = Path(__file__).resolve().parents[2] / "docs" / "campaign.md"


async def hostile_files(bot: TableBot, slash: SlashHarness) -> dict[str, tuple[bytes, str]]:
    raw = dump(await export_campaign(bot.db, slash.guild.id))
    data = json.loads(raw)
    data["hocs"]["characters"][0]["sheet"]["strength"] = 9
    newer = dict(json.loads(raw), version=2)
    return {
        "not JSON": (
            b"name,strength\nAria,3\n",
            "The file is not valid JSON (line 1, column 1): it may be cut short; export it again.",
        ),
        "truncated": (
            raw[: len(raw) // 2],
            "The file is not valid JSON (line 1, column {}): it may be cut short; export it again.",
        ),
        "not text": (
            b"\x89PNG\r\n\x1a\n\x00\x00",
            "The file is not UTF-8 text, so not a campaign file: export one with /campaign export.",
        ),
        "bad field": (
            json.dumps(data).encode(),
            "The file was not imported: hocs.characters[0].sheet.strength: must be at most 5.",
        ),
        "newer": (
            json.dumps(newer).encode(),
            "The file is format version 2, newer than the 1 this bot reads: update the bot,"
            " then import it.",
        ),
        "not a campaign": (
            b'{"format": "something-else", "version": 1}',
            'This is not a campaign file (its "format" must be "tablebot-campaign"): export'
            " one with /campaign export.",
        ),
    }


@pytest.mark.parametrize("has_data", [True, False], ids=["server with data", "empty server"])
async def test_a_hostile_file_is_one_private_sentence_and_writes_nothing(
    bot: TableBot, slash: SlashHarness, has_data: bool
) -> None:
    await seed(bot, slash)
    files = await hostile_files(bot, slash)
    if not has_data:
        await slash.run("campaign import", file=attachment(empty_file()), **GM)
        await slash.click(custom_id=_last_button(slash), **GM)
    before = await everything(bot.db)
    for name, (raw, said) in files.items():
        result = await slash.run("campaign import", file=attachment(raw), **GM)
        if "{}" in said:  # (where the cut falls)
            assert result.content is not None
            column = result.content.split("column ")[1].split(")")[0]
            said = said.format(column)
        refused(result, said)
        assert await everything(bot.db) == before, name
    await dpytest.empty_queue()


def _last_button(slash: SlashHarness) -> str:
    return [r for r in slash.responses if r.custom_ids][-1].custom_ids[0]


async def test_a_file_too_big_is_refused_before_it_is_downloaded(
    bot: TableBot, slash: SlashHarness
) -> None:
    await seed(bot, slash)
    before = await everything(bot.db)
    huge = AttachmentFile("campaign.json", b" " * (10 * 2**20 + 1))
    result = await slash.run("campaign import", file=huge, **GM)
    refused(
        result,
        "The file is 10.0 MiB, over the 10 MiB a campaign file may be: export it again with"
        " log:False.",
    )
    assert not result.deferred and slash.cdn.downloads == []
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


async def test_a_player_may_not_import(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    before = await everything(bot.db)
    result = await slash.run(
        "campaign import", file=attachment(empty_file()), user=slash.members[1],
        manage_guild=False,
    )  # fmt: skip
    refused(result, NOT_GM.format("import a campaign"))
    assert slash.cdn.downloads == []
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


async def test_a_file_discord_no_longer_has_is_one_sentence(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seed(bot, slash)
    before = await everything(bot.db)
    monkeypatch.setattr(slash.cdn, "upload", lambda described, data: None)  # (a 404 then)
    result = await slash.run("campaign import", file=attachment(empty_file()), **GM)
    assert slash.cdn.downloads
    refused(result, "Discord didn't hand me the file: upload it again with /campaign import.")
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


async def test_a_press_for_another_server_is_refused(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    await slash.run("campaign import", file=attachment(empty_file()), **GM)
    pending = _last_button(slash).rsplit(":", 1)[1]
    before = await everything(bot.db)
    result = await slash.click(custom_id=f"campaign:import:{slash.guild.id + 1}:{pending}", **GM)
    refused(result, "That command only works in a server, where your campaign lives.")
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


async def test_the_message_commands_send_people_to_the_slash_ones(
    bot: TableBot, slash: SlashHarness, tmp_path: Path
) -> None:
    await seed(bot, slash)
    before = await everything(bot.db)
    admin = slash.members[0]
    await dpytest.message("!campaign export", member=admin)
    assert (
        dpytest.verify()
        .message()
        .content(
            "Use the slash command /campaign export: its answer is private, a channel's"
            " message isn't."
        )
    )
    upload = tmp_path / "campaign.json"
    upload.write_bytes(empty_file())
    await dpytest.message("!campaign import", member=admin, attachments=[upload])
    assert (
        dpytest.verify()
        .message()
        .content(
            "Use the slash command /campaign import: its answer is private, a channel's"
            " message isn't."
        )
    )
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("command", "rulings"),
    [("campaign export", EXPORT_RULINGS), ("campaign import", IMPORT_RULINGS)],
)
async def test_help_and_the_docs_show_the_rulings(
    slash: SlashHarness, command: str, rulings: list[str]
) -> None:
    shown = (await slash.run("help", command=command)).field("Rulings")
    docs = " ".join(DOCS.read_text(encoding="utf-8").split())
    for ruling in rulings:
        assert ruling in shown
        assert ruling in docs, ruling
    await dpytest.empty_queue()
