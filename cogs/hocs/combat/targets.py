"""What /attack and /damage act on: the target by name, and the weapon or typed dice."""

from __future__ import annotations

import re

import aiosqlite

from bot.errors import UserError
from bot.interactions.user_text import echo
from bot.render.text import safe
from bot.rules.hocs.attack import WeaponUse, parse_damage_dice, parse_damage_types
from bot.rules.hocs.damage_pool import AttackKind
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import CombatCharacter, CombatRepository
from bot.tables.character_access import UnknownCharacter

_LOOKS_LIKE_DICE = re.compile(r"\d*d\d", re.IGNORECASE)


async def find_target(conn: aiosqlite.Connection, guild_id: int, name: str) -> CombatCharacter:
    character = await CharacterRepository(conn).find(guild_id, name)
    if character is None:
        raise UnknownCharacter(name)
    return await CombatRepository(conn).with_wounds(character)


def looks_like_dice(text: str) -> bool:
    return bool(_LOOKS_LIKE_DICE.search(text))


def weapon_use(
    character: Character,
    weapon: str | None,
    *,
    kind: str | None,
    damage_type: str | None,
    lethal: bool | None,
) -> tuple[WeaponUse, int, list[str]]:
    """The weapon to attack with: one on the sheet by name, typed dice, or the first weapon."""
    details: CharacterDetails = character.details
    notes: list[str] = []
    found = details.weapon(weapon) if weapon else None
    if weapon and found is None:
        if not looks_like_dice(weapon):
            raise UserError(
                f"{safe(character.name)} has no weapon called {echo(weapon)}: add it with"
                " /character weapon add, or give dice such as 1d12."
            )
        sizes, bonus = parse_damage_dice(weapon)
        use = WeaponUse(
            name=None,
            dice=sizes,
            types=parse_damage_types(damage_type),
            kind=AttackKind(kind or "melee"),
            lethal=True if lethal is None else lethal,
        )
        return use, bonus, notes
    if found is None:
        if not details.weapons:
            raise UserError(
                f"{safe(character.name)} has no weapons: add one with /character weapon add,"
                " or give weapon: dice such as 1d12."
            )
        found = details.weapons[0]
    if kind or damage_type:
        notes.append(f"kind and damage_type apply to typed dice; {found.name} uses its own.")
    use = WeaponUse(
        name=found.name,
        dice=found.dice,
        types=found.types,
        kind=found.kind,
        lethal=found.lethal if lethal is None else lethal,
    )
    return use, 0, notes
