"""A player character created after /session start gets the hero point it missed."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.storage.hocs.characters import CharacterRepository
from tests.support.slash import SlashHarness

STATS = {"strength": 2, "agility": 2, "mind": 2, "presence": 2}


async def hero_points(bot: TableBot, name: str) -> int:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert found is not None
    return found.state.hero_points


async def test_only_a_pc_created_during_a_session_gets_a_hero_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    gm = {"user": slash.members[2], "manage_guild": True}
    before = await slash.run("character create", name="Early", user=slash.members[0], **STATS)
    assert "hero point" not in (before.content or "")
    await slash.run("session start", **gm)
    late = await slash.run("character create", name="Late", user=slash.members[1], **STATS)
    assert late.content == (
        "Created **Late**. It is now your active character. A session is running: it gets"
        " its hero point."
    )
    assert "Hero points" in str(late.embeds) and await hero_points(bot, "Late") == 1
    ogre = await slash.run("character create", name="Ogre", kind="antagonist", **gm, **STATS)
    assert "hero point" not in (ogre.content or "")
    assert await hero_points(bot, "Ogre") == 0
    # The GM can take it back.
    taken = await slash.run("hero take", character="Late", **gm)
    assert not taken.ephemeral and await hero_points(bot, "Late") == 0
    await slash.run("session end", **gm)
    after = await slash.run("character create", name="After", user=slash.members[0], **STATS)
    assert "hero point" not in (after.content or "") and await hero_points(bot, "After") == 0
    await dpytest.empty_queue()
