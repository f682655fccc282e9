"""The tracker follows hit points and conditions changed outside /init (bot.delivery.events)."""

from __future__ import annotations

import logging
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.hocs.characters import Character
from tests.cogs.test_init_commands import (
    assert_tracker_matches,
    begin_with_party,
    character,
    gm,
    make_character,
    stored,
)
from tests.cogs.test_roll_buttons import set_points
from tests.support.slash import SlashHarness


async def tracker_line(
    bot: TableBot, channel: discord.TextChannel, name: str, *, in_step: bool = True
) -> str:
    """The tracker's line for ``name`` (checking first that it shows the stored state)."""
    if in_step:
        message = await assert_tracker_matches(bot, channel)
    else:
        record = await stored(bot, channel.id)
        assert record.tracker_message_id is not None
        message = await channel.fetch_message(record.tracker_message_id)
    embed = message.embeds[0]
    text = str(embed.description or "") + "".join(str(field.value) for field in embed.fields)
    [line] = [line for line in text.splitlines() if name in line]
    return line


def hp_text(found: Character) -> str:
    return f"HP {found.state.hp}/{found.effective.max_hp}"


def count_edits(bot: TableBot, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    edits: list[int] = []
    original = bot.http.edit_message

    async def edit_message(channel_id: int, message_id: int, **kwargs: Any) -> Any:
        edits.append(message_id)
        return await original(channel_id, message_id, **kwargs)

    monkeypatch.setattr(bot.http, "edit_message", edit_message)
    return edits


async def test_damage_shows_on_the_tracker_without_an_init_command(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    full = hp_text(await character(bot, aria.id))
    assert full in await tracker_line(bot, slash.channel, "Aria")
    version = (await stored(bot, slash.channel.id)).version
    bot.dice = ScriptedDice([3] * 10)
    result = await slash.run("damage", dice="1d4", target="Aria", **gm(slash))
    assert not result.ephemeral, result.content
    hurt = await character(bot, aria.id)
    assert hp_text(hurt) != full
    assert hp_text(hurt) in await tracker_line(bot, slash.channel, "Aria")
    record = await stored(bot, slash.channel.id)
    assert record.version == version + 1  # the refreshed HP were saved, under the version
    assert record.state.participants[0].hp == hurt.state.hp
    await dpytest.empty_queue()


async def test_condition_add_shows_on_the_tracker(bot: TableBot, slash: SlashHarness) -> None:
    await begin_with_party(bot, slash)
    assert "staggered" not in await tracker_line(bot, slash.channel, "Aria")
    result = await slash.run("condition add", target="Aria", condition="staggered", **gm(slash))
    assert not result.ephemeral, result.content
    assert "staggered" in await tracker_line(bot, slash.channel, "Aria")
    await dpytest.empty_queue()


async def test_rest_shows_the_new_hp_on_the_tracker(bot: TableBot, slash: SlashHarness) -> None:
    aria, _ = await begin_with_party(bot, slash)
    full = hp_text(await character(bot, aria.id))
    await set_points(bot, aria, hp=2)  # behind the tracker's back: it still shows full HP
    assert full in await tracker_line(bot, slash.channel, "Aria", in_step=False)
    bot.dice = ScriptedDice([2, 3, 6])
    result = await slash.run(
        "rest", place="good", resources="good", time="good", user=slash.members[0]
    )
    assert not result.ephemeral, result.content
    rested = await character(bot, aria.id)
    assert 2 < rested.state.hp < rested.effective.max_hp
    assert hp_text(rested) in await tracker_line(bot, slash.channel, "Aria")
    await dpytest.empty_queue()


async def test_a_character_in_no_encounter_edits_no_tracker(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    await begin_with_party(bot, slash)
    await make_character(bot, slash.members[2], "Cora", active=False)
    version = (await stored(bot, slash.channel.id)).version
    edits = count_edits(bot, monkeypatch)
    with caplog.at_level(logging.WARNING):
        result = await slash.run("hp", target="Cora", change="-3", **gm(slash))
    assert not result.ephemeral, result.content
    assert edits == []
    assert (await stored(bot, slash.channel.id)).version == version
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    await dpytest.empty_queue()


async def test_an_unchanged_encounter_is_not_saved_again(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    version = (await stored(bot, slash.channel.id)).version
    cog: Any = bot.get_cog("Initiative")
    await cog.service.characters_changed(slash.guild.id, [aria.id])
    assert (await stored(bot, slash.channel.id)).version == version
    await dpytest.empty_queue()


async def test_a_failing_listener_is_logged_and_never_reaches_the_user(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    await begin_with_party(bot, slash)
    cog: Any = bot.get_cog("Initiative")

    async def broken(channel: Any, *, force: bool = False) -> None:
        raise RuntimeError("tracker broke")

    monkeypatch.setattr(cog.service, "refresh_tracker", broken)
    with caplog.at_level(logging.ERROR):
        result = await slash.run("hp", target="Aria", change="-3", **gm(slash))
    assert not result.ephemeral, result.content
    assert "HP" in str(result.embeds[0])
    assert any("could not refresh the tracker" in r.getMessage() for r in caplog.records)
    await dpytest.empty_queue()
