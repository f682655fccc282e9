"""Open damage-die choices: recording one after a roll, switching the kept die.

The model: the bot applies the die with the best expected total at once. For
``CHOICE_MINUTES`` the roller, the attacker's owner or the GM may keep another
die; the hit is then redone from the target's state before it, in one
transaction, provided the target is still exactly as this hit left it (another
hit or an adjustment since would be lost, so the switch is refused then).

Every hit applied to a target is recorded, even with a single die (no buttons
then): a hero point's damage reduction redoes "the last hit received" from it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiosqlite
import discord

from bot.delivery.events import notify_characters_changed
from bot.errors import GuildOnly, UserError
from bot.render.hocs.combat import Intro, choice_note, combat_embed
from bot.render.text import safe
from bot.rules.hocs.attack import HitInputs, PriorRolls, Vitals, choose_damage, resolve_hit
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.combat import CombatRepository, DamageChoice
from bot.tables.permissions import is_gm
from cogs.hocs.combat.options import CHOICE_MINUTES
from cogs.hocs.combat.records import relog_hit

log = logging.getLogger(__name__)


def now() -> datetime:
    return datetime.now(UTC)


async def record_choice(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    attacker_id: int | None,
    target_id: int | None,
    intro: Intro,
    inputs: HitInputs,
    rolls: PriorRolls,
    chosen_index: int | None,
    before: Vitals | None,
    after: Vitals | None,
    dicts: Mapping[str, Any] | None = None,
    texts: Mapping[str, str] | None = None,
) -> DamageChoice | None:
    """Store the roll so its buttons (and a hero point's reduction) work later; None
    when nothing was rolled, or nothing can be chosen and no target was hit. ``dicts``:
    the values' dict forms already built (``records.choice_dicts``); ``texts``: their JSON
    text (``records.choice_texts``)."""
    if inputs.rolled is None or chosen_index is None:
        return None
    if target_id is None and not has_choice(inputs):
        return None
    return await CombatRepository(conn).add_choice(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        attacker_id=attacker_id,
        target_id=target_id,
        intro=intro.to_dict(),
        inputs=inputs,
        rolls=rolls,
        chosen_index=chosen_index,
        before=before,
        after=after,
        now=now(),
        dicts=dicts,
        texts=texts,
    )


def has_choice(inputs: HitInputs | None) -> bool:
    """Whether another die could be kept (two dice or more were rolled)."""
    return inputs is not None and inputs.rolled is not None and len(inputs.rolled.dice) >= 2


@dataclass(frozen=True)
class Switched:
    choice_id: int
    embed: discord.Embed
    inputs: HitInputs
    chosen_index: int


class ChoiceClosed(UserError):
    def __init__(self) -> None:
        super().__init__(
            "This damage roll can no longer be changed: the GM can still adjust hit points"
            " with /hp."
        )


async def switch_die(
    bot: Any, interaction: discord.Interaction, choice_id: int, index: int
) -> Switched:
    """Keep die ``index`` of an open choice instead; re-apply the hit. UserError to refuse."""
    guild, user = interaction.guild, interaction.user
    if guild is None:
        raise GuildOnly()
    async with bot.db.transaction() as conn:
        repo = CombatRepository(conn)
        choice = await repo.get_choice(choice_id)
        if choice is None or choice.guild_id != guild.id:
            raise ChoiceClosed()
        if choice.expired(now()):
            raise UserError(
                f"The {CHOICE_MINUTES} minutes to keep another die are over: the GM can"
                " still adjust hit points with /hp."
            )
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        allowed = user.id == choice.user_id or is_gm(user, campaign)
        if not allowed and choice.attacker_id is not None:
            attacker = await CharacterRepository(conn).get(choice.attacker_id)
            allowed = attacker is not None and attacker.owner_id == user.id
        if not allowed:
            raise UserError(
                "Only whoever rolled this damage, the attacker's owner or the GM can keep"
                " another die."
            )
        rolled = choice.inputs.rolled
        if rolled is None or not 0 <= index < len(rolled.dice):
            raise UserError("That die isn't part of this roll.")
        if index == choice.chosen_index:
            raise UserError("That die is already the one kept.")
        intro = Intro.from_dict(choice.intro)
        if choice.target_id is None:
            damage, rolls, suggested = choose_damage(choice.inputs, index, bot.dice, choice.rolls)
            await repo.update_choice(choice.id, chosen_index=index, rolls=rolls, after=None)
            await relog_hit(
                conn, choice.message_id, inputs=choice.inputs, damage=damage, hit=None,
                change={"kept": index},
            )  # fmt: skip
            embed = combat_embed(
                intro,
                inputs=choice.inputs,
                damage=damage,
                suggested=suggested,
                hit=None,
                threshold=None,
                footer=choice_note(None, CHOICE_MINUTES),
            )
        else:
            target = await repo.get(choice.target_id)
            if target is None or choice.before is None:
                raise ChoiceClosed()
            if target.vitals != choice.after:
                raise UserError(
                    f"{safe(target.character.name)} has changed since this hit (another hit"
                    " or an adjustment), so its die can't be switched any more: the GM can"
                    " correct hit points with /hp."
                )
            victim = target.combatant.with_vitals(choice.before)
            hit = resolve_hit(victim, choice.inputs, index=index, dice=bot.dice, prior=choice.rolls)
            await repo.save_vitals(target.character.id, hit.after)
            await repo.update_choice(
                choice.id, chosen_index=index, rolls=hit.rolls, after=hit.after
            )
            await relog_hit(
                conn, choice.message_id, inputs=choice.inputs, damage=hit.damage, hit=hit,
                change={"kept": index},
            )  # fmt: skip
            embed = combat_embed(
                intro,
                inputs=choice.inputs,
                damage=hit.damage,
                suggested=hit.suggested,
                hit=hit,
                threshold=victim.threshold,
                footer=choice_note(target.character.name, CHOICE_MINUTES),
            )
    log.info("damage choice %s switched to die %s by %s", choice_id, index, user.id)
    notify_characters_changed(bot, guild.id, [choice.target_id])  # None: nothing was applied
    return Switched(choice_id, embed, choice.inputs, index)
