"""A 2d10 character sheet as an embed, and the server's list of sheets."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.text import clip, safe
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import Armor, Shield, Weapon
from bot.storage.twod10.characters import TwoD10Kind, TwoD10Sheet

COLOUR = discord.Colour.dark_teal()
HIDDEN = "hidden by the GM"


def weapon_line(weapon: Weapon) -> str:
    """``One-handed axe: 1d8, axe, one-handed; extra die on 19+``."""
    notes = [weapon.family.value, weapon.size.value]
    if weapon.thrown:
        notes.append("thrown")
    if weapon.reach:
        notes.append("reach")
    if weapon.range_feet:
        notes.append(f"range {weapon.range_feet} ft")
    if weapon.ignores_reduction:
        notes.append(f"ignores {weapon.ignores_reduction} reduction")
    if weapon.needs_loading:
        notes.append("loads")
    if weapon.extra_die_from:
        notes.append(f"extra die on {weapon.extra_die_from}+")
    if weapon.bonus_second_attack:
        notes.append("second attack as bonus action")
    return f"{weapon.name}: {weapon.damage.label} ({', '.join(notes)})"


def armor_line(armor: Armor | None) -> str:
    if armor is None:
        return "none"
    return (
        f"{armor.name} ({armor.weight_class.value}): reduction {armor.reduction},"
        f" penalty {armor.penalty}"
    )


def shield_line(shield: Shield | None) -> str:
    if shield is None:
        return "none"
    return (
        f"{shield.name}: reduction {shield.reduction}, penalty {shield.penalty},"
        f" {shield.blocks} block{'s' if shield.blocks != 1 else ''}"
    )


def attributes_text(c: Character) -> str:
    return "\n".join(
        f"**{a.label}** {c.attribute(a):+d} · defense {c.defense_value(a):+d}" for a in Attribute
    )


def skills_text(c: Character) -> str:
    if not c.skills:
        return "none"
    return ", ".join(f"{safe(key.label)} {rank}" for key, rank in c.skills)


def hp_text(sheet: TwoD10Sheet) -> str:
    c = sheet.character
    return f"{sheet.hp}/{c.max_hp} HP · death at {c.death_threshold}"


def sheet_embed(
    sheet: TwoD10Sheet, *, active: bool = False, hidden: bool = False, concentration: str = ""
) -> discord.Embed:
    """The whole sheet; ``hidden`` leaves out HP, conditions and concentration (an NPC
    shown to players); ``concentration`` is the lasting effect held, already rendered."""
    c = sheet.character
    title = safe(sheet.name) + (" ★" if active else "")
    header = f"{sheet.kind.title} · background: {safe(c.background)}"
    embed = discord.Embed(title=title[:256], description=clip(header), colour=COLOUR)
    embed.add_field(name="Attributes", value=attributes_text(c), inline=True)
    if hidden:
        embed.add_field(name="Hit points", value=HIDDEN, inline=True)
    else:
        status = ", ".join(x.value for x in sheet.conditions) or "none"
        embed.add_field(
            name="Hit points", value=f"{hp_text(sheet)}\nConditions: {status}", inline=True
        )
        if concentration:
            embed.add_field(name="Concentration", value=clip(concentration), inline=False)
    embed.add_field(name="Skills", value=clip(skills_text(c)), inline=False)
    specs = []
    if c.positive is not None:
        specs.append(f"+ {c.positive.attribute.value}: {safe(c.positive.text)}")
    if c.negative is not None:
        specs.append(f"− {c.negative.attribute.value}: {safe(c.negative.text)}")
    if specs:
        embed.add_field(name="Specialisations", value=clip("\n".join(specs)), inline=False)
    feats = "\n".join(f"• {safe(f)}" for f in c.feats) or "none"
    embed.add_field(name="Feats", value=clip(feats), inline=False)
    gear = [
        f"Armor: {armor_line(c.armor)}",
        f"Shield: {shield_line(c.shield)}",
        f"Damage reduction {c.damage_reduction}, armor penalty {c.armor_penalty}",
    ]
    gear += [f"• {weapon_line(w)}" for w in c.weapons] or ["No weapons"]
    embed.add_field(name="Equipment", value=clip("\n".join(gear)), inline=False)
    return embed


def list_line(sheet: TwoD10Sheet, *, active: bool, hidden: bool) -> str:
    kind = "" if sheet.kind is TwoD10Kind.PC else f" ({sheet.kind.value})"
    hp = "" if hidden else f" · {sheet.hp}/{sheet.max_hp} HP"
    star = " ★" if active else ""
    return f"**{safe(sheet.name)}**{star}{kind} · <@{sheet.owner_id}>{hp}"


def list_embed(
    sheets: Sequence[TwoD10Sheet], *, title: str, active_ids: set[int], hidden_ids: set[int]
) -> discord.Embed:
    if not sheets:
        body = "No characters yet: create one with /character create."
    else:
        lines = [list_line(s, active=s.id in active_ids, hidden=s.id in hidden_ids) for s in sheets]
        body = clip("\n".join(lines), 4000)
    return discord.Embed(title=title[:256], description=body, colour=COLOUR)
