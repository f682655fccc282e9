"""/odds damage: the exact damage a pool deals and, against a target, what it does to it.

/damage's options: typed dice, or a weapon on a sheet (the whole pool the attack
rolls: source, lethality, attribute and size dice). Nothing is rolled, applied or
logged. The amounts come from ``odds_damage.damage_odds`` (the kept die the bot keeps,
explosions to its own cap), each put through ``apply_damage`` and ``check_threshold``
against the target's sheet as a real hit would be.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import aiosqlite
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.user_text import echo
from bot.render.hocs.combat import die_role
from bot.render.hocs.odds_damage import damage_odds_embed
from bot.render.text import safe
from bot.rules.hocs.attack import (
    WeaponUse,
    dice_text,
    parse_damage_dice,
    parse_damage_types,
    raw_damage_pool,
    weapon_pool,
)
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.damage import reduction_for
from bot.rules.hocs.odds_damage import damage_odds, hit_odds
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.combat import CombatCharacter, CombatRepository
from cogs.hocs.access import resolve_character
from cogs.hocs.combat.targets import find_target, looks_like_dice
from cogs.hocs.visibility import shows_state

ODDS_DAMAGE_RULINGS = [
    "Exact: the kept die is the one the bot keeps (the best expected total), +1 per other"
    " die at its maximum, and a kept 10 explodes up to the bot's cap of 50 more dice (a"
    " chain that long has a chance of 10^-50, so no printed figure moves).",
    "With a target: its weakness d10s join the pool, immunity empties it, its toughness or"
    " mettle (+2 for a resistance) reduces each amount, and each amount is applied to its"
    " current hit points as /damage would: dead beyond the threshold, a threshold test"
    " inside it, knocked out by non-lethal damage.",
    "If the target's hit points are hidden from you (an NPC when the GM hides them), only"
    " the damage and the wound check chance are shown. Without a target, toughness: is"
    " the reduction.",
    "dice: may name a weapon on a sheet (your active character's, or character:'s, as"
    " /damage reads it): the pool is the one the attack rolls, source, lethality (unless"
    " non-lethal), attribute die and size dice against the target; typed dice are the"
    " whole pool.",
]


@dataclass(frozen=True)
class _Weapon:
    """A weapon on a sheet, as the attack would use it, and who wields it."""

    wielder: CombatCharacter
    use: WeaponUse


async def _weapon(
    conn: aiosqlite.Connection,
    ctx: commands.Context[TableBot],
    campaign: Campaign,
    name: str,
    character: str | None,
    *,
    nonlethal: bool,
) -> _Weapon | None:
    """The weapon called ``name`` as /damage finds it: on the named character's sheet,
    else on the author's active character's; None when ``name`` is to be read as dice."""
    assert ctx.guild is not None
    if character is None:
        mine = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
        if mine is None or mine.details.weapon(name) is None:
            return None
    else:
        mine = await resolve_character(
            conn, campaign=campaign, member=ctx.author, name=character, action="roll its weapons"
        )
    found = mine.details.weapon(name)
    if found is None:
        raise UserError(
            f"{safe(mine.name)} has no weapon called {echo(name)}: give dice such as 1d8,"
            " or add the weapon with /character weapon add."
        )
    use = WeaponUse(
        name=found.name, dice=found.dice, types=found.types, kind=found.kind,
        lethal=found.lethal and not nonlethal,
    )  # fmt: skip
    return _Weapon(await CombatRepository(conn).with_wounds(mine), use)


async def answer_damage_odds(
    bot: TableBot,
    ctx: commands.Context[TableBot],
    *,
    dice: str,
    target: str | None,
    damage_type: str | None,
    nonlethal: bool,
    toughness: int,
    character: str | None,
) -> None:
    if target is not None and ctx.guild is None:
        raise UserError("A target is a character in a server: leave out target: here.")
    notes: list[str] = []
    hit = None
    victim: CombatCharacter | None = None
    weapon: _Weapon | None = None
    visible = False
    # A weapon's name (not dice) and a target are read from the server's sheets.
    if ctx.guild is not None and (target is not None or not looks_like_dice(dice)):
        async with bot.db.read() as conn:
            campaign = await CampaignRepository(conn).get(ctx.guild.id)
            if target is not None:
                victim = await find_target(conn, ctx.guild.id, target)
            if campaign is not None and not looks_like_dice(dice):
                weapon = await _weapon(conn, ctx, campaign, dice, character, nonlethal=nonlethal)
            if victim is not None:
                visible = await shows_state(
                    conn, ctx.author, victim.character, channel_id=ctx.channel.id,
                    campaign=campaign,
                )  # fmt: skip
    defender = victim.combatant if victim is not None else None
    name = victim.character.name if victim is not None else None
    if victim is not None and Condition.DEAD in victim.character.state.conditions:
        raise UserError(f"{safe(victim.character.name)} is already dead.")
    if weapon is not None:
        pool = weapon_pool(weapon.wielder.combatant, defender, weapon.use)
        bonus = 0
        source = f"{weapon.wielder.character.name}'s {weapon.use.name}"
        if damage_type:
            notes.append(f"damage_type applies to typed dice; {safe(source)} uses its own.")
        if not pool.immune:
            notes.append("Pool: " + ", ".join(f"d{d.sides} {die_role(d)}" for d in pool.dice))
    else:
        sizes, bonus = parse_damage_dice(dice)
        pool = raw_damage_pool(
            sizes, types=parse_damage_types(damage_type), lethal=not nonlethal,
            target_weaknesses=defender.weaknesses if defender else (),
            target_immunities=defender.immunities if defender else (),
        )  # fmt: skip
        source = dice_text(sizes) + (f" {bonus:+d}" if bonus else "")
        extra = len(pool.sizes) - len(sizes)
        if extra and name is not None:
            notes.append(f"+{extra}d10 for {safe(name)}'s weakness.")
    if defender is None:
        reduction = reduction_for(pool.types, toughness=toughness, mettle=toughness)[0]
        odds = await asyncio.to_thread(damage_odds, pool.sizes, bonus=bonus)
        title = f"Odds: damage {source}"
    else:
        assert name is not None
        if pool.immune:
            raise UserError(f"{safe(name)} is immune to every type this damage has: it deals 0.")
        if toughness:
            notes.append(f"toughness: is for damage without a target; {safe(name)}'s own is used.")
        mettle = defender.effective.mettle
        reduction = reduction_for(
            pool.types, toughness=defender.toughness, mettle=mettle,
            resistances=defender.resistances,
        )[0]  # fmt: skip
        odds = await asyncio.to_thread(damage_odds, pool.sizes, bonus=bonus)
        if visible:
            hit = await asyncio.to_thread(
                hit_odds, odds, defender.hit_points, types=pool.types, lethal=pool.lethal,
                toughness=defender.toughness, mettle=mettle, resistances=defender.resistances,
                immunities=defender.immunities,
                extra_difficulty=defender.effective.threshold_difficulty,
            )  # fmt: skip
        else:
            notes.append(f"{safe(name)}'s hit points are hidden, so only the damage is shown.")
        title = f"Odds: damage {source} vs {name}"
    plain_top = max(pool.sizes) + len(pool.sizes) - 1 + bonus
    embed, chart = damage_odds_embed(
        title, odds, plain_top=plain_top, reduction=reduction, hit=hit,
        target=name, notes=notes,
    )  # fmt: skip
    await send(ctx, embed=embed, file=chart)
