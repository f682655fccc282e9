"""The medic of a medicine roll: their mind and medicine, and their supplies spent."""

from __future__ import annotations

import aiosqlite
import discord

from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.medicine import Healer
from bot.rules.twod10.skills import Skill, SkillKey
from bot.storage.campaigns import Campaign
from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.survival import TwoD10SurvivalRepository
from cogs.twod10.access import resolve_sheet

MEDICINE = SkillKey(skill=Skill.MEDICINE)


async def medic_healer(
    conn: aiosqlite.Connection,
    campaign: Campaign,
    member: discord.abc.User,
    medic: str | None,
    *,
    supplies_needed: bool,
) -> tuple[Healer, TwoD10Sheet, bool, int | None]:
    """The healer, the medic's sheet, whether a unit was spent and how many are left.

    The unit is taken in one conditional UPDATE inside the command's transaction, so
    it is spent exactly once, and given back by the rollback if the command fails.
    """
    sheet = await resolve_sheet(conn, campaign, member, medic, "roll medicine with them")
    left = None
    if supplies_needed:
        left = await TwoD10SurvivalRepository(conn).spend_supply(sheet.guild_id, sheet.id)
    healer = Healer(
        mind=sheet.character.attribute(Attribute.MIND),
        medicine=sheet.character.skill(MEDICINE),
        supplies=left is not None,
    )
    return healer, sheet, left is not None, left
