"""/odds damage: the exact damage a pool deals and, against a target, what it does to it.

/damage's options for typed dice (weapons: give their dice). Nothing is rolled,
applied or logged. The amounts come from ``odds_damage.damage_odds`` (the kept die
the bot keeps, explosions to its own cap), each put through ``apply_damage`` and
``check_threshold`` against the target's sheet as a real hit would be.
"""

from __future__ import annotations

import asyncio

from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.character import safe
from bot.render.odds_damage import damage_odds_embed
from bot.replies import send
from bot.rules.hocs.attack import dice_text, parse_damage_dice, parse_damage_types, raw_damage_pool
from bot.rules.hocs.conditions import Condition
from bot.rules.hocs.damage import reduction_for
from bot.rules.hocs.odds_damage import damage_odds, hit_odds
from bot.storage.campaigns import CampaignRepository
from bot.visibility import shows_state
from cogs.combat.targets import find_target

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
    "Weapons are not looked up: give the weapon's dice (and its lethality d10) as dice:.",
]


async def answer_damage_odds(
    bot: TableBot,
    ctx: commands.Context[TableBot],
    *,
    dice: str,
    target: str | None,
    damage_type: str | None,
    nonlethal: bool,
    toughness: int,
) -> None:
    sizes, bonus = parse_damage_dice(dice)
    types = parse_damage_types(damage_type)
    notes: list[str] = []
    hit = None
    name: str | None = None
    source = dice_text(sizes) + (f" {bonus:+d}" if bonus else "")
    if target is None:
        pool = raw_damage_pool(sizes, types=types, lethal=not nonlethal)
        reduction = reduction_for(pool.types, toughness=toughness, mettle=toughness)[0]
        odds = await asyncio.to_thread(damage_odds, pool.sizes, bonus=bonus)
        title = f"Odds: damage {source}"
    else:
        if ctx.guild is None:
            raise UserError("A target is a character in a server: leave out target: here.")
        async with bot.db.read() as conn:
            victim = await find_target(conn, ctx.guild.id, target)
            campaign = await CampaignRepository(conn).get(ctx.guild.id)
            visible = await shows_state(
                conn, ctx.author, victim.character, channel_id=ctx.channel.id, campaign=campaign
            )
        name = victim.character.name
        if Condition.DEAD in victim.character.state.conditions:
            raise UserError(f"{safe(name)} is already dead.")
        defender = victim.combatant
        pool = raw_damage_pool(
            sizes, types=types, lethal=not nonlethal,
            target_weaknesses=defender.weaknesses, target_immunities=defender.immunities,
        )  # fmt: skip
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
        extra = len(pool.sizes) - len(sizes)
        if extra:
            notes.append(f"+{extra}d10 for {safe(name)}'s weakness.")
        title = f"Odds: damage {source} vs {name}"
    plain_top = max(pool.sizes) + len(pool.sizes) - 1 + bonus
    embed, chart = damage_odds_embed(
        title, odds, plain_top=plain_top, reduction=reduction, hit=hit,
        target=name, notes=notes,
    )  # fmt: skip
    await send(ctx, embed=embed, file=chart)
