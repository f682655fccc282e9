"""Shared steps for the 2d10 combat command tests (no tests here)."""

from __future__ import annotations

from typing import Any

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import armor, shield, weapon
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from tests.support.slash import SlashHarness, SlashResult


def gm(slash: SlashHarness) -> dict[str, Any]:
    return {"user": slash.members[0], "manage_guild": True}


def player(slash: SlashHarness, number: int = 1) -> dict[str, Any]:
    return {"user": slash.members[number], "manage_guild": False}


def script(bot: TableBot, *faces: int) -> ScriptedDice:
    dice = ScriptedDice(faces)
    bot.dice = dice
    return dice


async def twod10(slash: SlashHarness) -> None:
    result = await slash.run("campaign set", ruleset="2d10", **gm(slash))
    assert result.content == "Campaign updated.", result.content


def make(
    name: str,
    *,
    finesse: int = 0,
    strength: int = 0,
    toughness: int = 0,
    melee: int = 0,
    ranged: int = 0,
    brawl: int = 0,
    finesse_defense: int = 0,
    mind: int = 0,
    weapons: tuple[str, ...] = (),
    suit: str | None = None,
    held: str | None = None,
) -> Character:
    ranks = {
        SkillKey(skill=Skill.MELEE): melee,
        SkillKey(skill=Skill.RANGED): ranged,
        SkillKey(skill=Skill.BRAWL): brawl,
        defense(Attribute.FINESSE): finesse_defense,
    }
    return Character(
        name=name,
        background="Soldier",
        attributes=Attributes(finesse=finesse, strength=strength, toughness=toughness, mind=mind),
        skills=tuple(sorted(((k, v) for k, v in ranks.items() if v), key=lambda kv: kv[0].label)),
        feats=("Brave", "Quick"),
        armor=armor(suit) if suit else None,
        shield=shield(held) if held else None,
        weapons=tuple(weapon(w) for w in weapons),
    )


async def store(
    bot: TableBot, character: Character, owner_id: int, kind: TwoD10Kind = TwoD10Kind.PC
) -> TwoD10Sheet:
    async with bot.db.transaction() as conn:
        repo = TwoD10CharacterRepository(conn)
        sheet = await repo.create(
            guild_id=bot.guilds[0].id, owner_id=owner_id, kind=kind, character=character
        )
        await repo.set_active(bot.guilds[0].id, owner_id, sheet.id)
    return sheet


async def sheet(bot: TableBot, name: str) -> TwoD10Sheet:
    async with bot.db.read() as conn:
        found = await TwoD10CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert found is not None
    return found


async def table(bot: TableBot, slash: SlashHarness) -> None:
    """A 2d10 guild with Aria (player 1's), Gob (unarmored NPC) and Knight (armored NPC).

    Aria: strength 3, finesse 2, melee 2, ranged 1, brawl 2: a strength attack adds 5.
    Gob: finesse 1 + Defense (finesse) 1 = defense 2; 15 HP, dies at -1.
    Knight: finesse 1 + Defense (finesse) 2 − armor penalty (2 + 1 − strength 1) = 1;
    chain shirt 4 + heavy round shield 3 = reduction 7; toughness 2: 25 HP, dies at -4.
    """
    await twod10(slash)
    await store(
        bot,
        make(
            "Aria", finesse=2, strength=3, melee=2, ranged=1, brawl=2,
            weapons=("One-handed sword", "Light axe", "Longbow", "Two-handed axe",
                     "One-handed blunt", "Light sword"),
        ),
        slash.members[1].id,
    )  # fmt: skip
    await store(
        bot, make("Gob", finesse=1, finesse_defense=1), slash.members[0].id,
        TwoD10Kind.ANTAGONIST,
    )  # fmt: skip
    await store(
        bot,
        make("Knight", finesse=1, strength=1, toughness=2, melee=2, finesse_defense=2,
             suit="Chain shirt", held="Heavy round shield"),
        slash.members[0].id, TwoD10Kind.ANTAGONIST,
    )  # fmt: skip


def text(result: SlashResult) -> str:
    assert result.embeds, result.content
    return str(result.embeds[0].get("description", ""))


def refused(result: SlashResult, *words: str) -> None:
    assert result.ephemeral, result.content
    for word in words:
        assert word in (result.content or ""), result.content


async def players_turn(bot: TableBot, slash: SlashHarness) -> None:
    """``table`` in a tracked fight, Aria against Gob, on the players' turn of round 1."""
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)  # the GM's d6: 1, the players go first
    await slash.run("init next", **gm(slash))
