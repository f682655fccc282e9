"""A hero point on a damage roll: the "Hero reroll damage" button under /attack and /damage.

The text lets a hero point "reroll as many dice as they want from any dice roll"; the
button rerolls the damage dice below their average (``hero_reroll_damage``) for the
attacking player character's owner or the GM, while the damage choice is open and the
target is as the hit left it. One transaction: the hero point (conditional update), the
hit redone from before it, the vitals, the stored choice (compare-and-set on its faces)
and the roll log. The custom id carries how many hero rerolls the roll had, so a
second press of the same button is refused without spending anything.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import edit_pressed_message
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.render.hocs.combat import Intro, choice_note, combat_embed
from bot.rules.hocs.attack import choose_damage, hero_reroll_damage, resolve_hit
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from bot.tables.character_access import safe_name
from bot.tables.permissions import is_gm
from cogs.hocs.combat.choices import ChoiceClosed, now
from cogs.hocs.combat.options import CHOICE_MINUTES
from cogs.hocs.combat.records import relog_hit
from cogs.hocs.damage_buttons import hero_button
from cogs.hocs.points.views import message_view

log = logging.getLogger(__name__)


class AlreadyRerolled(UserError):
    def __init__(self) -> None:
        super().__init__(
            # One sentence, as every refusal: a double click reads it in a glance.
            "That button was already used (the damage has changed since), so nothing was"
            " spent: use the buttons on the roll's latest message."
        )


class HeroDamageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dmg:hero:(?P<choice>[0-9]{1,19}):(?P<count>[0-9]{1,3})",
):
    """Built only when a click arrives; replies carry ``hero_button``'s payload."""

    def __init__(self, choice_id: int, count: int) -> None:
        shown = hero_button(choice_id, count)
        super().__init__(shown.as_item())
        self.choice_id = choice_id
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HeroDamageButton:
        return cls(int(match["choice"]), int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction, f"button {self.custom_id}", press(interaction, self.choice_id, self.count)
        )


async def press(interaction: discord.Interaction, choice_id: int, count: int) -> None:
    guild, user = interaction.guild, interaction.user
    if guild is None:
        raise GuildOnly()
    bot: Any = interaction.client
    async with bot.db.transaction() as conn:
        repo = CombatRepository(conn)
        choice = await repo.get_choice(choice_id)
        if choice is None or choice.guild_id != guild.id or choice.attacker_id is None:
            raise ChoiceClosed()
        if choice.rolls.hero_rerolls != count:
            raise AlreadyRerolled()
        if choice.expired(now()):
            raise UserError(
                f"The {CHOICE_MINUTES} minutes to change this damage roll are over: the GM can"
                " still adjust hit points with /hp."
            )
        characters = CharacterRepository(conn)
        attacker = await characters.get(choice.attacker_id)
        if attacker is None or attacker.kind is not CharacterKind.PC:
            raise UserError("Only a player character's damage roll takes a hero point.")
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        if attacker.owner_id != user.id and not is_gm(user, campaign):
            raise UserError(
                f"This is {safe_name(attacker.name)}'s damage roll: only its owner or the GM"
                " can spend its hero point."
            )
        if attacker.state.hero_points <= 0:
            raise UserError(f"{safe_name(attacker.name)} has no hero points left.")
        target = await repo.get(choice.target_id) if choice.target_id is not None else None
        if choice.target_id is not None:
            if target is None or choice.before is None:
                raise ChoiceClosed()
            if target.vitals != choice.after:
                raise UserError(
                    f"{safe_name(target.character.name)} has changed since this hit, so its"
                    " damage can't be rerolled any more: the GM can correct hit points with /hp."
                )
        inputs, prior, rerolled = hero_reroll_damage(choice.inputs, choice.rolls, bot.dice)
        left = await characters.spend_hero_point(attacker.id)
        if left is None:
            raise UserError(f"{safe_name(attacker.name)} has no hero points left.")
        faces = ", ".join(f"d{choice.inputs.rolled.dice[i].sides}" for i in rerolled)  # type: ignore[union-attr]
        line = (
            f"{safe_name(attacker.name)} spent a hero point: rerolled the damage dice below"
            f" their average ({faces}); {left} left."
        )
        intro = Intro.from_dict(choice.intro)
        intro = Intro(intro.title, (*intro.lines, line))
        if target is not None and choice.before is not None:
            victim = target.combatant.with_vitals(choice.before)
            hit = resolve_hit(victim, inputs, index=None, dice=bot.dice, prior=prior)
            await repo.save_vitals(target.character.id, hit.after)
            damage, rolls, suggested, after = hit.damage, hit.rolls, hit.suggested, hit.after
            threshold: int | None = victim.threshold
        else:
            hit = None
            damage, rolls, suggested = choose_damage(inputs, None, bot.dice, prior)
            after, threshold = None, None
        assert damage.result is not None
        if not await repo.replace_choice_roll(
            choice.id, expected=choice.stored_inputs, inputs=inputs, rolls=rolls,
            chosen_index=damage.result.chosen_index, after=after, intro=intro.to_dict(),
        ):  # fmt: skip
            raise AlreadyRerolled()
        await relog_hit(
            conn, choice.message_id, inputs=inputs, damage=damage, hit=hit,
            change={"hero_reroll": list(rerolled)},
        )  # fmt: skip
        name = target.character.name if target is not None else None
        embed = combat_embed(
            intro, inputs=inputs, damage=damage, suggested=suggested, hit=hit,
            threshold=threshold, footer=choice_note(name, CHOICE_MINUTES),
        )  # fmt: skip
        view = await message_view(conn, interaction.message, choice.id)
    log.info("hero reroll on damage choice %s by %s", choice_id, user.id)
    await edit_pressed_message(interaction, embed=embed, view=view)
    if choice.target_id is not None:
        notify_characters_changed(bot, guild.id, [choice.target_id])
