"""Shared steps for the /character tests (no tests here)."""

from __future__ import annotations

from typing import Any

import discord

from bot.client import TableBot
from bot.storage.hocs.characters import Character, CharacterRepository
from tests.support.slash import SlashHarness, SlashResult

MIRA = {"strength": 3, "agility": 2, "mind": 2, "presence": 1}


async def create(
    slash: SlashHarness,
    name: str = "Mira",
    *,
    user: discord.Member | None = None,
    manage_guild: bool = False,
    **values: Any,
) -> SlashResult:
    """/character create with Mira's attributes unless others are given."""
    options = {**MIRA, **values}
    return await slash.run(
        "character create",
        user=user or slash.members[0],
        name=name,
        manage_guild=manage_guild,
        **options,
    )


async def stored(bot: TableBot, name: str) -> Character | None:
    async with bot.db.read() as conn:
        return await CharacterRepository(conn).find(bot.guilds[0].id, name)


async def active_of(bot: TableBot, member: discord.abc.User) -> Character | None:
    async with bot.db.read() as conn:
        return await CharacterRepository(conn).get_active(bot.guilds[0].id, member.id)


def fields(result: SlashResult) -> dict[str, str]:
    """The sheet embed's fields by name."""
    return {field["name"]: field["value"] for field in result.embeds[0]["fields"]}


def assert_refused(result: SlashResult, *words: str) -> None:
    """One ephemeral sentence that pings nobody and mentions each of ``words``."""
    assert result.ephemeral, result.content
    assert result.content is not None
    assert "error code" not in result.content
    for word in words:
        assert word.lower() in result.content.lower(), result.content
    result.assert_no_pings()
