"""A played campaign in the slash harness's server, for the /campaign export and import
tests: the campaign-file builders' campaign (tests/campaign_file/builders.py), moved in
through the import API so its fights run in the harness's channel."""

from __future__ import annotations

import json
from typing import Any

from bot.campaign_file.format import CampaignFile, dump
from bot.campaign_file.importing import Destination, import_campaign, read_campaign_file
from bot.client import TableBot
from tests.campaign_file.test_import import STAMP, everything, played
from tests.support.slash import AttachmentFile, SlashHarness, SlashResult

__all__ = ["STAMP", "everything"]

NOT_GM = "Only the GM can {}: ask someone with Manage Server or the campaign's GM role."
GM = {"manage_guild": True}


def here(slash: SlashHarness) -> Destination:
    guild = slash.guild
    return Destination(
        channel_id=slash.channel.id,
        channels=frozenset(c.id for c in guild.channels),
        roles=frozenset(r.id for r in guild.roles),
    )


async def seed(bot: TableBot, slash: SlashHarness) -> None:
    """The played campaign (2d10, characters in both rulesets, sessions, a log, a
    running fight of each ruleset) as the harness server's campaign."""
    file = read_campaign_file(await played(bot.db))
    await import_campaign(bot.db, slash.guild.id, file, destination=here(slash))
    await bot.ruleset_switched(slash.guild.id)
    # The GM's first command here: the bot remembers them as GM (bot.tables.permissions),
    # which a test comparing the tables before and after must not count.
    await slash.run("campaign show", **GM)


def empty_file(ruleset: str = "hocs") -> bytes:
    return dump(CampaignFile(ruleset=ruleset, exported_at=STAMP))


def attachment(raw: bytes, name: str = "campaign.json") -> AttachmentFile:
    return AttachmentFile(name, raw)


def the_file(result: SlashResult) -> tuple[str, bytes]:
    [(name, raw)] = result.uploads.items()
    return name, raw


def without_stamp(raw: bytes) -> dict[str, Any]:
    data = json.loads(raw)
    data.pop("exported_at")
    return data


def one_sentence(text: str | None) -> bool:
    assert text is not None
    body = text.rstrip(".!")
    return text.endswith(".") and ". " not in body and "\n" not in text


def refused(result: SlashResult, text: str) -> None:
    assert result.ephemeral, result.content
    assert result.content == text
    assert one_sentence(result.content), text
    assert not result.uploads and not result.components
