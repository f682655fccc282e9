"""Determination spent before a roll of /attack or /damage, in the command's transaction.

The attacker's owner (or the GM) runs /attack, so the attacker's point is theirs to
spend. Ruling: the defender's determination is the defender's: only its owner or the
GM may spend it (``defender_determination``); the defender's other modifiers (focus,
rerolls, guaranteed successes, boons, banes) come from its sheet and the situation,
so whoever attacks may type them, as with ``banes`` for an extra attack. A side that
rolls nothing (a defenseless target, or a melee attack on one) keeps its point.

The target's threshold test is a roll of its own, and "determination points can be
applied before or after the roll": ``threshold_determination`` on /attack and /damage
spends the target's point before it, so the test's pool holds the exploding boon from
the start. The same ruling: only the target's owner or the GM, checked before anything
is rolled; no test due (a miss, damage that leaves it above 0 HP or kills it) keeps the
point.
"""

from __future__ import annotations

from typing import Any

import aiosqlite
from discord.ext import commands

from bot.errors import UserError
from bot.rules.hocs.attack import AttackMode, AttackResult, HitResult, threshold_pledge_spent
from bot.storage.campaigns import Campaign
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.tables.character_access import safe_name
from cogs.hocs.access import may_act_for


async def _spend(repo: CharacterRepository, character: Character) -> str:
    name = safe_name(character.name)
    if not await repo.spend_determination(character.id):
        raise UserError(
            f"{name} has no determination points left, so nothing was rolled: attack again"
            " without determination."
        )
    fresh = await repo.get(character.id)
    left = fresh.state.determination if fresh is not None else 0
    # Raw name: the note is escaped where it is rendered.
    return f"{character.name} spent a determination point on the roll ({left} left)."


def check_defender(
    ctx: commands.Context[Any],
    campaign: Campaign,
    defender: Character,
    option: str = "defender_determination",
    command: str = "attack",
) -> None:
    """Refuse (before anything is rolled) a defender's determination spent by someone else."""
    if not may_act_for(ctx.author, campaign, defender):
        raise UserError(
            f"Only {safe_name(defender.name)}'s owner or the GM can spend its determination:"
            f" {command} again without {option}."
        )


def check_threshold_pledge(
    ctx: commands.Context[Any], campaign: Campaign, target: Character, command: str
) -> None:
    """Refuse, before anything is rolled, ``threshold_determination`` asked by someone who
    isn't the target's owner or the GM, or for a target with no determination left."""
    check_defender(ctx, campaign, target, "threshold_determination", command)
    if target.state.determination <= 0:
        raise UserError(
            f"{safe_name(target.name)} has no determination points left, so nothing was"
            f" rolled: {command} again without threshold_determination."
        )


async def spend_threshold_pledge(
    conn: aiosqlite.Connection, target: Character, hit: HitResult | None, command: str
) -> tuple[bool, str]:
    """Spend the target's determination point if its threshold test took it (conditional
    update; UserError rolls the command back); whether it was spent, and the note."""
    if not threshold_pledge_spent(hit):
        return False, f"No threshold test was due, so {target.name}'s determination point was kept."
    left = await CharacterRepository(conn).spend_determination_left(target.id)
    if left is None:
        raise UserError(
            f"{safe_name(target.name)} has no determination points left, so nothing was"
            f" rolled: {command} again without threshold_determination."
        )
    # Raw name: the note is escaped where it is rendered.
    note = f"{target.name} spent a determination point on the threshold test ({left} left)."
    return True, note


async def spend_before_roll(
    conn: aiosqlite.Connection,
    ctx: commands.Context[Any],
    campaign: Campaign,
    attacker: Character,
    defender: Character,
    result: AttackResult,
    *,
    attacker_spends: bool,
    defender_spends: bool,
) -> list[str]:
    """Spend the points asked for (conditional updates; UserError rolls everything
    back); the notes to show."""
    notes: list[str] = []
    repo = CharacterRepository(conn)
    mode = result.roll.mode
    if defender_spends:
        check_defender(ctx, campaign, defender)
    if attacker_spends:
        if mode is AttackMode.DEFENSELESS_MELEE:
            notes.append("No roll was needed, so the attacker's determination point was kept.")
        else:
            notes.append(await _spend(repo, attacker))
    if defender_spends:
        if mode is not AttackMode.CLASH:
            notes.append("The defender rolled nothing, so its determination point was kept.")
        else:
            notes.append(await _spend(repo, defender))
    return notes
