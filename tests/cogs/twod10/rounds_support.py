"""Helpers for the 2d10 tracker's slash tests: a 2d10 guild, sheets, the stored state."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import discord

from bot.client import TableBot
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character, create_character
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.storage.campaigns import CampaignRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind, TwoD10Sheet
from bot.storage.twod10.encounters import TrackerRecord
from tests.support.elsewhere import write_elsewhere
from tests.support.slash import SlashHarness, SlashResult

T = TypeVar("T")


def gm(slash: SlashHarness) -> dict[str, object]:
    return {"user": slash.members[2], "manage_guild": True}


def player(slash: SlashHarness, number: int = 0) -> dict[str, object]:
    return {"user": slash.members[number]}


async def make_twod10(slash: SlashHarness) -> None:
    result = await slash.run("campaign set", ruleset="2d10", **gm(slash))
    assert result.content == "Campaign updated."


def build(name: str, finesse: int = 1, *, polearm: bool = False) -> Character:
    # 4 attribute points: finesse + strength + toughness = 4 (finesse 0..2).
    attrs = Attributes(finesse=finesse, strength=1, toughness=3 - finesse)
    return create_character(
        name=name,
        background="Guard",
        attributes=attrs,
        background_skills={SkillKey(skill=Skill.MELEE): 2, SkillKey(skill=Skill.ATHLETICS): 2,
                           SkillKey(skill=Skill.MACHINERY): 1},
        extra_skills={defense(Attribute.FINESSE): 2, SkillKey(skill=Skill.RANGED): 2,
                      SkillKey(skill=Skill.MACHINERY): 1},
        feats=("Watchful", "Steady"),
        weapons=(weapon("two-handed polearm" if polearm else "one-handed axe"),),
    )  # fmt: skip


async def make_sheet(
    bot: TableBot,
    owner: discord.abc.User,
    name: str,
    *,
    finesse: int = 1,
    kind: TwoD10Kind = TwoD10Kind.PC,
    active: bool = True,
    polearm: bool = False,
) -> TwoD10Sheet:
    guild_id = bot.guilds[0].id
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild_id)
        repo = TwoD10CharacterRepository(conn)
        sheet = await repo.create(
            guild_id=guild_id, owner_id=owner.id, kind=kind,
            character=build(name, finesse, polearm=polearm),
        )  # fmt: skip
        if active:
            await repo.set_active(guild_id, owner.id, sheet.id)
    return sheet


async def stored(bot: TableBot, channel_id: int) -> TrackerRecord:
    loaded = await bot.get_cog("2d10 initiative").service.load(channel_id)  # type: ignore[union-attr]
    assert loaded is not None
    return loaded[0]


def text(result: SlashResult) -> str:
    return result.content or ""


async def tracker_line(bot: TableBot, slash: SlashHarness, name: str) -> str:
    """``name``'s line in the tracker message as it stands in the channel (not as stored:
    what the players see)."""
    record = await stored(bot, slash.channel.id)
    message = await slash.channel.fetch_message(record.tracker_message_id or 0)
    rows = [r for f in message.embeds[0].fields for r in str(f.value).splitlines()]
    [line] = [r for r in rows if r.startswith(f"**{name}**")]
    return line


def set_hp_elsewhere(bot: TableBot, sheet: TwoD10Sheet, hp: int) -> None:
    """Set ``sheet``'s HP as another process would, on a connection of its own: nothing
    in this bot hears of it (bot.storage.changes), so its trackers show the old HP until
    something here changes the sheet."""
    write_elsewhere(
        bot,
        "UPDATE twod10_characters SET hp = ?, revision = revision + 1 WHERE id = ?",
        (hp, sheet.id),
    )


async def reply_before_tracker(
    bot: TableBot, slash: SlashHarness, act: Awaitable[T], *, name: str, before: str, after: str
) -> T:
    """Run ``act`` (a command or a click) with the bot's follow-ups held, as under load:
    its reply comes while ``name``'s tracker line still reads ``before``, the edit waiting
    for after the reply; once the follow-ups drain, the line reads ``after``."""
    slash.drain_followups = False
    try:
        with bot.followups.busy():  # held until the harness is done, as under load
            result = await act
        assert bot.followups.pending >= 1  # the tracker's edit waits for the reply
        assert await tracker_line(bot, slash, name) == before
        await bot.followups.drain()
    finally:
        slash.drain_followups = True
    assert await tracker_line(bot, slash, name) == after
    return result
