"""Finding the 2d10 characters a combat command is about, and what an attack is made with."""

from __future__ import annotations

import aiosqlite
import discord

from bot.errors import UserError
from bot.permissions import is_gm
from bot.render.character import safe
from bot.rules.twod10.character import Character
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.wielding import Wielded, improvised_weapon, unarmed, wield
from bot.storage.campaigns import Campaign
from bot.storage.twod10_characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.twod10.combat_options import IMPROVISED, MAX_NAME, UNARMED


class NoActiveTwoD10Character(UserError):
    def __init__(self) -> None:
        super().__init__(
            "You have no active character here: create one with /character create or name"
            " one with character:."
        )


def unknown(name: str) -> UserError:
    return UserError(
        f"There is no character called {safe(name[:MAX_NAME])} here:"
        " check /character list for the names."
    )


async def find_sheet(conn: aiosqlite.Connection, guild_id: int, name: str) -> TwoD10Sheet:
    sheet = await TwoD10CharacterRepository(conn).find(guild_id, name[:MAX_NAME])
    if sheet is None:
        raise unknown(name)
    return sheet


async def acting_sheet(
    conn: aiosqlite.Connection,
    *,
    campaign: Campaign,
    member: discord.abc.User,
    name: str | None,
    action: str,
) -> TwoD10Sheet:
    """The named character (or the member's active one), which the member may act for."""
    if name is None or not name.strip():
        sheet = await TwoD10CharacterRepository(conn).active(campaign.guild_id, member.id)
        if sheet is None:
            raise NoActiveTwoD10Character()
    else:
        sheet = await find_sheet(conn, campaign.guild_id, name)
    if sheet.owner_id != member.id and not is_gm(member, campaign):
        raise UserError(
            f"{safe(sheet.name)} isn't yours, so you can't {action}: only its owner or the GM can."
        )
    return sheet


def _plain(what: str, *, thrown: bool, two_handed: bool, offhand: bool) -> None:
    if thrown or two_handed or offhand:
        raise UserError(f"{what} can't be thrown, gripped two-handed or held offhand.")


def wielded_for(
    character: Character,
    weapon: str | None,
    *,
    thrown: bool = False,
    two_handed: bool = False,
    offhand: bool = False,
) -> Wielded:
    """What ``weapon`` names on the sheet (default its first weapon, else unarmed).

    Raises RulesError for a use the weapon doesn't allow, UserError for a weapon the
    character doesn't carry.
    """
    brawl = character.skill(SkillKey(skill=Skill.BRAWL))
    key = " ".join((weapon or "").lower().replace("-", " ").split())
    if not key:
        if not character.weapons:
            _plain(UNARMED, thrown=thrown, two_handed=two_handed, offhand=offhand)
            return unarmed(brawl)
        chosen = character.weapons[0]
    elif key == UNARMED.lower():
        _plain(UNARMED, thrown=thrown, two_handed=two_handed, offhand=offhand)
        return unarmed(brawl)
    else:
        for label, size in IMPROVISED.items():
            if key == label.lower().replace("-", " "):
                _plain("An improvised weapon", thrown=thrown, two_handed=two_handed,
                       offhand=offhand)  # fmt: skip
                return improvised_weapon(size, brawl)
        found = [w for w in character.weapons if w.name.lower().replace("-", " ") == key]
        if not found:
            carried = ", ".join(w.name for w in character.weapons) or "no weapons"
            raise UserError(
                f"{safe(character.name)} carries {carried}: pick one of those, Unarmed or"
                " an Improvised size."
            )
        chosen = found[0]
    return wield(chosen, thrown=thrown, two_handed_grip=two_handed, offhand=offhand)
