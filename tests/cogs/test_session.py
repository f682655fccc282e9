"""/session start, end and status: hero points per session, and the one-shot mode."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.hocs.characters import CharacterKind
from bot.storage.hocs.sessions import SessionRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import fresh, set_points
from tests.support.slash import SlashHarness


async def _party(bot: TableBot, slash: SlashHarness) -> tuple:
    mira = await make_character(bot, slash.members[0], "Mira")
    bram = await make_character(bot, slash.members[1], "Bram")
    ogre = await make_character(
        bot, slash.members[2], "Ogre", kind=CharacterKind.ANTAGONIST, active=False
    )
    return mira, bram, ogre


async def test_start_gives_every_pc_exactly_one_hero_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, bram, ogre = await _party(bot, slash)
    await set_points(bot, mira, hero_points=3)  # unspent from last time: gone
    result = await slash.run("session start", user=slash.members[2], manage_guild=True)
    assert not result.ephemeral
    [embed] = result.embeds
    assert embed["title"] == "Session 1 begins"
    assert "Every player character now has 1 hero point" in embed["description"]
    assert embed["fields"][0]["value"] == "Bram, Mira"
    assert (await fresh(bot, mira)).state.hero_points == 1
    assert (await fresh(bot, bram)).state.hero_points == 1
    assert (await fresh(bot, ogre)).state.hero_points == 0  # hero points are for PCs only
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_end_drops_unspent_points_and_the_next_session_counts_on(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, bram, _ = await _party(bot, slash)
    gm = slash.members[2]
    await slash.run("session start", user=gm, manage_guild=True)
    again = await slash.run("session start", user=gm, manage_guild=True)
    assert again.ephemeral
    assert again.content == (
        "Session 1 is still running: end it with /session end before starting another."
    )
    ended = await slash.run("session end", user=gm, manage_guild=True)
    assert ended.embeds[0]["title"] == "Session 1 ends"
    assert "Unspent hero points are gone." in ended.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hero_points == 0
    assert (await fresh(bot, bram)).state.hero_points == 0
    twice = await slash.run("session end", user=gm, manage_guild=True)
    assert twice.ephemeral and twice.content.startswith("No session is running")
    second = await slash.run("session start", user=gm, manage_guild=True)
    assert second.embeds[0]["title"] == "Session 2 begins"
    assert (await fresh(bot, mira)).state.hero_points == 1
    await dpytest.empty_queue()


async def test_players_cannot_start_or_end_sessions(bot: TableBot, slash: SlashHarness) -> None:
    mira, _, _ = await _party(bot, slash)
    refused = await slash.run("session start", user=slash.members[0], manage_guild=False)
    assert refused.ephemeral and refused.content.startswith("Only the GM can start a session")
    assert (await fresh(bot, mira)).state.hero_points == 0
    async with bot.db.read() as conn:
        assert await SessionRepository(conn).latest(slash.guild.id) is None
    await dpytest.empty_queue()


async def test_one_shot_mode_gives_one_point_per_adventure(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, _, _ = await _party(bot, slash)
    gm = slash.members[2]
    await slash.run("campaign set", user=gm, manage_guild=True, one_shot=True)
    first = await slash.run("session start", user=gm, manage_guild=True)
    assert "adventure 1 begins" in first.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hero_points == 1
    await set_points(bot, mira, hero_points=0)  # spent in session 1
    ended = await slash.run("session end", user=gm, manage_guild=True)
    assert "kept for the rest of the adventure" in ended.embeds[0]["description"]
    second = await slash.run("session start", user=gm, manage_guild=True)
    assert "adventure 1 continues" in second.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hero_points == 0  # no new point mid-adventure
    await slash.run("session end", user=gm, manage_guild=True)
    third = await slash.run("session start", user=gm, manage_guild=True, new_adventure=True)
    assert "adventure 2 begins" in third.embeds[0]["description"]
    assert (await fresh(bot, mira)).state.hero_points == 1
    await dpytest.empty_queue()


async def test_status_shows_the_session_and_everyones_points(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _party(bot, slash)
    before = await slash.run("session status")
    assert before.ephemeral and before.embeds[0]["title"] == "No session yet"
    await slash.run("session start", user=slash.members[2], manage_guild=True)
    status = await slash.run("session status", user=slash.members[0])
    [embed] = status.embeds
    assert embed["title"] == "Session 1 is running"
    assert "Mira: 1 hero point · determination 3/3" in embed["fields"][0]["value"]
    assert "Ogre" not in embed["fields"][0]["value"]
    await dpytest.empty_queue()
