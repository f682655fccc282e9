"""Spells, rituals and concentration as embeds: every die, every modifier, the band,
the backlash and the random magical effects the GM is to name."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.interactions.user_text import echo
from bot.render.text import safe
from bot.render.twod10.task import dice_text, edge_text, modifiers_text
from bot.rules.twod10.magic import Backlash, CastResult, Form, advantage_sources
from bot.rules.twod10.magic_time import duration_text
from bot.storage.twod10.magic import Held

SUCCESS = discord.Colour.green()
FAILURE = discord.Colour.red()
MAGIC = discord.Colour.purple()
MAX_DESCRIPTION = 4000
MAX_FIELD = 1024


def concentration_text(held: Held) -> str:
    """``levitate (tier 1 spell)``: what a character concentrates on."""
    return f"{safe(held.effect)} (tier {held.tier.value} {held.form.value})"


def backlash_lines(result: CastResult) -> list[str]:
    tier = result.casting.tier.value
    if result.backlash is Backlash.EFFECT:
        return ["**Backlash**: merely a random magical effect (a failed 8 to 10)."]
    if result.backlash is Backlash.CONSEQUENCES:
        return [
            "**Backlash**: a random magical effect and further consequences, which the GM"
            f" scales by the tier ({tier}) and the failure: {result.shortfall} below 8."
        ]
    return []


def effects_line(result: CastResult) -> str | None:
    """Ruling random-effect: the count, and why, for the GM to name."""
    if not result.random_effects:
        return None
    why = []
    if result.casting.dangerously:
        why.append("casting dangerously")
    if result.backlash is not Backlash.NONE:
        why.append("backlash")
    count = result.random_effects
    noun = "random magical effect" if count == 1 else "random magical effects"
    pronoun = "it" if count == 1 else "them"
    return f"✨ {count} {noun} ({' and '.join(why)}): the GM names {pronoun}."


def cast_embed(
    result: CastResult,
    *,
    who: str,
    what: str,
    advantage: int,
    disadvantage: int,
    minutes: int | None = None,
    concentrating: str | None = None,
    ended: str | None = None,
    label: str | None = None,
) -> discord.Embed:
    """A spell or ritual cast by ``who``; ``what`` names the category or the ritual."""
    casting = result.casting
    form = "spell" if casting.form is Form.SPELL else "ritual"
    title = f"{safe(who)}: tier {casting.tier.value} {form} · {safe(what)}"
    if label:
        title += f" · {safe(label)}"
    lines: list[str] = []
    if casting.form is Form.RITUAL:
        details = []
        if minutes is not None:
            details.append(f"time {duration_text(minutes)}")
        details.append("with a ritual component" if casting.component else "no component")
        lines.append("Ritual: " + ", ".join(details) + ".")
    if casting.extension.value != "none":
        lines.append(f"Advantage from {casting.extension.value}.")
    elif casting.form is Form.RITUAL and casting.component and advantage_sources(casting):
        lines.append("Advantage from the ritual component.")
    roll = result.roll
    if roll is None:
        lines.append(
            "**Damage in combat**: the casting fails with no roll, so no backlash;"
            " any concentration is lost."
        )
    else:
        adv = advantage + advantage_sources(casting)
        dis = disadvantage + (1 if casting.attacked else 0)
        lines.append(f"🎲 {edge_text(roll, adv, dis)} {dice_text(roll)} = {roll.natural}")
        if casting.attacked:
            lines.append("Attacked while casting: disadvantage.")
        lines.append(f"**{roll.total}** = {roll.natural} {modifiers_text(roll)}".rstrip())
        lines.append(f"**{roll.band.value.capitalize()}**")
        if roll.natural_two:
            lines.append("Natural 2: the casting fails whatever the modifiers.")
        lines.append(f"The {form} {'takes effect' if result.succeeded else 'fails'}.")
        lines += backlash_lines(result)
        effects = effects_line(result)
        if effects:
            lines.append(effects)
    if ended is not None:
        lines.append(f"Concentration on {safe(ended)} ends.")
    if concentrating is not None:
        lines.append(f"🔮 Concentrating on {safe(concentrating)}.")
    colour = SUCCESS if result.succeeded else FAILURE
    return discord.Embed(
        title=title[:256], description="\n".join(lines)[:MAX_DESCRIPTION], colour=colour
    )


def ended_embed(who: str, held: Held) -> discord.Embed:
    return discord.Embed(
        title=f"{safe(who)}: concentration ends"[:256],
        description=f"No longer concentrating on {concentration_text(held)}.",
        colour=MAGIC,
    )


def concentration_list_embed(rows: Iterable[tuple[str, Held]]) -> discord.Embed:
    lines = [f"**{safe(name)}**: {concentration_text(held)}" for name, held in rows]
    body = "\n".join(lines) if lines else "Nobody is concentrating on a spell or ritual."
    return discord.Embed(title="Concentration", description=body[:MAX_DESCRIPTION], colour=MAGIC)


def lost_line(name: str, effect: str) -> str:
    """Said under a hit that broke a concentration."""
    return f"🔮 {safe(name)}'s concentration on {safe(effect)} is lost to the damage."


def add_concentration_field(embed: discord.Embed, rows: Iterable[tuple[str, str]]) -> None:
    """The tracker's "Concentration" field: (combatant name, effect) per concentrating
    combatant; nothing when nobody concentrates."""
    lines = [f"🔮 **{echo(name, 64)}**: {echo(effect, 100)}" for name, effect in rows]
    if lines:
        embed.add_field(name="Concentration", value="\n".join(lines)[:MAX_FIELD], inline=False)
