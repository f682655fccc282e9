"""Determination spent before an attack roll, by either side, in the attack's transaction.

The attacker's owner (or the GM) runs /attack, so the attacker's point is theirs to
spend. Ruling: the defender's determination is the defender's: only its owner or the
GM may spend it (``defender_determination``); the defender's other modifiers (focus,
rerolls, guaranteed successes, boons, banes) come from its sheet and the situation,
so whoever attacks may type them, as with ``banes`` for an extra attack. A side that
rolls nothing (a defenseless target, or a melee attack on one) keeps its point.
"""

from __future__ import annotations

from typing import Any

import aiosqlite
from discord.ext import commands

from bot.errors import UserError
from bot.rules.hocs.attack import AttackMode, AttackResult
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


def check_defender(ctx: commands.Context[Any], campaign: Campaign, defender: Character) -> None:
    """Refuse (before anything is rolled) a defender's determination spent by someone else."""
    if not may_act_for(ctx.author, campaign, defender):
        raise UserError(
            f"Only {safe_name(defender.name)}'s owner or the GM can spend its determination:"
            " attack again without defender_determination."
        )


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
