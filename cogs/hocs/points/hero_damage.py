"""/hero spend damage: 2d6 off the last hit the character received.

"Just received" means the newest hit stored on the character (``damage_choices``)
that is still open (the die-choice buttons' 15 minutes), and only while the
character is exactly as that hit left it — the same rule as switching the kept
die, since redoing the hit from before it would otherwise undo what happened
since. Everything runs in the caller's ONE transaction: the hit is redone from
the stored pre-hit state with the 2d6 off the damage roll
(``bot.rules.hocs.attack.reduce_hit``), the vitals and the stored hit are saved,
the 2d6 and the updated hit go to the roll log, and the hero point is spent with a
conditional update; any refusal rolls it all back with nothing spent.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import aiosqlite
import discord

from bot.errors import UserError
from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.hocs.attack import HitReduction, reduce_hit
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import CHOICE_LIFETIME, CombatRepository
from bot.storage.roll_log import RollLogRepository
from bot.tables.character_access import safe_name
from cogs.hocs.combat.records import relog_hit

log = logging.getLogger(__name__)

CHOICE_MINUTES = int(CHOICE_LIFETIME.total_seconds() // 60)


class NoHitToReduce(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{safe_name(character.name)} has no hit to reduce: a hero point reduces the last"
            f" hit received, within {CHOICE_MINUTES} minutes. Keep the hero point."
        )


@dataclass(frozen=True)
class HeroDamage:
    reduction: HitReduction
    hit_title: str
    left: int


async def reduce_last_hit(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    character: Character,
    dice: Dice,
) -> HeroDamage:
    """Spend one hero point of ``character`` on its last hit (see the module
    docstring). Raises UserError (nothing written) when it can't."""
    name = safe_name(character.name)
    combat = CombatRepository(conn)
    choice = await combat.latest_hit_on(guild_id, character.id, datetime.now(UTC))
    if choice is None or choice.before is None:
        raise NoHitToReduce(character)
    target = await combat.get(character.id)
    if target is None:
        raise NoHitToReduce(character)
    if target.vitals != choice.after:
        raise UserError(
            f"{name} has changed since the last hit (another hit or an adjustment), so"
            " it can't be reduced any more: keep the hero point. The GM can correct hit"
            " points with /hp."
        )
    victim = target.combatant.with_vitals(choice.before)
    try:
        reduction = reduce_hit(
            victim, choice.inputs, index=choice.chosen_index, prior=choice.rolls, dice=dice
        )
    except RulesError as exc:
        text = discord.utils.escape_mentions(str(exc))
        raise UserError(f"{text} Keep the hero point.") from None
    after = reduction.after
    await combat.save_vitals(character.id, after.after)
    await combat.update_choice(
        choice.id, chosen_index=choice.chosen_index, rolls=after.rolls, after=after.after
    )
    left = await CharacterRepository(conn).spend_hero_point(character.id)
    if left is None:
        raise UserError(f"{name} has no hero points left.")  # rolls everything back
    await RollLogRepository(conn).record(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        kind="hero_damage",
        expression=(
            f"hero point 2d6 off the last hit on {character.name}:"
            f" {reduction.before.dealt} → {after.dealt}"
        )[:500],
        result={
            "faces": list(reduction.faces),
            "total": reduction.total,
            "choice_id": choice.id,
            "damage_before": reduction.before.dealt,
            "damage_after": after.dealt,
            "hp_given_back": reduction.hp_given_back,
            "temp_hp_given_back": reduction.temp_hp_given_back,
            "before": reduction.before.after.to_dict(),
            "after": after.after.to_dict(),
        },
        total=reduction.total,
        secret=False,
        character_id=character.id,
    )
    await relog_hit(
        conn,
        choice.message_id,
        inputs=choice.inputs,
        damage=after.damage,
        hit=after,
        change={"hero_reduction": list(reduction.faces)},
    )
    title = str(choice.intro.get("title", "the last hit"))
    log.info("hero 2d6=%s off hit %s on %s", reduction.total, choice.id, character.id)
    return HeroDamage(reduction=reduction, hit_title=title, left=left)
