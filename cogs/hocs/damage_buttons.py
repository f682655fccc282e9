"""The buttons under a damage roll as a reply carries them: "Hero reroll damage" and one
"keep this die" per die (their presses: ``combat.hero_reroll`` and ``combat.views``).

Payloads only (``bot.render.buttons``): building them reads the stored choice and the
attacker, never the press handlers, so the points cog's buttons can include them.
"""

from __future__ import annotations

from collections.abc import Mapping

import aiosqlite
import discord

from bot.render.buttons import Button, Buttons, buttons_or_none
from bot.render.hocs.combat import MAX_BUTTONS, die_label
from bot.rules.hocs.attack import HitInputs, low_damage_dice
from bot.rules.hocs.many_dice import expected_total
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.combat import CombatRepository, DamageChoice
from bot.storage.roll_log import LoggedRoll
from cogs.hocs.combat.choices import now

PREFIX = "dmg:pick"
LABEL = "Hero reroll damage"


def die_button(choice_id: int, index: int, *, label: str, chosen: bool = False) -> Button:
    """The button ``DieChoiceButton`` stands for, as a reply shows it (the kept die green
    and disabled)."""
    return Button(
        custom_id=f"{PREFIX}:{choice_id}:{index}",
        label=label[:80],
        style=discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary,
        disabled=chosen,
    )


def hero_button(choice_id: int, count: int) -> Button:
    """The button ``HeroDamageButton`` stands for, as a reply shows it."""
    return Button(
        custom_id=f"dmg:hero:{choice_id}:{count}", label=LABEL, style=discord.ButtonStyle.success
    )


def choice_items(
    choice_id: int | None,
    inputs: HitInputs | None,
    chosen_index: int | None,
    *,
    limit: int = MAX_BUTTONS,
) -> list[Button]:
    """One button per die (the kept one green and disabled), the ``limit`` most useful
    when there are more; none with nothing to choose."""
    if choice_id is None or inputs is None or inputs.rolled is None or chosen_index is None:
        return []
    if len(inputs.rolled.dice) < 2 or limit < 2:
        return []
    rolled = inputs.rolled
    indices = list(range(len(rolled.dice)))
    if len(indices) > limit:
        ranked = sorted(indices, key=lambda i: (i != chosen_index, -expected_total(rolled, i)))
        indices = sorted(ranked[:limit])
    return [
        die_button(choice_id, index, label=die_label(inputs, index), chosen=index == chosen_index)
        for index in indices
    ]


def choice_view(
    choice_id: int | None, inputs: HitInputs | None, chosen_index: int | None
) -> Buttons | None:
    """The die buttons alone (a /damage reply); None with nothing to choose."""
    return buttons_or_none(choice_items(choice_id, inputs, chosen_index))


async def hero_item(
    conn: aiosqlite.Connection,
    choice: DamageChoice,
    known: Mapping[int, Character] | None = None,
) -> Button | None:
    """The Hero reroll damage button: a player character's open damage roll with a die
    below its average, while that character has a hero point. ``known``: characters as
    stored now (read by the command, points unchanged since)."""
    if choice.attacker_id is None or choice.expired(now()) or not low_damage_dice(choice.inputs):
        return None
    attacker = (known or {}).get(choice.attacker_id) or await CharacterRepository(conn).get(
        choice.attacker_id
    )
    if attacker is None or attacker.kind is not CharacterKind.PC:
        return None
    if attacker.state.hero_points <= 0:
        return None
    return hero_button(choice.id, choice.rolls.hero_rerolls)


async def _choice_with_hero(
    conn: aiosqlite.Connection,
    choice_id: int | None,
    room: int,
    choice: DamageChoice | None = None,
    known: Mapping[int, Character] | None = None,
) -> list[Button]:
    """``choice``: the choice ``choice_id`` as just stored (else it is read)."""
    if choice_id is None:
        return []
    if choice is None or choice.id != int(choice_id):
        choice = await CombatRepository(conn).get_choice(int(choice_id))
    if choice is None:
        return []
    hero = await hero_item(conn, choice, known)
    items: list[Button] = [hero] if hero is not None else []
    room -= len(items)
    items += choice_items(choice.id, choice.inputs, choice.chosen_index, limit=room)
    return items


async def attack_choice_items(
    conn: aiosqlite.Connection,
    logged: LoggedRoll,
    *,
    room: int,
    choice: DamageChoice | None = None,
    known: Mapping[int, Character] | None = None,
) -> list[Button]:
    """The buttons of an attack's open damage choice: Hero reroll damage and one per
    die (none after a miss, or once the choice has expired). ``choice`` and ``known``:
    what the attack just stored and read, so neither is read again."""
    return await _choice_with_hero(conn, logged.result.get("choice_id"), room, choice, known)


async def damage_view(
    conn: aiosqlite.Connection,
    choice_id: int | None,
    choice: DamageChoice | None = None,
    known: Mapping[int, Character] | None = None,
) -> Buttons | None:
    """A damage choice's own buttons: Hero reroll damage and the die choices (or None);
    ``choice`` and ``known`` as for ``attack_choice_items``. A /damage reply also
    carries its target's threshold row above them (``points.views.roll_view``)."""
    return buttons_or_none(await _choice_with_hero(conn, choice_id, MAX_BUTTONS, choice, known))
