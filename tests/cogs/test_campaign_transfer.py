"""/campaign export and /campaign import through the slash harness: the file answered
privately, a round trip through Discord, and the confirm button of an import that
replaces a campaign."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import CampaignFile, dump
from bot.campaign_file.importing import campaign_has_data
from bot.client import TableBot
from bot.rulesets import Ruleset
from tests.cogs.campaign_transfer_support import (
    GM,
    NOT_GM,
    attachment,
    empty_file,
    everything,
    refused,
    seed,
    the_file,
    without_stamp,
)
from tests.support.slash import SlashHarness

SEEDED = (
    "The campaign file (the 2d10 system: 6 characters, 2 sessions, 3 logged rolls,"
    " 2 running fights)."
)
REPLACE = "Replace this server's campaign"


async def test_the_gm_gets_the_file_privately(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    result = await slash.run("campaign export", **GM)
    assert result.ephemeral and result.deferred
    assert result.message.kind == "edit"  # type: ignore[union-attr]  # (the "thinking…" one)
    assert result.content == SEEDED
    name, raw = the_file(result)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert name == f"campaign-{slash.guild.id}-{today}.json"
    sent = CampaignFile.model_validate_json(raw)
    assert sent.log is not None and len(sent.log) == 3
    assert sent == await export_campaign(bot.db, slash.guild.id, exported_at=sent.exported_at)
    assert raw == dump(sent)
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_log_false_leaves_the_log_out(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    result = await slash.run("campaign export", log=False, **GM)
    assert result.content == SEEDED.replace("3 logged rolls", "no roll log")
    sent = CampaignFile.model_validate_json(the_file(result)[1])
    assert sent.log is None
    assert all(s.log_start is None and s.log_end is None for s in sent.sessions)
    assert sent == await export_campaign(
        bot.db, slash.guild.id, log=False, exported_at=sent.exported_at
    )
    await dpytest.empty_queue()


async def test_a_player_may_not_export(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    result = await slash.run("campaign export", user=slash.members[1], manage_guild=False)
    refused(result, NOT_GM.format("export the campaign"))
    await dpytest.empty_queue()


async def test_a_file_over_discords_limit_is_not_sent(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seed(bot, slash)
    size = len(dump(await export_campaign(bot.db, slash.guild.id)))
    monkeypatch.setattr("cogs.campaign_transfer.DISCORD_ATTACHMENT_BYTES", size - 1)
    mib = f"{size / 2**20:.1f}"
    refused(
        await slash.run("campaign export", **GM),
        f"The campaign file is {mib} MiB, more than the 0 MiB Discord takes: export it with"
        " log:False, or ask the bot's operator for `python -m bot export-campaign`.",
    )
    # Without the log there is nothing left to drop: only the operator can help.
    monkeypatch.setattr("cogs.campaign_transfer.DISCORD_ATTACHMENT_BYTES", 100)
    small = len(dump(await export_campaign(bot.db, slash.guild.id, log=False)))
    refused(
        await slash.run("campaign export", log=False, **GM),
        f"The campaign file is {small / 2**20:.1f} MiB, more than the 0 MiB Discord takes:"
        " export it or ask the bot's operator for `python -m bot export-campaign`.",
    )
    await dpytest.empty_queue()


async def test_the_interactions_own_limit_counts_when_smaller(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seed(bot, slash)
    original = slash._base

    def small_limit(*args: Any, **kwargs: Any) -> Any:
        builder, payload = original(*args, **kwargs)
        payload["attachment_size_limit"] = 1024
        return builder, payload

    monkeypatch.setattr(slash, "_base", small_limit)
    result = await slash.run("campaign export", **GM)
    assert result.ephemeral and not result.uploads
    assert result.content is not None and "more than the 0 MiB Discord takes" in result.content
    await dpytest.empty_queue()


async def test_export_import_export_is_the_same_file(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    _, first = the_file(await slash.run("campaign export", **GM))
    # Empty the server (an empty file, confirmed), then bring the campaign back.
    held = await slash.run("campaign import", file=attachment(empty_file()), **GM)
    await slash.click(held, label=REPLACE, **GM)
    assert not await campaign_has_data(bot.db, slash.guild.id)
    result = await slash.run("campaign import", file=attachment(first), **GM)
    assert result.ephemeral and not result.components
    assert result.content == (
        "Imported the campaign (the 2d10 system): 6 characters, 2 sessions, 3 logged rolls,"
        " 2 running fights."
    )
    assert slash.cdn.downloads  # (read from Discord's CDN, as in production)
    _, again = the_file(await slash.run("campaign export", **GM))
    assert without_stamp(again) == without_stamp(first)
    await dpytest.empty_queue()


async def test_a_server_with_data_is_replaced_only_on_the_press(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seed(bot, slash)
    switched: list[int] = []
    follow = bot.ruleset_switched

    async def spy(guild_id: int) -> None:
        switched.append(guild_id)
        await follow(guild_id)

    monkeypatch.setattr(bot, "ruleset_switched", spy)
    assert await bot.command_sets.ruleset_of(slash.guild.id) is Ruleset.TWOD10
    before = await everything(bot.db)
    held = await slash.run("campaign import", file=attachment(empty_file("hocs")), **GM)
    assert held.ephemeral
    assert held.content == (
        "This server's campaign already has characters, sessions, rolls or fights, and the"
        " file (Heroes of Countless Stories: 0 characters, 0 sessions, no roll log,"
        " 0 running fights) replaces all of them: press the button within 15 minutes to"
        " confirm."
    )
    [button] = held.message.buttons  # type: ignore[union-attr]
    assert button["label"] == REPLACE and button["style"] == 4  # danger
    assert button["custom_id"].startswith(f"campaign:import:{slash.guild.id}:")
    after = await everything(bot.db)
    assert {k: v for k, v in after.items() if k != "pending_imports"} == {
        k: v for k, v in before.items() if k != "pending_imports"
    }
    assert len(after["pending_imports"]) == len(before["pending_imports"]) + 1
    assert switched == []

    pressed = await slash.click(held, label=REPLACE, **GM)
    assert pressed.ephemeral and not pressed.components
    assert pressed.content == (
        "Imported the campaign (Heroes of Countless Stories): 0 characters, 0 sessions,"
        " 0 logged rolls, 0 running fights."
    )
    assert not await campaign_has_data(bot.db, slash.guild.id)
    assert switched == [slash.guild.id]
    assert await bot.command_sets.ruleset_of(slash.guild.id) is Ruleset.HOCS
    await dpytest.empty_queue()


async def test_a_second_press_is_refused_and_changes_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    await seed(bot, slash)
    held = await slash.run("campaign import", file=attachment(empty_file("2d10")), **GM)
    [custom_id] = held.custom_ids
    await slash.click(held, label=REPLACE, **GM)
    before = await everything(bot.db)
    # Another copy of the message (a second client, or a press racing the first).
    again = await slash.click(custom_id=custom_id, **GM)
    refused(
        again,
        "This import was already made, or its 15 minutes ran out: upload the file again"
        " with /campaign import.",
    )
    assert await everything(bot.db) == before
    await dpytest.empty_queue()


async def test_a_player_may_not_press(bot: TableBot, slash: SlashHarness) -> None:
    await seed(bot, slash)
    held = await slash.run("campaign import", file=attachment(empty_file()), **GM)
    [custom_id] = held.custom_ids
    before = await everything(bot.db)
    player = slash.members[1]
    result = await slash.click(custom_id=custom_id, user=player, manage_guild=False)
    refused(result, NOT_GM.format("replace the campaign"))
    assert await everything(bot.db) == before
    # The held file is still there for the GM.
    pressed = await slash.click(held, label=REPLACE, **GM)
    assert pressed.content is not None and pressed.content.startswith("Imported the campaign")
    await dpytest.empty_queue()


async def test_an_empty_server_imports_at_once(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("campaign show")  # (the server has its default campaign row)
    raw = empty_file("2d10")
    result = await slash.run("campaign import", file=attachment(raw), **GM)
    assert result.ephemeral and not result.components
    assert result.content == (
        "Imported the campaign (the 2d10 system): 0 characters, 0 sessions, 0 logged rolls,"
        " 0 running fights."
    )
    assert await bot.command_sets.ruleset_of(slash.guild.id) is Ruleset.TWOD10
    stored = await export_campaign(bot.db, slash.guild.id, log=False)  # (the file has none)
    assert without_stamp(dump(stored)) == without_stamp(raw)
    await dpytest.empty_queue()
