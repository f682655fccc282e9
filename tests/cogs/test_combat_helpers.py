"""Shared steps for the combat command tests (no tests here)."""

from __future__ import annotations

from typing import Any

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.combat import CombatCharacter, CombatRepository
from tests.cogs.test_character_helpers import create
from tests.support.slash import SlashHarness, SlashResult


def gm(slash: SlashHarness) -> dict[str, Any]:
    """Run as the GM (member 0 with Manage Server)."""
    return {"user": slash.members[0], "manage_guild": True}


def player(slash: SlashHarness, number: int = 1) -> dict[str, Any]:
    return {"user": slash.members[number], "manage_guild": False}


def script(bot: TableBot, *faces: int) -> ScriptedDice:
    dice = ScriptedDice(faces)
    bot.dice = dice
    return dice


async def npc(slash: SlashHarness, name: str, **values: Any) -> SlashResult:
    """An antagonist created by the GM."""
    result = await create(slash, name, kind="antagonist", **gm(slash), **values)
    assert not result.ephemeral, result.content
    return result


async def pc(slash: SlashHarness, name: str, number: int = 1, **values: Any) -> SlashResult:
    result = await create(slash, name, **player(slash, number), **values)
    assert not result.ephemeral, result.content
    return result


async def arm(
    slash: SlashHarness, owner: dict[str, Any], name: str, weapon: str, dice: str, **kw: Any
) -> None:
    result = await slash.run(
        "character weapon add", weapon=weapon, dice=dice, name=name, **owner, **kw
    )
    assert not result.ephemeral, result.content


async def combat_state(bot: TableBot, name: str) -> CombatCharacter:
    async with bot.db.read() as conn:
        character = await CharacterRepository(conn).find(bot.guilds[0].id, name)
        assert character is not None
        return await CombatRepository(conn).with_wounds(character)


async def choice_count(bot: TableBot) -> int:
    async with bot.db.read() as conn, conn.execute("SELECT COUNT(*) FROM damage_choices") as cur:
        row = await cur.fetchone()
    return int(row[0])


def text(result: SlashResult) -> str:
    """The embed's description (the step-by-step lines)."""
    assert result.embeds, result.content
    return str(result.embeds[0].get("description", ""))


def buttons(result: SlashResult) -> list[dict[str, Any]]:
    found = []
    for row in result.components:
        for component in row.get("components", []):
            found.append(component)
    return found


def refused(result: SlashResult, *words: str) -> None:
    assert result.ephemeral, result.content
    content = result.content or ""
    assert "error code" not in content, content
    for word in words:
        assert word.lower() in content.lower(), content
    result.assert_no_pings()
