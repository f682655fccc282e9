"""Shared steps for the 2d10 command tests (no tests here)."""

from __future__ import annotations

from typing import Any

from bot.client import TableBot
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Sheet
from tests.support.slash import SlashHarness, SlashResult

# A legal build: 4 attribute points, 5 background and 5 extra skill points, none above 2.
BUILD: dict[str, Any] = {
    "background": "Blacksmith",
    "finesse": 1,
    "strength": 2,
    "toughness": 1,
    "mind": 0,
    "social": 0,
    "background_skills": "melee 2, machinery 2, athletics 1",
    "extra_skills": "defense (finesse) 2, knowledge (metallurgy) 2, athletics 1",
    "feat1": "Strong grip",
    "feat2": "Iron lungs",
}


def gm(slash: SlashHarness) -> dict[str, Any]:
    """Run as the GM (member 0 with Manage Server)."""
    return {"user": slash.members[0], "manage_guild": True}


def player(slash: SlashHarness, number: int = 1) -> dict[str, Any]:
    return {"user": slash.members[number], "manage_guild": False}


def text(result: SlashResult) -> str:
    parts = [result.content or ""]
    for embed in result.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def refused(result: SlashResult, words: str) -> None:
    assert result.ephemeral, result.content
    assert words in (result.content or ""), result.content


async def make_twod10(slash: SlashHarness) -> None:
    """Switch the test guild to the 2d10 system (it has no data yet: no confirmation)."""
    result = await slash.run("campaign set", ruleset="2d10", **gm(slash))
    assert result.content == "Campaign updated.", result.content


async def create(
    slash: SlashHarness, name: str, who: dict[str, Any] | None = None, **changes: Any
) -> SlashResult:
    values = {**BUILD, **changes}
    return await slash.run("character create", name=name, **values, **(who or player(slash)))


async def stored(bot: TableBot, name: str) -> TwoD10Sheet:
    async with bot.db.read() as conn:
        sheet = await TwoD10CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert sheet is not None
    return sheet
