"""What /damage rolls: typed dice (``2d6 +1``) or a weapon on the author's character."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import aiosqlite
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.interactions.user_text import echo
from bot.render.text import safe
from bot.rules.hocs.attack import (
    WeaponUse,
    dice_text,
    parse_damage_dice,
    parse_damage_types,
    raw_damage_pool,
    weapon_pool,
)
from bot.rules.hocs.attack.combatant import Combatant
from bot.rules.hocs.damage_pool import DamagePool, DamageType
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from cogs.hocs.access import resolve_character
from cogs.hocs.combat.targets import looks_like_dice

Ctx = commands.Context[TableBot]


@dataclass(frozen=True, kw_only=True)
class DamageSource:
    pool: DamagePool
    types: Sequence[DamageType]
    bonus: int
    who: str  # who rolls, for the reply's intro
    name: str  # the dice or the weapon, for the intro and the roll log
    attacker: Character | None = None  # the character whose weapon it is
    notes: list[str] = field(default_factory=list)

    @property
    def attacker_id(self) -> int | None:
        return self.attacker.id if self.attacker is not None else None


async def _has_weapon(conn: aiosqlite.Connection, ctx: Ctx, name: str) -> bool:
    """Whether the author's active character has a weapon called ``name``."""
    assert ctx.guild is not None
    active = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
    return active is not None and active.details.weapon(name) is not None


async def damage_source(
    conn: aiosqlite.Connection,
    ctx: Ctx,
    campaign: Campaign,
    *,
    dice: str,
    character: str | None,
    damage_type: str | None,
    nonlethal: bool,
    defender: Combatant | None,
) -> DamageSource:
    """The pool ``dice`` names against ``defender``; UserError for a weapon not carried."""
    use_weapon = not looks_like_dice(dice) and (
        character is not None or await _has_weapon(conn, ctx, dice)
    )
    if not use_weapon:
        sizes, bonus = parse_damage_dice(dice)
        types = parse_damage_types(damage_type)
        pool = raw_damage_pool(
            sizes,
            types=types,
            lethal=not nonlethal,
            target_weaknesses=defender.weaknesses if defender else (),
            target_immunities=defender.immunities if defender else (),
        )
        name = dice_text(sizes) + (f" {bonus:+d}" if bonus else "")
        return DamageSource(
            pool=pool, types=types, bonus=bonus, who=ctx.author.display_name, name=name
        )
    mine = await resolve_character(
        conn, campaign=campaign, member=ctx.author, name=character, action="roll its weapons",
    )  # fmt: skip
    found = mine.details.weapon(dice)
    if found is None:
        raise UserError(
            f"{safe(mine.name)} has no weapon called {echo(dice)}: give dice"
            " such as 1d8, or add the weapon with /character weapon add."
        )
    notes = []
    if damage_type:
        notes.append(f"damage_type applies to typed dice; {found.name} uses its own.")
    use = WeaponUse(
        name=found.name,
        dice=found.dice,
        types=found.types,
        kind=found.kind,
        lethal=found.lethal and not nonlethal,
    )
    attacker = await CombatRepository(conn).with_wounds(mine)
    pool = weapon_pool(attacker.combatant, defender, use)
    return DamageSource(
        pool=pool, types=use.types, bonus=0, who=mine.name, name=found.name, attacker=mine,
        notes=notes,
    )  # fmt: skip
